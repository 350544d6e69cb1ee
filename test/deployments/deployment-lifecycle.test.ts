// One virtual charger against the independent strict central system (ocpp-rpc): E5 deploy, the
// stage walk E10 reports, E9 stop / start / restart, E6 delete.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import {
  DUAL_MODEL,
  deploymentsOf,
  eventsOf,
  eventually,
  type As,
  type StageEventBody,
} from './deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-life');
});

after(async () => {
  await svc.close();
  await csms.close();
});

const WALK = ['queued', 'scheduling', 'pulling', 'starting', 'connecting', 'registering', 'online'];

/** The events of one attempt, oldest first. */
const attemptEvents = (events: StageEventBody[], attempt: number) =>
  events.filter((e) => e.attempt === attempt).reverse();

const onlineAt = (attempt: number) => (events: StageEventBody[]) =>
  events.some((e) => e.attempt === attempt && e.stage === 'online' && e.outcome === 'succeeded');

let deploymentId: string;

test('E5 deploys a charger: 201 with the exact shape and lower-case ocpp_version', async () => {
  const res = await as('POST', '/evcharger/deployment', {
    body: {
      identity: 'LIFE-1',
      model: DUAL_MODEL,
      ws_url: csms.url,
      ocpp_version: 'OCPP2.0.1',
      charger_name: 'Life',
    },
  });
  assert.equal(res.status, 201, res.text);
  deploymentId = res.body.deployment_id;
  assert.deepEqual(res.body, {
    id: deploymentId,
    deployment_id: deploymentId,
    identity: 'LIFE-1',
    ocpp_version: 'ocpp2.0.1',
    provisioning_state: 'READY',
  });
});

test('E10 the charger walks queued..online, in order, and the strict CSMS saw its BootNotification', async () => {
  const events = await eventually(() => eventsOf(as, 'LIFE-1'), onlineAt(1));
  const walk = attemptEvents(events, 1);
  assert.deepEqual(
    walk.map((e) => e.stage),
    WALK,
  );
  assert.deepEqual(
    walk.map((e) => e.outcome),
    ['in_progress', 'in_progress', 'in_progress', 'in_progress', 'in_progress', 'in_progress', 'succeeded'],
  );
  for (let i = 1; i < walk.length; i++) assert.ok(walk[i - 1].at <= walk[i].at, 'at never goes back');
  const boot = csms.received.find((r) => r.identity === 'LIFE-1' && r.action === 'BootNotification');
  assert.ok(boot);
  assert.equal(boot.protocol, 'ocpp2.0.1');
  assert.equal(boot.params.chargingStation.vendorName, 'ABB');
  assert.deepEqual(csms.schemaErrors, []);
  const [item] = await eventually(
    () => deploymentsOf(as),
    (items) => items[0]?.stage === 'online',
  );
  assert.equal(item.deployment_id, deploymentId);
  assert.equal(item.identity, 'LIFE-1');
  assert.equal(item.model, DUAL_MODEL);
  assert.equal(item.ocpp_version, 'ocpp2.0.1');
  assert.equal(item.location_id, null);
  assert.equal(item.outcome, 'succeeded');
});

test('E9 stop answers 202 with the runtime operation response; the charger stops and disconnects', async () => {
  const res = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', deployment_id: deploymentId },
  });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(res.body, {
    action: 'stop',
    target_type: 'deployment',
    location_id: null,
    accepted_count: 1,
    failed_count: 0,
    results: [
      { deployment_id: deploymentId, status: 'accepted', response: { action: 'stop', status: 'PENDING' } },
    ],
  });
  const events = await eventually(
    () => eventsOf(as, 'LIFE-1'),
    (ev) => ev[0]?.stage === 'stopped',
  );
  assert.deepEqual(
    { stage: events[0].stage, outcome: events[0].outcome, attempt: events[0].attempt },
    { stage: 'stopped', outcome: 'succeeded', attempt: 1 },
  );
  await csms.waitFor(() => !csms.clients.has('LIFE-1'));
  await eventually(
    () => deploymentsOf(as),
    (items) => items[0]?.stage === 'stopped',
  );
});

test('E9 start brings a stopped charger online again as attempt 2', async () => {
  const boots = csms.received.filter(
    (r) => r.identity === 'LIFE-1' && r.action === 'BootNotification',
  ).length;
  const res = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'start', deployment_id: deploymentId },
  });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.results[0].response.action, 'start');
  const events = await eventually(() => eventsOf(as, 'LIFE-1'), onlineAt(2));
  assert.deepEqual(
    attemptEvents(events, 2).map((e) => e.stage),
    WALK,
  );
  await csms.waitFor(
    () =>
      csms.received.filter((r) => r.identity === 'LIFE-1' && r.action === 'BootNotification').length > boots,
  );
});

test('E9 restart of an online charger walks again as attempt 3', async () => {
  const res = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'restart', deployment_id: deploymentId },
  });
  assert.equal(res.status, 202, res.text);
  const events = await eventually(() => eventsOf(as, 'LIFE-1'), onlineAt(3));
  assert.deepEqual(
    attemptEvents(events, 3).map((e) => e.stage),
    WALK,
  );
  assert.deepEqual(csms.schemaErrors, []);
});

test('E6 deletes the deployment: 204, then 404 for it everywhere, and its charger leaves', async () => {
  const res = await as('DELETE', `/evcharger/deployment?deployment_id=${deploymentId}`);
  assert.equal(res.status, 204);
  assert.equal(res.text, '');
  await csms.waitFor(() => !csms.clients.has('LIFE-1'));
  const again = await as('DELETE', `/evcharger/deployment?deployment_id=${deploymentId}`);
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, { detail: `Deployment '${deploymentId}' not found` });
  for (const action of ['stop', 'start', 'restart', 'delete']) {
    const op = await as('POST', '/evcharger/deployment-runtime-ops', {
      body: { action, deployment_id: deploymentId },
    });
    assert.equal(op.status, 404, action);
  }
  assert.deepEqual(await deploymentsOf(as), []);
  assert.deepEqual(await eventsOf(as, 'LIFE-1'), []);
});

test('E5 the identity is free again once deleted; a second live deployment of it is 409', async () => {
  const body = { identity: 'LIFE-1', model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' };
  const first = await as('POST', '/evcharger/deployment', { body });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.ocpp_version, 'ocpp1.6');
  const second = await as('POST', '/evcharger/deployment', { body });
  assert.equal(second.status, 409);
  assert.match(second.body.detail, /LIFE-1/);
  await eventually(() => eventsOf(as, 'LIFE-1'), onlineAt(1));
});
