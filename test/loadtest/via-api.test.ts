// `npm run loadtest -- --via-api`: the chargers are deployed through the service's own API (E7)
// against the reference central system, followed through GET /evcharger/deployments, and the
// locations deleted at the end. The report says what ran: no sessions (or with --traffic, the
// service's own traffic runs), and the service's own memory and CPU, read by its pid (here the
// service runs in the test's process).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { parseLoadtestOptions } from '../../tools/loadtest/options.ts';
import { runLoadtest } from '../../tools/loadtest/run.ts';
import { summaryText } from '../../tools/loadtest/report-text.ts';
import { runViaApi } from '../../tools/loadtest/run-via-api.ts';
import type { Sample } from '../../tools/loadtest/metrics.ts';
import type { Stage } from '../../actors/charger/charger-ports.ts';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

let svc: TestService;

before(async () => {
  svc = await startTestService();
});

after(() => svc.close());

test(`--via-api: 30 chargers deployed through E7 all come online at the reference central system; the report says what ran (${MODE})`, async () => {
  const token = await svc.token('org-loadtest');
  const options = parseLoadtestOptions(
    // Long enough that a slow boot on a busy machine still leaves the idle reading its time (the
    // run measures the service once the boot traffic has drained, up to 5 s after all are online).
    ['--via-api', svc.url, '--chargers', '30', '--duration', '15', '--ocpp', 'mix'],
    { TOKEN: token },
  );
  const progress: string[] = [];
  const report = await runLoadtest(options, { isTTY: false, write: (s) => progress.push(s) });
  assert.equal(report.mode, 'via-api');
  assert.equal(report.online.reached, 30, progress.join(''));
  assert.equal(report.centralSystem!.calls.BootNotification, 30);
  assert.equal(report.centralSystem!.schemaErrors, 0);
  assert.equal(report.transactions.sessions, 0);
  // The service listening on svc.url's port is this process: found by its port, read from /proc.
  assert.equal(report.servicePid, process.pid);
  assert.equal(report.memory.method, 'service RSS growth, no GC');
  assert.equal(report.cpu.of, 'service');
  assert.ok(report.memory.baselineRss! > 10 * 2 ** 20, String(report.memory.baselineRss));
  assert.ok(report.memory.peakRss! >= report.memory.baselineRss!);
  assert.equal(report.memory.heapPerCharger, null, 'no heap reading of another process');
  assert.ok(
    report.timeline.some((s) => s.rss > 10 * 2 ** 20),
    'samples carry the service RSS',
  );
  assert.ok(
    report.checks.every((c) => c.ok),
    JSON.stringify(report.checks),
  );
  const text = summaryText(report);
  assert.match(text, /no sessions/);
  assert.doesNotMatch(text, /% charging/);
  assert.match(text, /service RSS before \/ idle \/ peak +\d+ MB \/ \d+ MB \/ \d+ MB/);
  assert.match(text, /OCPP message log +the service's own \(OCPP_LOG\)/);
  // The locations were deleted at the end.
  const left = await svc.request('GET', '/evcharger/deployments', { token });
  assert.deepEqual(left.body.items, []);
});

test(`--via-api --traffic: the service's generated traffic runs on the deployed location, its sessions start and stop once at the central system (${MODE})`, async () => {
  const token = await svc.token('org-loadtest-traffic');
  const options = parseLoadtestOptions(
    ['--via-api', svc.url, '--chargers', '60', '--duration', '22', '--ocpp', 'mix',
      '--traffic', '5', '--charging-share', '0.5'],
    { TOKEN: token },
  ); // prettier-ignore
  const progress: string[] = [];
  const report = await runLoadtest(options, { isTTY: false, write: (s) => progress.push(s) });
  assert.equal(report.online.reached, 60, progress.join(''));
  const cs = report.centralSystem!;
  assert.equal(cs.schemaErrors, 0, cs.schemaErrorSamples.join('\n'));
  const traffic = report.traffic!;
  assert.equal(traffic.seed, 5);
  assert.ok(traffic.sessionsStarted > 0, JSON.stringify(traffic));
  assert.equal(traffic.commandsFailed, 0);
  assert.ok(report.transactions.sessions > 0, 'the sessions reached the central system as transactions');
  assert.ok(traffic.sessionsStarted >= report.transactions.sessions, 'every transaction had its EV plug in');
  assert.equal(cs.transactions.open, 0, 'every transaction was stopped when the traffic stopped');
  assert.equal(report.transactions.lost, 0);
  assert.equal(report.transactions.duplicated, 0);
  assert.match(
    summaryText(report),
    /generated traffic \(POST \/traffic-runs, seed 5 \+ the location's index\), 50 % charging/,
  );
  // One run on the one location, with the seed asked for, stopped at the end.
  const runs = await svc.request('GET', '/traffic-runs', { token });
  assert.equal(runs.body.items.length, 1, JSON.stringify(runs.body));
  assert.equal(runs.body.items[0].config.seed, 5);
  assert.notEqual(runs.body.items[0].stopped_at, null);
});

test(`--via-api counts a boot through the fleet summary once a second and reads the deployment lists only every 5 s until all are online (${MODE})`, async () => {
  const token = await svc.token('org-loadtest-counts');
  const reads = { summary: 0, lists: 0 };
  const counting: typeof fetch = (input, init) => {
    const path = new URL(String(input)).pathname;
    if (path === '/evcharger/fleet/summary') reads.summary++;
    if (path === '/evcharger/deployments') reads.lists++;
    return fetch(input, init);
  };
  const options = parseLoadtestOptions(
    ['--via-api', svc.url, '--chargers', '10', '--duration', '7', '--ocpp', 'mix'],
    { TOKEN: token },
  );
  const samples: Sample[] = [];
  // No central system listens there: the chargers stay short of online for the whole run.
  const run = await runViaApi(options, {
    csmsUrl: `ws://127.0.0.1:${await closedPort()}/ocpp`,
    fetch: counting,
    onSample: (s) => samples.push(s),
  });
  assert.equal(run.metrics.everOnline, 0);
  // A summary read per second of the run (and one before it); the lists at 5 s only (and the
  // location's delete at the end is no list read).
  assert.ok(reads.summary >= 6, JSON.stringify(reads));
  assert.equal(reads.lists, 1, JSON.stringify(reads));
  // The live view counted all 10 deployed and none online, from the summary alone; every sample
  // accounts for all 10 chargers, posted or not.
  const count = (s: Sample, not?: Stage) =>
    Object.entries(s.stages).reduce((n, [stage, k]) => (stage === not ? n : n + (k ?? 0)), 0);
  const seen = JSON.stringify(samples.map((s) => s.stages));
  assert.ok(samples.length >= 6, seen);
  for (const s of samples) assert.equal(count(s), 10, seen);
  assert.ok(
    samples.some((s) => count(s, 'not_deployed') === 10 && s.online === 0),
    seen,
  );
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
