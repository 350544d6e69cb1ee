// Retention of the message log: by count per charger (OCPP_LOG_MAX_PER_CHARGER) and by age
// (OCPP_LOG_RETENTION_HOURS), both applied by the periodic pruning; and OCPP_LOG=off captures nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../deployments/deployment-helpers.ts';
import { logUntil, openEventStream, wholeLog } from './log-helpers.ts';

async function deployOnline(as: As, identity: string, wsUrl: string): Promise<string> {
  const res = await as('POST', '/evcharger/deployment', {
    body: { identity, model: DUAL_MODEL, ws_url: wsUrl, ocpp_version: 'ocpp1.6' },
  });
  assert.equal(res.status, 201, res.text);
  await eventually(
    () => eventsOf(as, identity),
    (ev) => ev.some((e) => e.stage === 'online'),
  );
  return res.body.deployment_id;
}

describe(`OCPP message log retention (${MODE})`, () => {
  let svc: TestService;
  let csms: StrictCsms;
  let as: As;

  before(async () => {
    csms = await startStrictCsms();
    svc = await startTestService({ env: { OCPP_LOG_MAX_PER_CHARGER: '5', OCPP_LOG_RETENTION_HOURS: '2' } });
    as = svc.as('org-retention');
  });
  after(async () => {
    await svc.close();
    await csms.close();
  });

  test('pruning keeps the newest OCPP_LOG_MAX_PER_CHARGER items of each charger', async () => {
    const id = await deployOnline(as, 'RET-1', csms.url);
    const path = `/evcharger/deployments/${id}/ocpp-log`;
    // Boot: BootNotification and three StatusNotifications with their answers (8 frames).
    const all = await logUntil(as, path, (items) => items.length >= 8);
    await svc.service.deps.messageLog.messageLog.prune();
    const kept = await wholeLog(as, path);
    assert.deepEqual(kept, all.slice(-5));
  });

  test('pruning drops the items older than OCPP_LOG_RETENTION_HOURS', async () => {
    const id = await deployOnline(as, 'RET-2', csms.url);
    const path = `/evcharger/deployments/${id}/ocpp-log`;
    const all = await logUntil(as, path, (items) => items.length >= 8);
    const old = all.slice(-5, -3);
    // Two of them were written three hours ago.
    await svc.service.platform.db.query(
      `UPDATE ocpp_log SET at = at - interval '3 hours' WHERE charger_id = $1 AND id = ANY($2::bigint[])`,
      [id, old.map((i) => i.id)],
    );
    await svc.service.deps.messageLog.messageLog.prune();
    const kept = await wholeLog(as, path);
    assert.deepEqual(
      kept.map((i) => i.id),
      all
        .slice(-5)
        .filter((i) => !old.includes(i))
        .map((i) => i.id),
    );
  });
});

describe(`OCPP_LOG=off (${MODE})`, () => {
  let svc: TestService;
  let csms: StrictCsms;

  before(async () => {
    csms = await startStrictCsms();
    svc = await startTestService({ env: { OCPP_LOG: 'off' } });
  });
  after(async () => {
    await svc.close();
    await csms.close();
  });

  test('nothing is captured; the endpoint answers an empty page and the stream stays open', async () => {
    const as = svc.as('org-off');
    const id = await deployOnline(as, 'OFF-1', csms.url);
    await csms.waitFor(() =>
      csms.received.find((r) => r.identity === 'OFF-1' && r.action === 'StatusNotification'),
    );
    await svc.service.deps.messageLog.messageLog.flush();
    const page = await as('GET', `/evcharger/deployments/${id}/ocpp-log`);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body, { items: [], next_before: null });
    const { rows } = await svc.service.platform.db.query('SELECT count(*)::int AS n FROM ocpp_log');
    assert.deepEqual(rows, [{ n: 0 }]);
    const stream = await openEventStream(
      `${svc.url}/evcharger/deployments/${id}/ocpp-log/stream?replay=10`,
      await svc.token('org-off'),
    );
    assert.equal(stream.status, 200);
    await stream.waitFor((events) => events.length === 0 && stream.comments.length > 0);
    stream.close();
  });
});
