import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { galleryFile } from '../support/reference-data.ts';

const FIELDS = [
  'body',
  'connector_type',
  'cpo_name',
  'cpo_slug',
  'description',
  'name',
  'ocpi_version',
  'ocpp_version',
  'party_id',
  'slug',
];

describe(`Templates E4 (${MODE})`, () => {
  let svc: TestService;
  let get: ReturnType<TestService['as']>;
  before(async () => {
    svc = await startTestService();
    get = (m, p, o) => svc.as('org-a')(m, p, o);
  });
  after(() => svc.close());

  test('E4 answers the four recommended templates by default, one per OCPP x OCPI pair', async () => {
    const res = await get('GET', '/evcharger/templates/locations');
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 4);
    assert.deepEqual(res.body.filters, {
      ocpp_version: null,
      ocpi_version: null,
      connector_type: null,
      include_all: false,
    });
    const pairs = res.body.templates.map((t: any) => `${t.ocpp_version}/${t.ocpi_version}`).sort();
    assert.deepEqual(pairs, ['ocpp1.6/2.1.1', 'ocpp1.6/2.2.1', 'ocpp2.0.1/2.1.1', 'ocpp2.0.1/2.2.1']);
    for (const t of res.body.templates) {
      assert.deepEqual(Object.keys(t).sort(), FIELDS);
      assert.equal(t.body.ocpp_version, t.ocpp_version);
      assert.equal(t.body.ocpi_version, t.ocpi_version);
    }
  });

  test('E4 with include_all answers the whole gallery of at least 12', async () => {
    const res = await get('GET', '/evcharger/templates/locations?include_all=true');
    assert.equal(res.status, 200);
    assert.equal(res.body.count, galleryFile.templates.length);
    assert.ok(res.body.count >= 12);
    assert.equal(res.body.filters.include_all, true);
    assert.deepEqual(
      res.body.templates.map((t: any) => t.slug),
      galleryFile.templates.map((t) => t.slug),
    );
  });

  test('E4 filters by ocpp_version', async () => {
    const res = await get('GET', '/evcharger/templates/locations?include_all=true&ocpp_version=ocpp2.0.1');
    assert.equal(res.status, 200);
    const expected = galleryFile.templates.filter((t) => t.ocpp_version === 'ocpp2.0.1').length;
    assert.equal(res.body.count, expected);
    assert.ok(res.body.templates.every((t: any) => t.ocpp_version === 'ocpp2.0.1'));
    assert.equal(res.body.filters.ocpp_version, 'ocpp2.0.1');
  });

  test('E4 filters by ocpi_version', async () => {
    const res = await get('GET', '/evcharger/templates/locations?ocpi_version=2.2.1');
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 2);
    assert.ok(res.body.templates.every((t: any) => t.ocpi_version === '2.2.1'));
  });

  test('E4 filters by connector_type', async () => {
    const type = galleryFile.templates.find((t) => !t.recommended)!.connector_type;
    const res = await get(
      'GET',
      `/evcharger/templates/locations?include_all=true&connector_type=${encodeURIComponent(type)}`,
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.count, galleryFile.templates.filter((t) => t.connector_type === type).length);
    assert.ok(res.body.templates.every((t: any) => t.connector_type === type));
  });

  test("E4 answers 400 Invalid ocpp_version '<value>'", async () => {
    const res = await get('GET', '/evcharger/templates/locations?ocpp_version=ocpp9');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: "Invalid ocpp_version 'ocpp9'" });
  });

  test("E4 answers 400 Invalid ocpi_version '<value>'", async () => {
    const res = await get('GET', '/evcharger/templates/locations?ocpi_version=3.0');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: "Invalid ocpi_version '3.0'" });
  });

  test('E4 answers 422 when include_all is not a boolean', async () => {
    const res = await get('GET', '/evcharger/templates/locations?include_all=maybe');
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['query', 'include_all']);
    assert.equal(res.body.detail[0].type, 'bool_parsing');
  });

  test('E4 answers 401 without a bearer token', async () => {
    const res = await svc.request('GET', '/evcharger/templates/locations');
    assert.equal(res.status, 401);
  });

  test('E4 answers 500 when the gallery source fails', async () => {
    await svc.service.platform.db.query('ALTER TABLE location_templates RENAME TO location_templates_away');
    try {
      const res = await get('GET', '/evcharger/templates/locations');
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { detail: 'Template gallery source failed' });
    } finally {
      await svc.service.platform.db.query('ALTER TABLE location_templates_away RENAME TO location_templates');
    }
  });
});
