// Loads the versioned reference data (charger catalog, template gallery) into PostgreSQL.
// A file whose version is newer than the database's replaces the stored data in one transaction;
// concurrent starters serialize on an advisory lock.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';

const CATALOG_FILE = fileURLToPath(new URL('./catalog-data.json', import.meta.url));
const GALLERY_FILE = fileURLToPath(new URL('./template-gallery.json', import.meta.url));
const LOCK_ID = 727_002;

interface CatalogFile {
  version: number;
  brands: Array<{ slug: string; name: string; models: Array<Record<string, unknown> & { slug: string }> }>;
}
interface GalleryFile {
  version: number;
  templates: Array<Record<string, unknown> & { slug: string }>;
}

export async function loadReferenceData(db: Database, log: Logger): Promise<void> {
  const catalog = JSON.parse(readFileSync(CATALOG_FILE, 'utf8')) as CatalogFile;
  const gallery = JSON.parse(readFileSync(GALLERY_FILE, 'utf8')) as GalleryFile;
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    const { rows } = await q.query<{ name: string; version: number }>(
      'SELECT name, version FROM data_versions',
    );
    const loaded = new Map(rows.map((r) => [r.name, r.version]));
    if ((loaded.get('catalog') ?? 0) < catalog.version) {
      await replaceCatalog(q, catalog);
      await recordVersion(q, 'catalog', catalog.version);
      log.info({ version: catalog.version, brands: catalog.brands.length }, 'catalog loaded');
    }
    if ((loaded.get('template_gallery') ?? 0) < gallery.version) {
      await replaceGallery(q, gallery);
      await recordVersion(q, 'template_gallery', gallery.version);
      log.info({ version: gallery.version, templates: gallery.templates.length }, 'template gallery loaded');
    }
  });
}

async function recordVersion(q: Queryable, name: string, version: number): Promise<void> {
  await q.query(
    `INSERT INTO data_versions (name, version) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, loaded_at = now()`,
    [name, version],
  );
}

// Upsert by slug keeps ids stable across versions; rows gone from the file are removed.
async function replaceCatalog(q: Queryable, catalog: CatalogFile): Promise<void> {
  const brands = catalog.brands.map((b) => ({ slug: b.slug, name: b.name }));
  await q.query(
    `INSERT INTO catalog_brands (slug, name)
     SELECT slug, name FROM jsonb_to_recordset($1::jsonb) AS b(slug text, name text)
     ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name`,
    [JSON.stringify(brands)],
  );
  await q.query('DELETE FROM catalog_brands WHERE NOT (slug = ANY($1::text[]))', [brands.map((b) => b.slug)]);
  const models = catalog.brands.flatMap((b) => b.models.map((m) => ({ ...m, brand_slug: b.slug })));
  await q.query(
    `INSERT INTO catalog_models (slug, brand_id, name, connector_count, current_type, supported_kwh,
        connector_types, max_power_kw, ocpp_versions, boot_vendor, boot_model, firmware_version)
     SELECT m.slug, b.id, m.name, m.connector_count, m.current_type,
        ARRAY(SELECT jsonb_array_elements_text(m.supported_kwh))::double precision[],
        ARRAY(SELECT jsonb_array_elements_text(m.connector_types)),
        m.max_power_kw,
        ARRAY(SELECT jsonb_array_elements_text(m.ocpp_versions)),
        m.boot_vendor, m.boot_model, m.firmware_version
     FROM jsonb_to_recordset($1::jsonb) AS m(slug text, brand_slug text, name text, connector_count int,
        current_type text, supported_kwh jsonb, connector_types jsonb, max_power_kw double precision,
        ocpp_versions jsonb, boot_vendor text, boot_model text, firmware_version text)
     JOIN catalog_brands b ON b.slug = m.brand_slug
     ON CONFLICT (slug) DO UPDATE SET brand_id = EXCLUDED.brand_id, name = EXCLUDED.name,
        connector_count = EXCLUDED.connector_count, current_type = EXCLUDED.current_type,
        supported_kwh = EXCLUDED.supported_kwh, connector_types = EXCLUDED.connector_types,
        max_power_kw = EXCLUDED.max_power_kw, ocpp_versions = EXCLUDED.ocpp_versions,
        boot_vendor = EXCLUDED.boot_vendor, boot_model = EXCLUDED.boot_model,
        firmware_version = EXCLUDED.firmware_version`,
    [JSON.stringify(models)],
  );
  await q.query('DELETE FROM catalog_models WHERE NOT (slug = ANY($1::text[]))', [models.map((m) => m.slug)]);
}

async function replaceGallery(q: Queryable, gallery: GalleryFile): Promise<void> {
  await q.query('DELETE FROM location_templates');
  const rows = gallery.templates.map((t, position) => ({ ...t, position }));
  await q.query(
    `INSERT INTO location_templates (slug, position, name, description, cpo_name, cpo_slug, party_id,
        ocpp_version, ocpi_version, connector_type, recommended, body)
     SELECT slug, position, name, description, cpo_name, cpo_slug, party_id, ocpp_version, ocpi_version,
        connector_type, recommended, body
     FROM jsonb_to_recordset($1::jsonb) AS t(slug text, position int, name text, description text,
        cpo_name text, cpo_slug text, party_id text, ocpp_version text, ocpi_version text,
        connector_type text, recommended boolean, body jsonb)`,
    [JSON.stringify(rows)],
  );
}
