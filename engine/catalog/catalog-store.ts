// Reads of the charger catalog. Stable order: name, then slug.
import type { Queryable } from '../platform/db/database.ts';

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}

export interface CatalogBrand {
  id: string;
  slug: string;
  name: string;
  created_at: string;
}

export interface CatalogModel {
  id: string;
  slug: string;
  name: string;
  brand_slug: string;
  brand_id: string;
  connector_count: number;
  current_type: string;
  supported_kwh: number[];
  connector_types: string[];
  max_power_kw: number;
  ocpp_versions: string[];
  boot_vendor: string;
  boot_model: string;
  firmware_version: string;
  created_at: string;
}

const MODEL_COLUMNS = `m.id::text AS id, m.slug, m.name, b.slug AS brand_slug, b.id::text AS brand_id,
  m.connector_count, m.current_type, m.supported_kwh, m.connector_types, m.max_power_kw, m.ocpp_versions,
  m.boot_vendor, m.boot_model, m.firmware_version, m.created_at`;

/** How long a model lookup is kept (the catalog changes only when a node starts with new reference data). */
const MODEL_CACHE_MS = 60_000;

export class CatalogStore {
  constructor(private readonly db: Queryable) {}

  async listBrands(page: number, limit: number): Promise<Page<CatalogBrand>> {
    const { rows } = await this.db.query<CatalogBrand & { total: number }>(
      `SELECT id::text AS id, slug, name, created_at, count(*) OVER () AS total
       FROM catalog_brands ORDER BY lower(name) COLLATE "C", slug COLLATE "C" LIMIT $1 OFFSET $2`,
      [limit, (page - 1) * limit],
    );
    const total = rows.length > 0 ? rows[0].total : await this.count('catalog_brands');
    return { data: rows.map(({ total: _t, ...b }) => toBrand(b)), total, page, limit };
  }

  async findBrand(slug: string): Promise<CatalogBrand | undefined> {
    const { rows } = await this.db.query<CatalogBrand>(
      'SELECT id::text AS id, slug, name, created_at FROM catalog_brands WHERE slug = $1',
      [slug],
    );
    return rows[0] && toBrand(rows[0]);
  }

  async listModels(brandId: string, page: number, limit: number): Promise<Page<CatalogModel>> {
    const { rows } = await this.db.query<CatalogModel & { total: number }>(
      `SELECT ${MODEL_COLUMNS}, count(*) OVER () AS total
       FROM catalog_models m JOIN catalog_brands b ON b.id = m.brand_id
       WHERE m.brand_id = $1 ORDER BY lower(m.name) COLLATE "C", m.slug COLLATE "C" LIMIT $2 OFFSET $3`,
      [brandId, limit, (page - 1) * limit],
    );
    const total =
      rows.length > 0
        ? rows[0].total
        : Number(
            (await this.db.query('SELECT count(*) AS n FROM catalog_models WHERE brand_id = $1', [brandId]))
              .rows[0].n,
          );
    return { data: rows.map(({ total: _t, ...m }) => toModel(m)), total, page, limit };
  }

  /**
   * A model by its slug, optionally only under one brand. The catalog is reference data written at
   * start-up, so lookups are kept for a minute: E5 and E7 ask for the same few models thousands of
   * times while a fleet boots, when every round trip waits behind the chargers' traffic.
   */
  findModel(slug: string, brandId?: string): Promise<CatalogModel | undefined> {
    const key = `${brandId ?? ''}/${slug}`;
    const now = Date.now();
    const hit = this.#models.get(key);
    if (hit && hit.until > now) return hit.model;
    const model = this.#findModel(slug, brandId);
    this.#models.set(key, { model, until: now + MODEL_CACHE_MS });
    model.catch(() => this.#models.delete(key));
    return model;
  }

  readonly #models = new Map<string, { model: Promise<CatalogModel | undefined>; until: number }>();

  async #findModel(slug: string, brandId?: string): Promise<CatalogModel | undefined> {
    const { rows } = await this.db.query<CatalogModel>(
      `SELECT ${MODEL_COLUMNS} FROM catalog_models m JOIN catalog_brands b ON b.id = m.brand_id
       WHERE m.slug = $1 AND ($2::uuid IS NULL OR m.brand_id = $2::uuid)`,
      [slug, brandId ?? null],
    );
    return rows[0] && toModel(rows[0]);
  }

  private async count(table: 'catalog_brands'): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
    return Number(rows[0].n);
  }
}

function iso(v: unknown): string {
  return v instanceof Date ? v.toISOString() : String(v);
}

function toBrand(b: CatalogBrand): CatalogBrand {
  return { id: b.id, slug: b.slug, name: b.name, created_at: iso(b.created_at) };
}

function toModel(m: CatalogModel): CatalogModel {
  return { ...m, supported_kwh: m.supported_kwh.map(Number), created_at: iso(m.created_at) };
}
