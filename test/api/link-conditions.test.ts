// PUT / DELETE /evcharger/deployments/{id}/link and /evcharger/locations/{id}/link (docs/faults.md)
// on the running service: the conditions reach the charger through the broker, show in the message
// log as injected items, and every field is validated; another organization's charger is a 404.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deployOnline } from '../commands/command-helpers.ts';
import { deploymentsOf, eventually, locationBody, type As } from '../deployments/deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;
let deploymentId: string;
const ID = 'LINK-1';

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-link');
  deploymentId = await deployOnline(as, ID, 'ocpp1.6', csms.url);
});

after(async () => {
  await svc.close();
  await csms.close();
});

const heartbeats = () =>
  csms.frames
    .filter((f) => f.identity === ID && !f.outbound)
    .map((f) => JSON.parse(f.text))
    .filter((f) => f[0] === 2 && f[2] === 'Heartbeat');

test('PUT answers the conditions in force, one number meaning both directions, the seed drawn when left out', async () => {
  const res = await as('PUT', `/evcharger/deployments/${deploymentId}/link`, {
    body: { latency_ms: 5, drop: { to_csms: 0.25 } },
  });
  assert.equal(res.status, 200, res.text);
  const { seed, ...rest } = res.body;
  assert.ok(Number.isInteger(seed) && seed >= 0);
  assert.deepEqual(rest, {
    latency_ms: { to_csms: 5, from_csms: 5 },
    jitter_ms: { to_csms: 0, from_csms: 0 },
    drop: { to_csms: 0.25, from_csms: 0 },
    duplicate: { to_csms: 0, from_csms: 0 },
    reorder_window_ms: 0,
    unanswered: 0,
    half_open: false,
    chargers: 1,
  });
  assert.equal((await as('DELETE', `/evcharger/deployments/${deploymentId}/link`)).status, 204);
});

test('a duplicate condition reaches the charger: the central system gets its frame twice, the log says injected', async () => {
  const put = await as('PUT', `/evcharger/deployments/${deploymentId}/link`, {
    body: { duplicate: { to_csms: 1 }, seed: 7 },
  });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.seed, 7);
  // The message goes through the broker: trigger heartbeats until one comes twice.
  const twice = await eventually(
    async () => {
      await csms.call(ID, 'TriggerMessage', { requestedMessage: 'Heartbeat' });
      const ids = heartbeats().map((f) => f[1]);
      return ids.find((id, i) => ids.indexOf(id) !== i);
    },
    (id) => id !== undefined,
  );
  const item = await eventually(
    async () => {
      const log = await as('GET', `/evcharger/deployments/${deploymentId}/ocpp-log?limit=50`);
      return (log.body.items as any[]).find((i) => i.injected === 'duplicate' && i.message_id === twice);
    },
    (i) => i !== undefined,
  );
  assert.equal(item.direction, 'out');
  assert.equal(item.action, 'Heartbeat');
  assert.deepEqual(item.frame[2], 'Heartbeat');

  assert.equal((await as('DELETE', `/evcharger/deployments/${deploymentId}/link`)).status, 204);
  // Cleared: one more heartbeat goes once.
  await eventually(
    async () => {
      const before = heartbeats().length;
      await csms.call(ID, 'TriggerMessage', { requestedMessage: 'Heartbeat' });
      await csms.waitFor(() => heartbeats().length > before || undefined);
      await new Promise((r) => setTimeout(r, 50));
      return heartbeats().length - before;
    },
    (n) => n === 1,
  );
});

test('422 in the spec shape: a probability outside 0..1, a negative latency, an unknown field', async () => {
  const res = await as('PUT', `/evcharger/deployments/${deploymentId}/link`, {
    body: { drop: { to_csms: 1.5 }, duplicate: -0.1, latency_ms: -1, unanswered: 2, frobnicate: true },
  });
  assert.equal(res.status, 422, res.text);
  const issues = (res.body.detail as any[]).map((d) => `${d.loc.join('.')} ${d.type}`).sort();
  assert.deepEqual(issues, [
    'body.drop.to_csms less_than_equal',
    'body.duplicate greater_than_equal',
    'body.frobnicate extra_forbidden',
    'body.latency_ms greater_than_equal',
    'body.unanswered less_than_equal',
  ]);
  const typed = await as('PUT', `/evcharger/deployments/${deploymentId}/link`, {
    body: { half_open: 'yes', seed: -1, reorder_window_ms: 'x' },
  });
  assert.equal(typed.status, 422, typed.text);
  assert.deepEqual((typed.body.detail as any[]).map((d) => d.loc.join('.')).sort(), [
    'body.half_open',
    'body.reorder_window_ms',
    'body.seed',
  ]);
});

test('another organization’s deployment or location, or an unknown one, is a 404', async () => {
  const other = svc.as('org-other');
  for (const method of ['PUT', 'DELETE']) {
    const body = method === 'PUT' ? { body: { latency_ms: 10 } } : {};
    assert.equal((await other(method, `/evcharger/deployments/${deploymentId}/link`, body)).status, 404);
    assert.equal((await as(method, `/evcharger/deployments/not-a-uuid/link`, body)).status, 404);
    assert.equal(
      (await as(method, `/evcharger/locations/5f0c4c36-2d7e-4d8a-8f55-9b2a4a7d3e10/link`, body)).status,
      404,
    );
  }
});

test('a location: every running charger of it, another organization’s location a 404', async () => {
  const res = await as('POST', '/evcharger/location', { body: locationBody('LINKLOC', 2, csms.url) });
  assert.equal(res.status, 202, res.text);
  const locationId = res.body.location_id;
  await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.length === 2 && list.every((d) => d.stage === 'online'),
  );
  const put = await as('PUT', `/evcharger/locations/${locationId}/link`, { body: { jitter_ms: 3, seed: 1 } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.chargers, 2);
  assert.deepEqual(put.body.jitter_ms, { to_csms: 3, from_csms: 3 });
  assert.equal(
    (await svc.as('org-other')('PUT', `/evcharger/locations/${locationId}/link`, { body: {} })).status,
    404,
  );
  assert.equal((await as('DELETE', `/evcharger/locations/${locationId}/link`)).status, 204);
});

test('misbehave: raw text reaches the central system as written; a wrong kind is a 422, another organization a 404', async () => {
  const text = '[2,"api-raw","Heartbeat",{';
  const res = await as('POST', `/evcharger/deployments/${deploymentId}/link/misbehave`, {
    body: { kind: 'raw_text', text },
  });
  assert.equal(res.status, 202, res.text);
  await csms.waitFor(() => csms.badMessages.find((m) => m.identity === ID && m.text === text));
  const bad = await as('POST', `/evcharger/deployments/${deploymentId}/link/misbehave`, {
    body: { kind: 'frobnicate' },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual(bad.body.detail[0].loc, ['body', 'kind']);
  const other = await svc.as('org-other')('POST', `/evcharger/deployments/${deploymentId}/link/misbehave`, {
    body: { kind: 'wrong_message_id' },
  });
  assert.equal(other.status, 404);
});

test('a stopped charger has no link to set conditions on: 409', async () => {
  const stop = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', deployment_id: deploymentId },
  });
  assert.ok([200, 202].includes(stop.status), stop.text);
  const res = await as('PUT', `/evcharger/deployments/${deploymentId}/link`, { body: { latency_ms: 10 } });
  assert.equal(res.status, 409, res.text);
});
