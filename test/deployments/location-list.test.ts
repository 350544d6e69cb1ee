// GET /evcharger/locations: the organization's virtual locations by name, each with its deployed
// chargers and those running counted by the server; a name filter; pages; another organization's
// locations are not listed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { deploymentsOf, eventually } from './deployment-helpers.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(async () => await svc?.close());

test('locations are listed by name with their chargers and running chargers counted, filtered by name, paged, per organization', async () => {
  const a = svc.as('org-list-a');
  const b = svc.as('org-list-b');
  const make = async (as: typeof a, name: string, count: number) => {
    const res = await as('POST', '/evcharger/location', {
      body: {
        name,
        ocpp_version: 'ocpp1.6',
        charger_groups:
          count > 0
            ? [{ count, identity_prefix: `${name.slice(0, 3)}-`, model: 'abb-terra-ac-wallbox-22' }]
            : [],
      },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.location_id as string;
  };
  const zulu = await make(a, 'Zulu yard', 2);
  const depot = await make(a, 'Central depot', 0);
  const alpha = await make(a, 'Alpha Depot', 1);
  await make(b, 'Other org depot', 0);
  await eventually(
    () => deploymentsOf(a),
    (list) => list.length === 3 && list.every((d) => d.stage === 'online'),
  );
  // One of Zulu's chargers stopped: still deployed, no longer running.
  const [first] = await deploymentsOf(a, zulu);
  const stop = await a('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', deployment_id: first.deployment_id },
  });
  assert.equal(stop.status, 202, stop.text);

  const all = await a('GET', '/evcharger/locations');
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(
    all.body.items.map((l: any) => [l.location_id, l.name, l.chargers, l.running]),
    [
      [alpha, 'Alpha Depot', 1, 1],
      [depot, 'Central depot', 0, 0],
      [zulu, 'Zulu yard', 2, 1],
    ],
  );
  assert.equal(all.body.next_offset, null);

  const named = await a('GET', '/evcharger/locations?name=DEPOT');
  assert.deepEqual(
    named.body.items.map((l: any) => l.name),
    ['Alpha Depot', 'Central depot'],
  );

  const first2 = await a('GET', '/evcharger/locations?limit=2');
  assert.deepEqual(
    first2.body.items.map((l: any) => l.name),
    ['Alpha Depot', 'Central depot'],
  );
  assert.equal(first2.body.next_offset, 2);
  const rest = await a('GET', '/evcharger/locations?limit=2&offset=2');
  assert.deepEqual(
    rest.body.items.map((l: any) => l.name),
    ['Zulu yard'],
  );
  assert.equal(rest.body.next_offset, null);

  assert.deepEqual(
    (await b('GET', '/evcharger/locations')).body.items.map((l: any) => l.name),
    ['Other org depot'],
  );
  assert.equal((await a('GET', '/evcharger/locations?limit=0')).status, 422);
});
