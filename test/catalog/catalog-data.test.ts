// Integrity of the versioned catalog and template gallery the service loads into PostgreSQL at start:
// a broken data file would only show up as a failed load or a template that cannot deploy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isOcppVersion } from '../../protocols/ocpp/versions.ts';

interface CatalogModel {
  slug: string;
  name: string;
  connector_count: number;
  current_type: string;
  supported_kwh: number[];
  connector_types: string[];
  max_power_kw: number;
  ocpp_versions: string[];
  boot_vendor: string;
  boot_model: string;
  firmware_version: string;
}
interface CatalogBrand {
  slug: string;
  name: string;
  models: CatalogModel[];
}
interface TemplateGroup {
  count: number;
  identity_prefix: string;
  brand_slug: string;
  model: string;
  connector_type: string;
  ws_url?: string;
}
interface LocationTemplate {
  slug: string;
  name: string;
  description: string;
  cpo_name: string;
  cpo_slug: string;
  party_id: string;
  ocpp_version: string;
  ocpi_version: string;
  connector_type: string;
  recommended: boolean;
  body: {
    name: string;
    address: string;
    city: string;
    country: string;
    coordinates: { lat: number; lng: number };
    timezone: string;
    ocpp_version: string;
    ocpi_version: string;
    charger_groups: TemplateGroup[];
  };
}

const repoRoot = new URL('../../', import.meta.url);
const readJson = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, repoRoot), 'utf8')) as T;

const catalog = readJson<{ version: number; brands: CatalogBrand[] }>('engine/catalog/catalog-data.json');
const gallery = readJson<{ version: number; templates: LocationTemplate[] }>(
  'engine/catalog/template-gallery.json',
);
const models = catalog.brands.flatMap((b) => b.models);
const templates = gallery.templates;

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const IDENTITY_PREFIX = /^[A-Z0-9][A-Z0-9-]{2,28}-$/;
const chargerCount = (t: LocationTemplate) => t.body.charger_groups.reduce((n, g) => n + g.count, 0);
const CONNECTOR_TYPES = ['Type1', 'Type2', 'CCS1', 'CCS2', 'CHAdeMO', 'NACS', 'GBT'];
const AC_CONNECTORS = ['Type1', 'Type2', 'NACS', 'GBT'];
const DC_CONNECTORS = ['CCS1', 'CCS2', 'CHAdeMO', 'NACS', 'GBT'];
/** The versions of the template gallery: E4's filter (the spec's enum). */
const TEMPLATE_OCPP_VERSIONS = ['ocpp1.6', 'ocpp2.0.1'];
const OCPI_VERSIONS = ['2.1.1', '2.2.1'];

function duplicates(values: string[]): string[] {
  return values.filter((v, i) => values.indexOf(v) !== i);
}

test('the catalog is at version 2 (OCPP 2.1) and the gallery at version 2 (charger groups)', () => {
  assert.equal(catalog.version, 2);
  assert.equal(gallery.version, 2);
});

test('catalog has at least 15 brands and 80 models', () => {
  assert.ok(catalog.brands.length >= 15, `${catalog.brands.length} brands`);
  assert.ok(models.length >= 80, `${models.length} models`);
});

test('brand and model slugs match the slug pattern', () => {
  const bad = [...catalog.brands.map((b) => b.slug), ...models.map((m) => m.slug)].filter(
    (s) => !SLUG.test(s),
  );
  assert.deepEqual(bad, []);
});

test('brand slugs are unique and model slugs are unique across the whole catalog', () => {
  assert.deepEqual(duplicates(catalog.brands.map((b) => b.slug)), []);
  assert.deepEqual(duplicates(models.map((m) => m.slug)), []);
});

