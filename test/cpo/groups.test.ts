// Token groups with E20 (paged locations, soft-deleted ones included) and voucher groups with E24.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { aLocation } from './builders.ts';

describe('CPO token groups and voucher groups', () => {
  let svc: TestService;
  let a: ReturnType<TestService['as']>;
  let b: ReturnType<TestService['as']>;

  before(async () => {
    svc = await startTestService({ env: { VOUCHER_DELETE_MAX: '25' } });
    a = svc.as('org-a');
    b = svc.as('org-b');
  });
  after(() => svc.close());

  async function locations(n: number) {
    const out = [];
    for (let i = 0; i < n; i++) out.push((await a('POST', '/cpo/locations', { body: aLocation() })).body);
    return out;
  }

  test('POST /cpo/token-groups answers 201 with the linked location record ids', async () => {
    const [l1, l2] = await locations(2);
    const res = await a('POST', '/cpo/token-groups', {
      body: { name: 'Fleet', location_ids: [l1.id, l2.id] },
    });
    assert.equal(res.status, 201);
    assert.equal(typeof res.body.id, 'number');
    assert.deepEqual(res.body, { id: res.body.id, name: 'Fleet', location_ids: [l1.id, l2.id] });
  });

  test('POST /cpo/token-groups answers 404 for a location of another organization', async () => {
    const [l1] = await locations(1);
    const res = await b('POST', '/cpo/token-groups', { body: { name: 'Theirs', location_ids: [l1.id] } });
    assert.equal(res.status, 404);
    assert.equal(res.body.detail, `Location record(s) ${l1.id} not found`);
  });

  test('E20 pages with offset and limit; next_offset is null on the last page', async () => {
    const locs = await locations(5);
    const group = (
      await a('POST', '/cpo/token-groups', { body: { name: 'G', location_ids: locs.map((l) => l.id) } })
    ).body;
    const first = await a('GET', `/cpo/token-groups/${group.id}/locations?limit=2`);
    assert.equal(first.status, 200);
    assert.equal(first.body.offset, 0);
    assert.equal(first.body.limit, 2);
    assert.equal(first.body.next_offset, 2);
    assert.deepEqual(
      first.body.items.map((l: { id: number }) => l.id),
      locs.slice(0, 2).map((l) => l.id),
    );
    assert.equal(first.body.items[0].deleted_at, null);
    const last = await a('GET', `/cpo/token-groups/${group.id}/locations?limit=2&offset=4`);
    assert.equal(last.body.next_offset, null);
    assert.deepEqual(
      last.body.items.map((l: { location_id: string }) => l.location_id),
      [locs[4].location_id],
    );
    const all = await a('GET', `/cpo/token-groups/${group.id}/locations`);
    assert.equal(all.body.limit, 50);
    assert.equal(all.body.items.length, 5);
    assert.equal(all.body.next_offset, null);
  });

  test('E20 lists soft-deleted locations with their deleted_at', async () => {
    const [l1, l2] = await locations(2);
    const group = (
      await a('POST', '/cpo/token-groups', { body: { name: 'G', location_ids: [l1.id, l2.id] } })
    ).body;
    assert.equal((await a('DELETE', `/cpo/locations/${l1.location_id}`)).status, 204);
    const page = await a('GET', `/cpo/token-groups/${group.id}/locations`);
    assert.equal(page.body.items.length, 2);
    assert.ok(!Number.isNaN(Date.parse(page.body.items[0].deleted_at)));
    assert.equal(page.body.items[1].deleted_at, null);
  });

  test('E20 answers 404 for an unknown group and for another organization', async () => {
    const group = (await a('POST', '/cpo/token-groups', { body: { name: 'G', location_ids: [] } })).body;
    const foreign = await b('GET', `/cpo/token-groups/${group.id}/locations`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.detail, `Token group ${group.id} not found`);
    assert.equal((await a('GET', '/cpo/token-groups/999999/locations')).status, 404);
  });

  test('E20 answers 422 for limit above 200, a negative offset, a non-integer id', async () => {
    const group = (await a('POST', '/cpo/token-groups', { body: { name: 'G' } })).body;
    const tooMany = await a('GET', `/cpo/token-groups/${group.id}/locations?limit=201`);
    assert.equal(tooMany.status, 422);
    assert.deepEqual(tooMany.body.detail[0].loc, ['query', 'limit']);
    assert.equal(tooMany.body.detail[0].type, 'less_than_equal');
    const negative = await a('GET', `/cpo/token-groups/${group.id}/locations?offset=-1`);
    assert.equal(negative.status, 422);
    assert.deepEqual(negative.body.detail[0].loc, ['query', 'offset']);
    const badId = await a('GET', '/cpo/token-groups/abc/locations');
    assert.equal(badId.status, 422);
    assert.deepEqual(badId.body.detail[0].loc, ['path', 'id']);
  });

  test('POST /cpo/voucher-groups answers 201; E24 deletes the group and its vouchers (204)', async () => {
    const res = await a('POST', '/cpo/voucher-groups', { body: { name: 'Promo', voucher_count: 25 } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body, { id: res.body.id, name: 'Promo', voucher_count: 25 });
    const del = await a('DELETE', `/cpo/voucher-groups/${res.body.id}`);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    const { rows } = await svc.service.platform.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM cpo_vouchers WHERE group_id = $1',
      [res.body.id],
    );
    assert.equal(rows[0].n, 0);
    assert.equal((await a('DELETE', `/cpo/voucher-groups/${res.body.id}`)).status, 404);
  });

  test('E24 answers 409 above VOUCHER_DELETE_MAX vouchers and deletes nothing', async () => {
    const group = (await a('POST', '/cpo/voucher-groups', { body: { name: 'Big', voucher_count: 26 } })).body;
    const del = await a('DELETE', `/cpo/voucher-groups/${group.id}`);
    assert.equal(del.status, 409);
    assert.equal(
      del.body.detail,
      `Voucher group ${group.id} holds more than 25 vouchers: too many to delete in one call`,
    );
    const { rows } = await svc.service.platform.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM cpo_vouchers WHERE group_id = $1',
      [group.id],
    );
    assert.equal(rows[0].n, 26);
  });

  test('E24 answers 404 for another organization and 422 for a non-integer id', async () => {
    const group = (await a('POST', '/cpo/voucher-groups', { body: { name: 'Mine', voucher_count: 1 } })).body;
    const foreign = await b('DELETE', `/cpo/voucher-groups/${group.id}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.detail, `Voucher group ${group.id} not found`);
    const bad = await a('DELETE', '/cpo/voucher-groups/x1');
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['path', 'id']);
  });

  test('POST /cpo/voucher-groups answers 422 above 100000 vouchers', async () => {
    const res = await a('POST', '/cpo/voucher-groups', { body: { name: 'Huge', voucher_count: 100_001 } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'voucher_count']);
  });
});
