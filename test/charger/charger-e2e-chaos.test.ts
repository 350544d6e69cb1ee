// Fleet chaos runs (docs/faults.md) over real chargers and sockets against the strict central
// system: a blackout of a share of the fleet comes back online and accepted, with the report
// saying what the chargers saw; the same seed twice does the same to the same chargers; a
// partition ends with the transaction message it held delivered. Pings every second, so a cut
// connection is found within 2 s.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChaosConfig } from '../../engine/chaos/chaos-config.ts';
import type { ChaosRun } from '../../engine/chaos/chaos-run.ts';
import { startLocalChaos } from '../../engine/chaos/local-chaos.ts';
import { VERSIONS, e2eSuite, type E2e } from './e2e-suite.ts';
import type { TrackedCharger } from './tracked-charger.ts';

const chaos = (c: Partial<ChaosConfig>): ChaosConfig => ({
  profile: 'blackout',
  share: 0.5,
  duration_s: 0.3,
  seed: 7,
  spread_s: 0.2,
  settle_s: 20,
  ...c,
});

function run(e: E2e, config: ChaosConfig, fleet: TrackedCharger[]): Promise<ChaosRun> {
  return new Promise((resolve) =>
    startLocalChaos(
      config,
      e.runtime(),
      fleet.map((c) => c.actor),
      resolve,
    ),
  );
}

async function fleetOf(e: E2e, name: string, n: number): Promise<TrackedCharger[]> {
  const fleet = Array.from({ length: n }, (_x, i) => e.deploy(`${e.tag}-${name}-${i}`));
  await Promise.all(fleet.map((c) => e.online(c)));
  return fleet;
}

for (const version of VERSIONS)
  e2eSuite(
    version,
    'fleet chaos runs',
    (e) => {
      test('blackout of half the fleet: every charger it darkened is back online and accepted, as the report says', async () => {
        const fleet = await fleetOf(e, 'BO', 8);
        const ids = fleet.map((c) => c.ctx().identity);
        // Each charger's next boot is answered Pending once, then Accepted.
        for (const id of ids) e.bootPlan.set(id, ['Pending']);
        const done = await run(e, chaos({}), fleet);
        const report = done.report();
        const chosen = new Set(done.plan.chosen.map((i) => [...ids].sort()[i]));
        assert.equal(done.status, 'finished');
        assert.equal(chosen.size, 4);
        assert.equal(report.affected, 4);
        assert.equal(report.back, 4);
        assert.equal(report.all_back, true);
        assert.deepEqual(report.not_back, []);
        assert.deepEqual(report.boot_answers, { Pending: 4, Accepted: 4 });
        assert.deepEqual(report.callerrors, {});
        assert.equal(report.late_answers, 0);
        assert.equal(report.connections, 4);
        assert.ok(report.busiest_second && report.busiest_second.connections >= 1);
        assert.ok(report.all_back_s !== null && report.back_s !== null);
        assert.equal(done.config.seed, 7);
        // What the central system saw: the darkened chargers booted again (Pending, then
        // Accepted), the others did not, and every charger is online.
        for (const id of ids) {
          const boots = e.received(id, 'BootNotification').length;
          assert.equal(boots, chosen.has(id) ? 3 : 1, id);
        }
        for (const c of fleet) assert.equal(c.ctx().stage, 'online');
      });

      test('the same seed twice: the same chargers, the same faults in the same order; another seed differs', async () => {
        const fleet = await fleetOf(e, 'SEED', 6);
        const config = chaos({
          profile: 'rolling_restart',
          share: 0.5,
          duration_s: 0.2,
          spread_s: 0.1,
          seed: 99,
        });
        const first = await run(e, config, fleet);
        const second = await run(e, config, fleet);
        assert.equal(first.done.length, 3);
        assert.deepEqual(second.done, first.done);
        assert.equal(second.report().all_back, true);
        const other = planOf(await run(e, { ...config, seed: 100 }, fleet));
        assert.notDeepEqual(other, planOf(first));
      });

      test('partition: the chargers cut off reconnect with their backoff and deliver the transaction message they held', async () => {
        const [a, b] = await fleetOf(e, 'NET', 2);
        a.actor.send({ type: 'PLUG_IN', connectorId: 1 });
        a.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
        await a.until(() => a.ctx().connectors[0].status === 'Charging' && a.ctx().outbox.length === 0);
        const id = a.ctx().identity;
        const ended = () =>
          e.v16
            ? e.received(id, 'StopTransaction')
            : e.received(id, 'TransactionEvent').filter((r) => r.params.eventType === 'Ended');
        const running = new Promise<ChaosRun>((resolve) =>
          startLocalChaos(
            chaos({ profile: 'partition', share: 1, duration_s: 2.5, spread_s: 0 }),
            e.runtime(),
            [a.actor, b.actor],
            resolve,
          ),
        );
        // The EV leaves while the charger is cut off: its transaction message cannot go now.
        a.actor.send({ type: 'UNPLUG', connectorId: 1 });
        assert.equal(ended().length, 0);
        const done = await running;
        const report = done.report();
        assert.equal(report.all_back, true);
        assert.equal(report.back, 2);
        await e.waitReceived(id, e.v16 ? 'StopTransaction' : 'TransactionEvent', e.v16 ? 1 : 3);
        assert.equal(ended().length, 1);
      });
    },
    { pingIntervalSec: 1 },
  );

const planOf = (r: ChaosRun) => r.done.map((d) => `${d.identity}:${d.action}`);
