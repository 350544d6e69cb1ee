// Retention of the stage events (E10): by count per charger (STAGE_EVENTS_MAX_PER_CHARGER) and by
// age (STAGE_EVENTS_RETENTION_HOURS), both applied by the periodic pruning.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from './deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService({
    env: { STAGE_EVENTS_MAX_PER_CHARGER: '3', STAGE_EVENTS_RETENTION_HOURS: '2' },
  });
  as = svc.as('org-event-retention');
});
after(async () => {
  await svc.close();
  await csms.close();
});

async function deployOnline(identity: string): Promise<string> {
  const res = await as('POST', '/evcharger/deployment', {
    body: { identity, model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' },
  });
  assert.equal(res.status, 201, res.text);
  await eventually(
    () => eventsOf(as, identity),
    (ev) => ev.some((e) => e.stage === 'online'),
  );
  return res.body.deployment_id;
}

test('pruning keeps the newest STAGE_EVENTS_MAX_PER_CHARGER events of each charger', async () => {
  await deployOnline('KEEP-1');
  const all = await eventsOf(as, 'KEEP-1');
  assert.deepEqual(
    all.map((e) => e.stage),
    ['online', 'registering', 'connecting', 'starting', 'pulling', 'scheduling', 'queued'],
  );
  await svc.service.deps.deployments.eventRetention.prune();
  assert.deepEqual(await eventsOf(as, 'KEEP-1'), all.slice(0, 3));
});

test('pruning drops the events older than STAGE_EVENTS_RETENTION_HOURS, of any charger', async () => {
  const id = await deployOnline('AGE-1');
  await svc.service.deps.deployments.eventRetention.prune();
  const kept = await eventsOf(as, 'AGE-1');
  assert.deepEqual(
    kept.map((e) => e.stage),
    ['online', 'registering', 'connecting'],
  );
  // Two of the kept events happened three hours ago, one of another organization's chargers too.
  await svc.service.platform.db.query(
    `UPDATE evc_stage_events SET at = at - interval '3 hours'
     WHERE deployment_id = $1 AND stage IN ('registering', 'connecting')`,
    [id],
  );
  await svc.service.platform.db.query(
    `INSERT INTO evc_stage_events (organization_id, identity, attempt, stage, outcome, at)
     VALUES ('org-other', 'OLD-1', 1, 'connecting', 'failed', now() - interval '3 hours'),
            ('org-other', 'NEW-1', 1, 'connecting', 'failed', now() - interval '1 hour')`,
  );
  await svc.service.deps.deployments.eventRetention.prune();
  assert.deepEqual(await eventsOf(as, 'AGE-1'), [kept[0]]);
  const other = svc.as('org-other');
  assert.deepEqual(await eventsOf(other, 'OLD-1'), []);
  assert.deepEqual(
    (await eventsOf(other, 'NEW-1')).map((e) => e.stage),
    ['connecting'],
  );
});
