// E10 filters: outcome (failed, stuck, recovered, alerts, all), identity, since, limit; newest first.
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

const PATH = '/evcharger/deployment-runtime-ops/events';
const get = async (query: string): Promise<StageEventBody[]> => {
  const res = await as('GET', `${PATH}?${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.events;
};

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-events');
  // EV-OK comes online, loses its connection (the CSMS drops it) and recovers.
  let res = await as('POST', '/evcharger/deployment', {
    body: { identity: 'EV-OK', model: DUAL_MODEL, ws_url: csms.url },
  });
  assert.equal(res.status, 201, res.text);
  await eventually(
    () => eventsOf(as, 'EV-OK'),
    (ev) => ev.some((e) => e.stage === 'online' && e.outcome === 'succeeded'),
  );
  await csms.waitFor(() => csms.clients.get('EV-OK'));
  await csms.clients.get('EV-OK')!.close({ force: true });
  await eventually(
    () => eventsOf(as, 'EV-OK'),
    (ev) => ev.some((e) => e.outcome === 'recovered'),
  );
  // EV-BAD's central system refuses connections: its connecting stage fails.
  res = await as('POST', '/evcharger/deployment', {
    body: { identity: 'EV-BAD', model: DUAL_MODEL, ws_url: 'ws://127.0.0.1:1' },
  });
  assert.equal(res.status, 201, res.text);
  await eventually(
    () => eventsOf(as, 'EV-BAD'),
    (ev) => ev.some((e) => e.outcome === 'failed'),
  );
  // A stage deadline is minutes long; this `stuck` event goes into the log the way the engine writes one.
  await svc.service.platform.db.query(
    `INSERT INTO evc_stage_events (organization_id, deployment_id, identity, attempt, stage, outcome, at, code, hint)
     SELECT organization_id, id, identity, 1, 'registering', 'stuck', now(), 'STAGE_DEADLINE', 'still registering after 120 s'
     FROM evc_deployments WHERE organization_id = 'org-events' AND identity = 'EV-BAD'`,
  );
});

after(async () => {
  await svc.close();
  await csms.close();
});

const newestFirst = (events: StageEventBody[]) => {
  for (let i = 1; i < events.length; i++) assert.ok(events[i - 1].at >= events[i].at, 'newest first');
};

test('E10 outcome=failed returns failed events only: the refused connection and the dropped one', async () => {
  const events = await get('outcome=failed&limit=500');
  assert.ok(events.length > 0);
  assert.ok(events.every((e) => e.outcome === 'failed'));
  const bad = events.find((e) => e.identity === 'EV-BAD');
  assert.equal(bad?.stage, 'connecting');
  assert.equal(bad?.code, 'WS_CONNECT_REFUSED');
  const dropped = events.find((e) => e.identity === 'EV-OK');
  assert.equal(dropped?.stage, 'offline');
  assert.equal(dropped?.code, 'CONNECTION_LOST');
  newestFirst(events);
});

test('E10 outcome=recovered and outcome=stuck each return only their outcome', async () => {
  const recovered = await get('outcome=recovered');
  assert.deepEqual(
    recovered.map((e) => [e.identity, e.stage, e.outcome]),
    [['EV-OK', 'online', 'recovered']],
  );
  const stuck = await get('outcome=stuck');
  assert.deepEqual(
    stuck.map((e) => [e.identity, e.stage, e.outcome, e.code]),
    [['EV-BAD', 'registering', 'stuck', 'STAGE_DEADLINE']],
  );
});

test('E10 outcome=alerts is failed, stuck and recovered together; all (the default) has every outcome', async () => {
  const alerts = await get('outcome=alerts&limit=500');
  assert.deepEqual(new Set(alerts.map((e) => e.outcome)), new Set(['failed', 'stuck', 'recovered']));
  const all = await get('limit=500');
  const explicit = await get('outcome=all&limit=500');
  assert.ok(all.some((e) => e.outcome === 'in_progress') && all.some((e) => e.outcome === 'succeeded'));
  assert.ok(all.length >= alerts.length && explicit.length >= alerts.length);
  newestFirst(all);
});

test('E10 identity narrows to one charger', async () => {
  const events = await get('identity=EV-OK&limit=500');
  assert.ok(events.length >= 8);
  assert.ok(events.every((e) => e.identity === 'EV-OK'));
  assert.deepEqual(await get('identity=NOBODY'), []);
});

test('E10 since returns only events after that instant', async () => {
  const events = (await get('identity=EV-OK&limit=500')).reverse();
  const online = events.find((e) => e.stage === 'online' && e.outcome === 'succeeded')!;
  const later = await get(`identity=EV-OK&limit=500&since=${encodeURIComponent(online.at)}`);
  assert.ok(later.length > 0);
  assert.ok(later.every((e) => e.at > online.at));
  assert.ok(later.some((e) => e.outcome === 'recovered'));
  assert.ok(!later.some((e) => e.stage === 'queued'));
});

test('E10 limit bounds the answer (default 50), newest first, with no next page', async () => {
  const three = await get('limit=3');
  assert.equal(three.length, 3);
  const all = await get('limit=500');
  assert.deepEqual(three, all.slice(0, 3));
  const res = await as('GET', PATH);
  assert.deepEqual(Object.keys(res.body), ['events']);
  assert.equal(res.body.events.length, Math.min(50, all.length));
});

test("a deployment's updated_at is when its newest stage event happened, not when it was written", async () => {
  const [newest] = await get('identity=EV-OK&limit=1');
  // The row is written behind the event: wait for it to mirror that stage, then it says its time.
  const item = await eventually(
    async () => (await deploymentsOf(as)).find((d) => d.identity === 'EV-OK')!,
    (d) => d.stage === newest.stage && d.outcome === newest.outcome,
  );
  assert.equal(item.updated_at, newest.at);
});
