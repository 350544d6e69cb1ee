// CPO locations: create / read / delete (interface.md) and E21 PATCH with OCPI semantics.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { aLocation } from './builders.ts';

describe('CPO locations', () => {
  let svc: TestService;
  let a: ReturnType<TestService['as']>;
  let b: ReturnType<TestService['as']>;

  before(async () => {
    svc = await startTestService();
    a = svc.as('org-a');
    b = svc.as('org-b');
  });
  after(() => svc.close());

  async function created(overrides: Record<string, unknown> = {}) {
    const res = await a('POST', '/cpo/locations', { body: aLocation(overrides) });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  test('POST /cpo/locations answers 201 with the full record at revision 1', async () => {
    const body = aLocation({
      name: 'Central station',
      parking_type: 'PARKING_GARAGE',
      facilities: ['TRAIN_STATION'],
      opening_times: { twentyfourseven: true },
      energy_mix: { is_green_energy: true, energy_sources: [{ source: 'SOLAR', percentage: 100 }] },
      operator: { name: 'Operator', website: 'https://op.example' },
      parking_places: [
        { id: 'P1', vehicle_types: ['PASSENGER'], restricted_to_type: false, reservation_required: false },
      ],
    });
    const res = await a('POST', '/cpo/locations', { body });
    assert.equal(res.status, 201, res.text);
    const loc = res.body;
    assert.equal(typeof loc.id, 'number');
    assert.equal(loc.organization_id, 'org-a');
    assert.equal(loc.location_id, body.location_id);
    assert.equal(loc.revision, 1);
    assert.equal(loc.publish, true);
    assert.equal(loc.role, 'CPO');
    assert.equal(loc.origin, 'LOCAL');
    assert.equal(loc.ocpi_version, '2.2.1');
    assert.deepEqual(loc.coordinates, body.coordinates);
    assert.deepEqual(loc.energy_mix, body.energy_mix);
    assert.deepEqual(loc.parking_places, body.parking_places);
    assert.equal(loc.postal_code, null);
    assert.equal(loc.help_phone, null);
    assert.ok(!('deleted_at' in loc));
    for (const k of ['last_updated', 'created_at', 'updated_at'])
      assert.ok(!Number.isNaN(Date.parse(loc[k])), k);
  });

  test('POST /cpo/locations answers 409 when the location_id is taken in the organization only', async () => {
    const loc = await created();
    const again = await a('POST', '/cpo/locations', { body: aLocation({ location_id: loc.location_id }) });
    assert.equal(again.status, 409);
    assert.equal(again.body.detail, `Location '${loc.location_id}' already exists`);
    const otherOrg = await b('POST', '/cpo/locations', { body: aLocation({ location_id: loc.location_id }) });
    assert.equal(otherOrg.status, 201);
  });

  test('POST /cpo/locations answers 422 for a missing field, a bad country, an unknown field', async () => {
    const body = aLocation({ country: 'NL', extra: 1 });
    delete body.city;
    const res = await a('POST', '/cpo/locations', { body });
    assert.equal(res.status, 422);
    const locs = res.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    assert.ok(locs.includes('body.city'));
    assert.ok(locs.includes('body.country'));
    assert.ok(locs.includes('body.extra'));
  });

  test('GET and DELETE /cpo/locations/{location_id}: 200, 204, then 404; other organization 404', async () => {
    const loc = await created();
    const path = `/cpo/locations/${loc.location_id}`;
    assert.deepEqual((await a('GET', path)).body, loc);
    const foreign = await b('GET', path);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.detail, `Location '${loc.location_id}' not found`);
    assert.equal((await b('DELETE', path)).status, 404);
    const del = await a('DELETE', path);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    assert.equal((await a('GET', path)).status, 404);
    assert.equal((await a('DELETE', path)).status, 404);
  });

  test('E21 PATCH changes only the fields sent, clears with null, bumps revision and last_updated', async () => {
    const loc = await created({ name: 'Old name', help_phone: '+31 20 000' });
    const res = await a('PATCH', `/cpo/locations/${loc.location_id}`, {
      body: { name: 'New name', help_phone: null, facilities: ['CAFE'] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'New name');
    assert.equal(res.body.help_phone, null);
    assert.deepEqual(res.body.facilities, ['CAFE']);
    assert.equal(res.body.address, loc.address);
    assert.equal(res.body.revision, 2);
    assert.ok(Date.parse(res.body.last_updated) > Date.parse(loc.last_updated));
    assert.deepEqual((await a('GET', `/cpo/locations/${loc.location_id}`)).body, res.body);
  });

  test('E21 PATCH answers 422 when a required field is cleared', async () => {
    const loc = await created();
    const res = await a('PATCH', `/cpo/locations/${loc.location_id}`, { body: { address: null } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'address']);
  });

  test('E21 PATCH answers 200 with a matching If-Match and 412 when it no longer matches', async () => {
    const loc = await created();
    const path = `/cpo/locations/${loc.location_id}`;
    const first = await a('PATCH', path, {
      body: { name: 'One' },
      headers: { 'if-match': loc.last_updated },
    });
    assert.equal(first.status, 200);
    const stale = await a('PATCH', path, {
      body: { name: 'Two' },
      headers: { 'if-match': loc.last_updated },
    });
    assert.equal(stale.status, 412);
    assert.equal(
      stale.body.detail,
      `Location '${loc.location_id}' changed since it was read (If-Match no longer matches)`,
    );
    assert.equal((await a('GET', path)).body.name, 'One');
  });

  test('E21 PATCH answers 400 when If-Match is not a last_updated timestamp', async () => {
    const loc = await created();
    const res = await a('PATCH', `/cpo/locations/${loc.location_id}`, {
      body: { name: 'x' },
      headers: { 'if-match': 'not-a-time' },
    });
    assert.equal(res.status, 400);
    assert.equal(
      res.body.detail,
      "If-Match must be the last_updated timestamp that was read, got 'not-a-time'",
    );
  });

  test('E21 PATCH answers 409 when expected_revision is stale', async () => {
    const loc = await created();
    const path = `/cpo/locations/${loc.location_id}`;
    assert.equal((await a('PATCH', path, { body: { expected_revision: 1, name: 'A' } })).status, 200);
    const stale = await a('PATCH', path, { body: { expected_revision: 1, name: 'B' } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.detail, `Location '${loc.location_id}' is no longer at revision 1`);
  });

  test('E21 PATCH answers 409 on a location received from a roaming partner', async () => {
    const loc = await created({ origin: 'PARTNER', role: 'CPO', ocpi_version: '2.3.0' });
    const res = await a('PATCH', `/cpo/locations/${loc.location_id}`, { body: { name: 'mine now' } });
    assert.equal(res.status, 409);
    assert.equal(
      res.body.detail,
      `Location '${loc.location_id}' was received from a roaming partner and is read-only`,
    );
  });

  test('E21 PATCH answers 404 for an unknown location and for another organization', async () => {
    const loc = await created();
    const foreign = await b('PATCH', `/cpo/locations/${loc.location_id}`, { body: { name: 'x' } });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.detail, `Location '${loc.location_id}' not found`);
    assert.equal((await a('PATCH', '/cpo/locations/NOPE', { body: { name: 'x' } })).status, 404);
  });

  test('E21 concurrent PATCHes never lose an update', async () => {
    const loc = await created();
    const path = `/cpo/locations/${loc.location_id}`;
    const n = 12;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        a('PATCH', path, { body: { facilities: [`F${i}`], name: `writer ${i}` } }),
      ),
    );
    assert.ok(results.every((r) => r.status === 200));
    const revisions = results.map((r) => r.body.revision).sort((x, y) => x - y);
    assert.deepEqual(
      revisions,
      Array.from({ length: n }, (_, i) => i + 2),
    );
    const final = (await a('GET', path)).body;
    assert.equal(final.revision, n + 1);
    const last = results.find((r) => r.body.revision === n + 1)!;
    assert.equal(final.name, last.body.name);
  });

  test('E21 concurrent PATCHes with the same If-Match: exactly one wins, the others get 412', async () => {
    const loc = await created();
    const path = `/cpo/locations/${loc.location_id}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        a('PATCH', path, { body: { name: `w${i}` }, headers: { 'if-match': loc.last_updated } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 412, 412, 412, 412, 412, 412, 412]);
    assert.equal((await a('GET', path)).body.revision, 2);
  });
});
