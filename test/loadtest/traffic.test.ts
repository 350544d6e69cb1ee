// `npm run loadtest -- --traffic SEED`: the sessions come from generated traffic (engine/traffic)
// whose arrival rate keeps --charging-share of the chargers charging, starting warm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrafficRun, type TrafficCharger } from '../../engine/traffic/traffic-run.ts';
import { parseLoadtestOptions } from '../../tools/loadtest/options.ts';
import { summaryText } from '../../tools/loadtest/report-text.ts';
import { runLoadtest } from '../../tools/loadtest/run.ts';
import { loadtestTrafficConfig } from '../../tools/loadtest/traffic.ts';

test('the traffic a charging share gives keeps about that share of the chargers plugged in', () => {
  const chargers: TrafficCharger[] = Array.from({ length: 2000 }, (_, i) => ({
    key: String(i),
    identity: `LT${i}`,
    connectors: 2,
  }));
  const config = loadtestTrafficConfig(11, 0.2, 2);
  const run = new TrafficRun(
    config,
    chargers,
    async () => {},
    () => 0,
  );
  // An hour on, sampled every 10 simulated minutes.
  const active: number[] = [];
  for (let m = 1; m <= 6; m++) {
    run.runDue(run.simNow + m * 600);
    active.push(run.status().sessions_active);
  }
  for (const a of active)
    assert.ok(a > 2000 * 0.15 && a < 2000 * 0.25, `active ${active.join(', ')} of 2000`);
});

/**
 * Runs 60 chargers with generated traffic (seed 5, half of them charging on average) and checks
 * that their sessions were carried: each started and stopped once at the central system(s).
 */
async function assertTrafficCarried(extraArgs: string[]) {
  const options = parseLoadtestOptions([
    '--chargers', '60', '--ocpp', 'mix', '--duration', '20', '--traffic', '5',
    '--charging-share', '0.5', '--meter-interval', '5', ...extraArgs,
  ]); // prettier-ignore
  const progress: string[] = [];
  const report = await runLoadtest(options, { isTTY: false, write: (s) => progress.push(s) });
  assert.equal(report.online.reached, 60, progress.join(''));
  const cs = report.centralSystem!;
  assert.equal(cs.schemaErrors, 0, cs.schemaErrorSamples.join('\n'));
  assert.equal(report.chargerSide.schemaErrors, 0);
  assert.ok(report.traffic!.sessionsStarted > 0, JSON.stringify(report.traffic));
  assert.equal(report.traffic!.seed, 5);
  assert.equal(report.traffic!.commandsFailed, 0);
  assert.ok(report.transactions.sessions > 0);
  assert.ok(
    report.traffic!.sessionsStarted >= report.transactions.sessions,
    'every transaction had its EV plug in',
  );
  assert.equal(report.transactions.sessions, cs.transactions.started);
  assert.equal(cs.transactions.open, 0);
  assert.equal(report.transactions.lost, 0);
  assert.equal(report.transactions.duplicated, 0);
  assert.match(summaryText(report), /generated traffic \(seed 5\), 50 % charging on average/);
  return report;
}

test('--traffic: 60 chargers carry generated sessions, every one started and stopped once at the central system', async () => {
  await assertTrafficCarried([]);
});

test('--traffic --nodes 2: both engine processes carry their slice’s sessions, and the report adds them up', async () => {
  const report = await assertTrafficCarried(['--nodes', '2']);
  assert.equal(
    report.centralSystem!.calls.BootNotification,
    60,
    'both central systems together saw every boot',
  );
  assert.match(summaryText(report), /summed over 2 engine processes/);
});
