// A clean shutdown (SIGTERM path: service.close) stops the actors without marking them stopped:
// the next start on the same database resumes them as a new attempt, and a charger the user had
// stopped stays stopped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REAL_DATABASE_URL,
  createTestDatabase,
  dropTestDatabase,
  startTestService,
  type TestService,
} from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, deploymentsOf, eventsOf, eventually, type As } from './deployment-helpers.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'evsim-graceful-'));
let database: string | undefined;
let csms: StrictCsms;
let svc: TestService | undefined;

const start = async (): Promise<As> => {
  svc = await startTestService({ dataDir, ...(database ? { database } : {}) });
  return svc.as('org-graceful');
};

before(async () => {
  csms = await startStrictCsms();
  if (REAL_DATABASE_URL) database = await createTestDatabase();
});

after(async () => {
  await svc?.close();
  await csms.close();
  if (database) await dropTestDatabase(database).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

test('after a clean shutdown the running chargers resume by themselves and stopped ones stay stopped', async () => {
  let as = await start();
  for (const identity of ['GR-RUN', 'GR-STOP']) {
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity, model: DUAL_MODEL, ws_url: csms.url },
    });
    assert.equal(res.status, 201, res.text);
  }
  const items = await eventually(
    () => deploymentsOf(as),
    (list) => list.length === 2 && list.every((d) => d.stage === 'online'),
  );
  const stopId = items.find((d) => d.identity === 'GR-STOP')!.deployment_id;
  const stop = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', deployment_id: stopId },
  });
  assert.equal(stop.status, 202);
  await eventually(
    () => deploymentsOf(as),
    (list) => list.find((d) => d.identity === 'GR-STOP')?.stage === 'stopped',
  );

  await svc!.close();
  svc = undefined;
  await csms.waitFor(() => !csms.clients.has('GR-RUN'));
  const boots = csms.received.filter(
    (r) => r.identity === 'GR-RUN' && r.action === 'BootNotification',
  ).length;

  as = await start();
  await csms.waitFor(
    () =>
      csms.received.filter((r) => r.identity === 'GR-RUN' && r.action === 'BootNotification').length > boots,
  );
  const events = await eventually(
    () => eventsOf(as, 'GR-RUN'),
    (ev) => ev[0]?.outcome === 'recovered',
  );
  assert.deepEqual({ stage: events[0].stage, attempt: events[0].attempt }, { stage: 'online', attempt: 2 });
  // No stage event says the shutdown stopped it.
  assert.ok(!events.some((e) => e.stage === 'stopped'));
  const list = await deploymentsOf(as);
  assert.equal(list.find((d) => d.identity === 'GR-STOP')?.stage, 'stopped');
  assert.ok(!csms.clients.has('GR-STOP'));
  // A stopped charger can still be started after the restart (its snapshot is restored first).
  const startOp = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'start', deployment_id: stopId },
  });
  assert.equal(startOp.status, 202);
  const started = await eventually(
    () => eventsOf(as, 'GR-STOP'),
    (ev) => ev[0]?.stage === 'online' && ev[0]?.outcome === 'succeeded',
  );
  assert.equal(started[0].attempt, 2);
});
