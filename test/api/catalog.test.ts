import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { brandsInOrder, catalogFile, modelsOf } from '../support/reference-data.ts';

describe(`Catalog E1-E3 (${MODE})`, () => {
  let svc: TestService;
  let get: ReturnType<TestService['as']>;
  before(async () => {
    svc = await startTestService();
    get = (m, p, o) => svc.as('org-a')(m, p, o);
  });
  after(() => svc.close());

  test('E1 lists brands with defaults page 1, limit 20, in name order', async () => {
    const res = await get('GET', '/evcharger/catalog');
    assert.equal(res.status, 200);
    assert.equal(res.body.page, 1);
    assert.equal(res.body.limit, 20);
    assert.equal(res.body.total, catalogFile.brands.length);
    assert.deepEqual(
      res.body.data.map((b: any) => b.slug),
      brandsInOrder.slice(0, 20).map((b) => b.slug),
    );
    const first = res.body.data[0];
    assert.deepEqual(Object.keys(first).sort(), ['created_at', 'id', 'name', 'slug']);
    assert.ok(!Number.isNaN(Date.parse(first.created_at)));
  });

  test('E1 pages through brands without overlap', async () => {
    const p2 = await get('GET', '/evcharger/catalog?page=2&limit=5');
    assert.equal(p2.status, 200);
    assert.deepEqual(
      p2.body.data.map((b: any) => b.slug),
      brandsInOrder.slice(5, 10).map((b) => b.slug),
    );
    assert.equal(p2.body.total, catalogFile.brands.length);
  });

  test('E1 past the last page answers an empty list with the total', async () => {
    const res = await get('GET', '/evcharger/catalog?page=1000&limit=100');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: [], total: catalogFile.brands.length, page: 1000, limit: 100 });
  });

  test('E1 answers 422 for a limit below 1', async () => {
    const res = await get('GET', '/evcharger/catalog?limit=0');
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail, [
      {
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        type: 'greater_than_equal',
        input: 0,
        ctx: { ge: 1 },
      },
    ]);
  });

  test('E1 answers 422 for a limit above 100', async () => {
    const res = await get('GET', '/evcharger/catalog?limit=101');
    assert.equal(res.status, 422);
    assert.equal(res.body.detail[0].type, 'less_than_equal');
    assert.deepEqual(res.body.detail[0].ctx, { le: 100 });
  });

  test('E1 answers 422 int_parsing for a page that is not an integer', async () => {
    const res = await get('GET', '/evcharger/catalog?page=abc');
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['query', 'page']);
    assert.equal(res.body.detail[0].type, 'int_parsing');
    assert.equal(res.body.detail[0].input, 'abc');
  });

  test('E1 answers 422 for page 0', async () => {
    const res = await get('GET', '/evcharger/catalog?page=0');
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['query', 'page']);
    assert.equal(res.body.detail[0].type, 'greater_than_equal');
  });

  test('E1 answers 401 without a bearer token', async () => {
    const res = await svc.request('GET', '/evcharger/catalog');
    assert.equal(res.status, 401);
    assert.equal(typeof res.body.detail, 'string');
  });

  test('E2 lists the models of a brand in name order with default limit 50', async () => {
    const brand = catalogFile.brands.find((b) => b.models.length >= 3)!;
    const res = await get('GET', `/evcharger/catalog/${brand.slug}/models`);
    assert.equal(res.status, 200);
    assert.equal(res.body.limit, 50);
    assert.equal(res.body.page, 1);
    assert.equal(res.body.total, brand.models.length);
    assert.deepEqual(
      res.body.data.map((m: any) => m.slug),
      modelsOf(brand.slug).map((m) => m.slug),
    );
    for (const m of res.body.data) assert.equal(m.brand_slug, brand.slug);
  });

  test('E2 pages models with limit and page', async () => {
    const brand = catalogFile.brands.find((b) => b.models.length >= 4)!;
    const res = await get('GET', `/evcharger/catalog/${brand.slug}/models?limit=2&page=2`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((m: any) => m.slug),
      modelsOf(brand.slug)
        .slice(2, 4)
        .map((m) => m.slug),
    );
  });

  test('E2 answers 404 naming the unknown brand', async () => {
    const res = await get('GET', '/evcharger/catalog/no-such-brand/models');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { detail: 'Entity no-such-brand not found in brands' });
  });

  test('E2 answers 400 for a brand slug that is not URL-safe', async () => {
    const res = await get('GET', `/evcharger/catalog/${encodeURIComponent('ABB Inc!')}/models`);
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /Invalid brand slug 'ABB Inc!'/);
  });

  test('E2 answers 422 for a limit above 100', async () => {
    const res = await get('GET', '/evcharger/catalog/abb/models?limit=500');
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['query', 'limit']);
  });

  test('E3 answers one model with every field', async () => {
    const brand = catalogFile.brands[0];
    const model = brand.models[0];
    const res = await get('GET', `/evcharger/catalog/${brand.slug}/models/${model.slug}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.slug, model.slug);
    assert.equal(res.body.name, model.name);
    assert.equal(res.body.brand_slug, brand.slug);
    assert.equal(res.body.connector_count, model.connector_count);
    assert.equal(res.body.current_type, model.current_type);
    assert.deepEqual(res.body.supported_kwh, model.supported_kwh);
    assert.deepEqual(res.body.connector_types, model.connector_types);
    assert.equal(typeof res.body.id, 'string');
    assert.equal(typeof res.body.brand_id, 'string');
    assert.ok(!Number.isNaN(Date.parse(res.body.created_at)));
  });

  test('E3 answers 404 for a model that exists under another brand', async () => {
    const [a, b] = catalogFile.brands;
    const res = await get('GET', `/evcharger/catalog/${a.slug}/models/${b.models[0].slug}`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { detail: `Entity ${b.models[0].slug} not found in models` });
  });

  test('E3 answers 404 for an unknown brand', async () => {
    const res = await get('GET', '/evcharger/catalog/nobody/models/whatever');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { detail: 'Entity nobody not found in models' });
  });

  test('E1 answers 500 when the catalog source fails, and the service keeps running', async () => {
    await svc.service.platform.db.query('ALTER TABLE catalog_brands RENAME TO catalog_brands_away');
    try {
      const res = await get('GET', '/evcharger/catalog');
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { detail: 'Catalog source failed' });
    } finally {
      await svc.service.platform.db.query('ALTER TABLE catalog_brands_away RENAME TO catalog_brands');
    }
    const again = await get('GET', '/evcharger/catalog');
    assert.equal(again.status, 200);
  });
});