test('every model slug starts with its brand slug', () => {
  const bad = catalog.brands.flatMap((b) => b.models.filter((m) => !m.slug.startsWith(`${b.slug}-`)));
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('the named market brands are present', () => {
  const slugs = new Set(catalog.brands.map((b) => b.slug));
  const named = [
    'abb',
    'alfen',
    'wallbox',
    'easee',
    'zaptec',
    'kempower',
    'tritium',
    'siemens',
    'schneider-electric',
    'evbox',
    'chargepoint',
    'autel',
    'delta',
    'enel-x',
    'ekoenergetyka',
  ];
  assert.deepEqual(
    named.filter((s) => !slugs.has(s)),
    [],
  );
});

test('brands are sorted by name and models by name within a brand', () => {
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en');
  assert.deepEqual(
    catalog.brands.map((b) => b.name),
    [...catalog.brands].sort(byName).map((b) => b.name),
  );
  for (const brand of catalog.brands) {
    assert.deepEqual(
      brand.models.map((m) => m.name),
      [...brand.models].sort(byName).map((m) => m.name),
      brand.slug,
    );
  }
});

test('every connector type is in the vocabulary', () => {
  const bad = models.filter(
    (m) => m.connector_types.length === 0 || m.connector_types.some((c) => !CONNECTOR_TYPES.includes(c)),
  );
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('connector types agree with the current type (AC or DC)', () => {
  const bad = models.filter((m) => {
    if (m.current_type === 'AC') return m.connector_types.some((c) => !AC_CONNECTORS.includes(c));
    if (m.current_type === 'DC') return m.connector_types.some((c) => !DC_CONNECTORS.includes(c));
    return true;
  });
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('AC models stay within 43 kW', () => {
  const bad = models.filter((m) => m.current_type === 'AC' && m.max_power_kw > 43);
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('supported_kwh is ascending and max_power_kw is its largest level', () => {
  const bad = models.filter(
    (m) =>
      m.supported_kwh.length === 0 ||
      m.supported_kwh.some((kw, i) => kw <= 0 || (i > 0 && kw <= m.supported_kwh[i - 1])) ||
      m.max_power_kw !== m.supported_kwh[m.supported_kwh.length - 1],
  );
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('connector_count is a positive integer', () => {
  const bad = models.filter((m) => !Number.isInteger(m.connector_count) || m.connector_count < 1);
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('ocpp_versions are versions the chargers speak and at least 60 models support both 1.6 and 2.0.1', () => {
  const bad = models.filter((m) => m.ocpp_versions.length === 0 || !m.ocpp_versions.every(isOcppVersion));
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
  const both = models.filter(
    (m) => m.ocpp_versions.includes('ocpp1.6') && m.ocpp_versions.includes('ocpp2.0.1'),
  );
  assert.ok(both.length >= 60);
  // A model that speaks 2.0.1 speaks 2.1 too: 2.1 keeps every 2.0.1 message.
  const without21 = models.filter(
    (m) => m.ocpp_versions.includes('ocpp2.0.1') && !m.ocpp_versions.includes('ocpp2.1'),
  );
  assert.deepEqual(
    without21.map((m) => m.slug),
    [],
  );
});

test('boot_vendor and boot_model fit the OCPP 1.6 CiString20 limit', () => {
  const bad = models.filter(
    (m) => !m.boot_vendor || !m.boot_model || m.boot_vendor.length > 20 || m.boot_model.length > 20,
  );
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('firmware_version is present and at most 50 characters', () => {
  const bad = models.filter((m) => !m.firmware_version || m.firmware_version.length > 50);
  assert.deepEqual(
    bad.map((m) => m.slug),
    [],
  );
});

test('exactly four recommended templates cover the four OCPP x OCPI combinations', () => {
  const recommended = templates.filter((t) => t.recommended);
  const combos = recommended.map((t) => `${t.ocpp_version} ${t.ocpi_version}`).sort();
  assert.deepEqual(combos, ['ocpp1.6 2.1.1', 'ocpp1.6 2.2.1', 'ocpp2.0.1 2.1.1', 'ocpp2.0.1 2.2.1']);
});

test('the extended gallery has at least 12 templates with unique slugs', () => {
  assert.ok(templates.length >= 12, `${templates.length} templates`);
  assert.deepEqual(duplicates(templates.map((t) => t.slug)), []);
  assert.deepEqual(
    templates.map((t) => t.slug).filter((s) => !SLUG.test(s)),
    [],
  );
});

test('template versions are known and the body carries the same versions', () => {
  const bad = templates.filter(
    (t) =>
      !TEMPLATE_OCPP_VERSIONS.includes(t.ocpp_version) ||
      !OCPI_VERSIONS.includes(t.ocpi_version) ||
      t.body.ocpp_version !== t.ocpp_version ||
      t.body.ocpi_version !== t.ocpi_version,
  );
  assert.deepEqual(
    bad.map((t) => t.slug),
    [],
  );
});

test('party_id is three uppercase alphanumerics and cpo_slug is a slug', () => {
  const bad = templates.filter((t) => !/^[A-Z0-9]{3}$/.test(t.party_id) || !SLUG.test(t.cpo_slug));
  assert.deepEqual(
    bad.map((t) => t.slug),
    [],
  );
});

test('every template has 2 to 6 chargers sharing the template connector type, without ws_url', () => {
  const bad = templates.filter(
    (t) =>
      chargerCount(t) < 2 ||
      chargerCount(t) > 6 ||
      t.body.charger_groups.some((g) => g.connector_type !== t.connector_type || 'ws_url' in g),
  );
  assert.deepEqual(
    bad.map((t) => t.slug),
    [],
  );
});

test('every template charger group references a model of its brand supporting the version and connector type', () => {
  const bySlug = new Map(catalog.brands.map((b) => [b.slug, new Map(b.models.map((m) => [m.slug, m]))]));
  const bad = templates.flatMap((t) =>
    t.body.charger_groups
      .filter((g) => {
        const model = bySlug.get(g.brand_slug)?.get(g.model);
        return (
          !model ||
          !model.ocpp_versions.includes(t.ocpp_version) ||
          !model.connector_types.includes(g.connector_type)
        );
      })
      .map((g) => `${t.slug}/${g.model}`),
  );
  assert.deepEqual(bad, []);
});

test('charger identity prefixes match the identity pattern, one per template, unique across the gallery', () => {
  const prefixes = templates.map((t) => [...new Set(t.body.charger_groups.map((g) => g.identity_prefix))]);
  assert.deepEqual(
    prefixes.filter((p) => p.length !== 1 || !IDENTITY_PREFIX.test(p[0])),
    [],
  );
  assert.deepEqual(duplicates(prefixes.flat()), []);
});

test('country codes are three uppercase letters', () => {
  const bad = templates.filter((t) => !/^[A-Z]{3}$/.test(t.body.country));
  assert.deepEqual(
    bad.map((t) => t.slug),
    [],
  );
});

test('coordinates are valid latitude and longitude', () => {
  const bad = templates.filter(
    (t) => Math.abs(t.body.coordinates.lat) > 90 || Math.abs(t.body.coordinates.lng) > 180,
  );
  assert.deepEqual(
    bad.map((t) => t.slug),
    [],
  );
});

test('timezones are IANA zones accepted by Intl.DateTimeFormat', () => {
  const bad = templates.filter((t) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: t.body.timezone });
      return false;
    } catch {
      return true;
    }
  });
  assert.deepEqual(
    bad.map((t) => t.slug),
    [],
  );
});
