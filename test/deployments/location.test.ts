// E7 / E8 / E9 on a location: 50 chargers deploy in the background against the strict central
// system, a location-wide stop stops all 50, a failing charger is recorded without stopping the
// rest, and a hard delete takes the chargers and their runtimes with it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deploymentsOf, eventsOf, eventually, locationBody, type As } from './deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-loc');
});

after(async () => {
  await svc.close();
  await csms.close();
});

const N = 50;
let locationId: string;

const bootedIdentities = () =>
  new Set(csms.received.filter((r) => r.action === 'BootNotification').map((r) => r.identity));

test('E7 answers 202 at once with {detail, location_id, failed}; all 50 chargers reach online', async () => {
  const res = await as('POST', '/evcharger/location', { body: locationBody('LOC', N, csms.url) });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['detail', 'failed', 'location_id']);
  assert.equal(res.body.detail, 'Location accepted: 50 chargers are being deployed in the background');
  assert.deepEqual(res.body.failed, []);
  locationId = res.body.location_id;
  const items = await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.length === N && list.every((d) => d.stage === 'online'),
    30_000,
  );
  assert.ok(items.every((d) => d.location_id === locationId && d.ocpp_version === 'ocpp1.6'));
  const booted = bootedIdentities();
  for (let i = 1; i <= N; i++) assert.ok(booted.has(`LOC-${String(i).padStart(3, '0')}`));
  assert.deepEqual(csms.schemaErrors, []);
});

test('E9 a location-wide stop answers 202 and stops all 50 chargers in the background', async () => {
  const res = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', location_id: locationId },
  });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.location_id, locationId);
  assert.equal(typeof res.body.detail, 'string');
  await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.length === N && list.every((d) => d.stage === 'stopped'),
    30_000,
  );
  await csms.waitFor(() => [...csms.clients.keys()].every((id) => !id.startsWith('LOC-')), 10_000);
});

test('E9 a location-wide restart brings all 50 back online as attempt 2', async () => {
  const res = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'restart', location_id: locationId },
  });
  assert.equal(res.status, 202, res.text);
  await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.every((d) => d.stage === 'online'),
    30_000,
  );
  const events = await eventsOf(as, 'LOC-017');
  assert.deepEqual(
    { stage: events[0].stage, outcome: events[0].outcome, attempt: events[0].attempt },
    { stage: 'online', outcome: 'succeeded', attempt: 2 },
  );
});

test('E7 a charger whose identity E5 deploys while the location deploys: one deployment, and a failure if E5 came first', async () => {
  const body = locationBody('FAIL', 40, csms.url);
  body.chargers[39].identity = 'FAIL-LATE';
  const res = await as('POST', '/evcharger/location', { body });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(res.body.failed, []);
  // Usually E5 wins the race against the background job's 40th charger; either way one charger runs.
  const direct = await as('POST', '/evcharger/deployment', {
    body: { identity: 'FAIL-LATE', model: 'abb-a400', ws_url: csms.url },
  });
  assert.ok(direct.status === 201 || direct.status === 409, direct.text);
  const items = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === 40 && list.filter((d) => d.stage === 'online').length >= 39,
    30_000,
  );
  const late = items.filter((d) => d.identity === 'FAIL-LATE');
  assert.equal(late.length, 1);
  if (direct.status === 201) {
    assert.deepEqual(
      [late[0].deployment_id, late[0].stage, late[0].code],
      [null, 'not_deployed', 'IDENTITY_TAKEN'],
    );
    const failed = await eventually(
      () => eventsOf(as, 'FAIL-LATE', '&outcome=failed'),
      (ev) => ev.length > 0,
    );
    assert.equal(failed[0].code, 'IDENTITY_TAKEN');
    assert.match(failed[0].hint ?? '', /already exists/);
  } else {
    assert.equal(late[0].stage, 'online');
  }
  const everywhere = (await deploymentsOf(as)).filter((d) => d.identity === 'FAIL-LATE' && d.deployment_id);
  assert.equal(everywhere.length, 1, 'one live deployment of the identity');
});

test('E8 hard-deletes the location: 204, its chargers disconnect and are gone, then 404', async () => {
  const res = await as('DELETE', `/evcharger/location?location_id=${locationId}`);
  assert.equal(res.status, 204);
  await csms.waitFor(() => [...csms.clients.keys()].every((id) => !id.startsWith('LOC-')), 10_000);
  assert.deepEqual(
    (await deploymentsOf(as)).filter((d) => d.identity.startsWith('LOC-')),
    [],
  );
  assert.deepEqual(await eventsOf(as, 'LOC-001'), []);
  const again = await as('DELETE', `/evcharger/location?location_id=${locationId}`);
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, { detail: `Location '${locationId}' not found` });
  const op = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', location_id: locationId },
  });
  assert.equal(op.status, 404);
  const list = await as('GET', `/evcharger/deployments?location_id=${locationId}`);
  assert.equal(list.status, 404);
});
