// POST / GET / DELETE /chaos-runs (docs/faults.md) on the running service against the strict
// central system: a blackout of a share of a location's chargers comes back online and accepted
// as the report says, the same seed does the same faults again, one run at a time per location,
// every field is validated and another organization's location or run is a 404.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deploymentsOf, eventually, locationBody, type As } from '../deployments/deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;
let locationId: string;
const PREFIX = 'CHAOS';

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-chaos');
  const res = await as('POST', '/evcharger/location', { body: locationBody(PREFIX, 5, csms.url) });
  assert.equal(res.status, 202, res.text);
  locationId = res.body.location_id;
  await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.length === 5 && list.every((d) => d.stage === 'online'),
  );
});

after(async () => {
  await svc.close();
  await csms.close();
});

const boots = (identity: string) =>
  csms.received.filter((r) => r.identity === identity && r.action === 'BootNotification').length;
const ended = (runId: string) =>
  eventually(
    () => as('GET', `/chaos-runs/${runId}`),
    (r) => r.body.status !== 'running',
  );

test('a blackout of 40 % of a location: its chargers boot again and are back online and accepted, as reported', async () => {
  const identities = Array.from({ length: 5 }, (_x, i) => `${PREFIX}-${String(i + 1).padStart(3, '0')}`);
  const before = new Map(identities.map((id) => [id, boots(id)]));
  const res = await as('POST', '/chaos-runs', {
    body: { location_id: locationId, profile: 'blackout', share: 0.4, duration_s: 0.5, seed: 11 },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.status, 'running');
  assert.equal(res.body.seed, 11);
  assert.equal(res.body.chargers, 5);
  const run = (await ended(res.body.run_id)).body;
  assert.equal(run.status, 'finished');
  assert.equal(run.report.affected, 2);
  assert.equal(run.report.back, 2);
  assert.equal(run.report.all_back, true);
  assert.deepEqual(run.report.boot_answers, { Accepted: 2 });
  assert.deepEqual(run.report.callerrors, {});
  assert.equal(run.report.late_answers, 0);
  assert.equal(run.report.connections, 2);
  assert.ok(run.report.busiest_second.connections >= 1);
  const faults = (await as('GET', `/chaos-runs/${run.run_id}/faults`)).body.items as any[];
  const darkened = new Set(faults.map((f) => f.identity));
  assert.equal(darkened.size, 2);
  assert.deepEqual(
    faults.map((f) => f.action),
    ['power_off', 'power_off', 'power_on', 'power_on'],
  );
  // The central system saw the darkened chargers boot again, and only them.
  for (const id of identities) assert.equal(boots(id) - before.get(id)!, darkened.has(id) ? 1 : 0, id);

  // The same seed on the same location: the same chargers, the same faults in the same order.
  const again = await as('POST', '/chaos-runs', {
    body: { location_id: locationId, profile: 'blackout', share: 0.4, duration_s: 0.5, seed: 11 },
  });
  assert.equal(again.status, 201, again.text);
  await ended(again.body.run_id);
  const second = (await as('GET', `/chaos-runs/${again.body.run_id}/faults`)).body.items as any[];
  assert.deepEqual(
    second.map((f) => [f.identity, f.action, f.at_ms]),
    faults.map((f) => [f.identity, f.action, f.at_ms]),
  );
});

test('one run at a time on a location (409); DELETE stops it, power back, and the report stays', async () => {
  const res = await as('POST', '/chaos-runs', {
    body: { location_id: locationId, profile: 'blackout', share: 0.2, duration_s: 600, seed: 3 },
  });
  assert.equal(res.status, 201, res.text);
  const busy = await as('POST', '/chaos-runs', { body: { profile: 'surge', share: 1, duration_s: 5 } });
  assert.equal(busy.status, 409, busy.text);
  assert.match(busy.body.detail, /active/);
  const stop = await as('DELETE', `/chaos-runs/${res.body.run_id}`);
  assert.equal(stop.status, 200, stop.text);
  assert.equal(stop.body.status, 'stopped');
  assert.equal(stop.body.report.affected, 1);
  const faults = (await as('GET', `/chaos-runs/${res.body.run_id}/faults`)).body.items as any[];
  assert.deepEqual(
    faults.map((f) => f.action),
    ['power_off', 'power_on'],
  );
  await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.every((d) => d.stage === 'online'),
  );
  const list = await as('GET', '/chaos-runs');
  assert.equal(list.body.items[0].run_id, res.body.run_id);
});

test('422 in the spec shape: a share outside 0..1, an unknown profile, a duration not above 0, a bad location', async () => {
  const res = await as('POST', '/chaos-runs', {
    body: { location_id: '', profile: 'meteor', share: 1.5, duration_s: 0, seed: -1 },
  });
  assert.equal(res.status, 422, res.text);
  assert.deepEqual((res.body.detail as any[]).map((d) => d.loc.join('.')).sort(), [
    'body.duration_s',
    'body.location_id',
    'body.profile',
    'body.seed',
    'body.share',
  ]);
  const missing = await as('POST', '/chaos-runs', { body: { share: 0.5 } });
  assert.equal(missing.status, 422, missing.text);
  assert.deepEqual((missing.body.detail as any[]).map((d) => d.loc.join('.')).sort(), [
    'body.duration_s',
    'body.profile',
  ]);
});

test('another organization’s location or run, or an unknown one, is a 404', async () => {
  const other = svc.as('org-chaos-other');
  const body = { location_id: locationId, profile: 'blackout', share: 1, duration_s: 1 };
  assert.equal((await other('POST', '/chaos-runs', { body })).status, 404);
  const unknown = { ...body, location_id: '5f0c4c36-2d7e-4d8a-8f55-9b2a4a7d3e10' };
  assert.equal((await as('POST', '/chaos-runs', { body: unknown })).status, 404);
  assert.equal((await as('POST', '/chaos-runs', { body: { ...body, location_id: 'nope' } })).status, 404);
  const mine = (await as('GET', '/chaos-runs')).body.items[0].run_id;
  assert.equal((await other('GET', `/chaos-runs/${mine}`)).status, 404);
  assert.equal((await other('DELETE', `/chaos-runs/${mine}`)).status, 404);
  assert.equal((await as('GET', '/chaos-runs/nope')).status, 404);
  assert.deepEqual((await other('GET', '/chaos-runs')).body.items, []);
  // An organization without a running charger has nothing to act on.
  assert.equal(
    (await other('POST', '/chaos-runs', { body: { profile: 'surge', share: 1, duration_s: 1 } })).status,
    409,
  );
});
