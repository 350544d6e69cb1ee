// Report generation from what a run observed: latency percentiles, online times, the lost and
// duplicated transaction arithmetic, the summary table, the offline HTML page and the progress line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LatencyHistogram,
  LoadMetrics,
  progressLine,
  startSampler,
  type Sample,
} from '../../tools/loadtest/metrics.ts';
import { parseLoadtestOptions } from '../../tools/loadtest/options.ts';
import type { ReferenceCsmsStats } from '../../tools/reference-csms/reference-csms.ts';
import { buildReport } from '../../tools/loadtest/report.ts';
import { summaryText } from '../../tools/loadtest/report-text.ts';
import {
  lineChart,
  pathOf,
  renderHtml,
  seriesOf,
  type Point,
  type Series,
} from '../../tools/loadtest/report-html.ts';
import { progressPrinter, reportPaths, writeReports } from '../../tools/loadtest/run.ts';
import { indexOf, identityOf, type LocalRunResult } from '../../tools/loadtest/run-local.ts';

test('latency histogram: percentiles within the 10 % bucket resolution, capped at the max', () => {
  const h = new LatencyHistogram();
  for (let ms = 1; ms <= 1000; ms++) h.add(ms);
  assert.equal(h.count, 1000);
  for (const [p, exact] of [
    [50, 500],
    [95, 950],
    [99, 990],
  ]) {
    const got = h.percentile(p);
    assert.ok(got >= exact && got <= exact * 1.1, `p${p} = ${got}, exact ${exact}`);
  }
  assert.equal(h.percentile(100), 1000);
  assert.equal(new LatencyHistogram().percentile(50), 0);
});

function observedRun(): LocalRunResult {
  const metrics = new LoadMetrics(4, indexOf);
  const at = new Date().toISOString();
  for (let i = 0; i < 4; i++) {
    metrics.onStage({ identity: identityOf(i), attempt: 1, stage: 'connecting', outcome: 'in_progress', at });
  }
  for (let i = 0; i < 3; i++) {
    metrics.onStage({ identity: identityOf(i), attempt: 1, stage: 'online', outcome: 'succeeded', at });
  }
  metrics.onStage({
    identity: identityOf(3),
    attempt: 1,
    stage: 'offline',
    outcome: 'failed',
    at,
    code: 'WS_CONNECT_REFUSED',
  });
  metrics.onCall('BootNotification', 12, 'result');
  metrics.onCall('BootNotification', 30, 'result');
  metrics.onCall('Heartbeat', 2, 'error');
  metrics.onCall('Heartbeat', 30_000, 'timeout');
  metrics.sample();
  return {
    metrics,
    marks: { allOnline: null, idleMeasuredAt: null, sessionsStartedAt: 1, steadyFrom: 6, endAt: 20 },
    baseline: { rss: 100 * 1024 * 1024, heapUsed: 20 * 1024 * 1024 },
    idle: { rss: 100 * 1024 * 1024 + 4 * 36 * 1024, heapUsed: 20 * 1024 * 1024 + 4 * 15 * 1024 },
    warmupChargers: 20,
    peakRss: 120 * 1024 * 1024,
    sessions: 2,
    sessionsStopped: 2,
    steadyCpu: 3.5,
    totalCpu: 40,
  };
}

function csmsStats(over: Partial<ReferenceCsmsStats['transactions']> = {}): ReferenceCsmsStats {
  return {
    connections: 3,
    accepted: 3,
    closed: 0,
    calls: { BootNotification: 3 },
    callErrors: { FormationViolation: 1 },
    schemaErrors: 1,
    schemaErrorSamples: ['LT000001 in call Heartbeat: FormationViolation ...'],
    badFrames: 0,
    transactions: {
      started: 2,
      stopped: 2,
      open: 0,
      duplicateStarts: 0,
      duplicateStops: 0,
      unknown: 0,
      ...over,
    },
  };
}

test('report: online times, latency per action, memory per charger and the failed checks', () => {
  const options = parseLoadtestOptions(['--chargers', '4', '--duration', '20', '--token', 'secret']);
  const r = buildReport(
    options,
    observedRun(),
    { url: 'ws://127.0.0.1:1', builtIn: true, stats: csmsStats() },
    new Date(),
  );
  assert.equal(r.online.reached, 3);
  assert.equal(r.online.atEnd, 3);
  assert.equal(r.online.all, null);
  assert.ok(r.online.first !== null && r.online.first >= 0);
  assert.deepEqual(Object.keys(r.latency), ['BootNotification', 'Heartbeat']);
  assert.equal(r.latency.BootNotification.count, 2);
  assert.ok(r.latency.BootNotification.p99 >= 29 && r.latency.BootNotification.p99 <= 30);
  assert.equal(r.latency.Heartbeat.errors, 1);
  assert.equal(r.latency.Heartbeat.timeouts, 1);
  assert.deepEqual(r.failures, { WS_CONNECT_REFUSED: 1 });
  assert.equal(r.memory.rssPerCharger, 36 * 1024);
  assert.equal(r.memory.heapPerCharger, 15 * 1024);
  assert.deepEqual(r.transactions, { sessions: 2, sessionsStopped: 2, lost: 0, duplicated: 0 });
  assert.equal('token' in r.options, false, 'the token never enters a report');
  assert.deepEqual(
    r.checks.map((c) => [c.name, c.ok]),
    [
      ['every charger came online', false],
      ['no schema error', false],
      ['no lost or duplicated transaction', true],
    ],
  );
  const text = summaryText(r);
  assert.match(text, /3\/4/);
  assert.match(text, /BootNotification\s+2\s/);
  assert.match(
    text,
    /engine heap per idle charger \(marginal, after a full GC, 20 warm-up chargers in the baseline\)\s+15\.0 KB/,
  );
  assert.match(text, /engine RSS per idle charger \(marginal, .*\)\s+36\.0 KB/);
  assert.equal(r.memory.method, 'marginal after a full GC');
  assert.match(text, /20 % charging/);
  assert.match(text, /FAIL every charger came online: 3\/4/);
});

test('report: a session the central system never saw stop is lost, one seen twice is duplicated', () => {
  const options = parseLoadtestOptions(['--chargers', '4']);
  const lost = buildReport(
    options,
    observedRun(),
    { url: 'u', builtIn: true, stats: csmsStats({ started: 1, stopped: 0, open: 1 }) },
    new Date(),
  );
  assert.equal(lost.transactions.lost, 2); // one never started, one never stopped
  const twice = buildReport(
    options,
    observedRun(),
    { url: 'u', builtIn: true, stats: csmsStats({ duplicateStarts: 1, duplicateStops: 1 }) },
    new Date(),
  );
  assert.equal(twice.transactions.duplicated, 2);
  const external = buildReport(
    options,
    observedRun(),
    { url: 'ws://elsewhere', builtIn: false, stats: null },
    new Date(),
  );
  assert.equal(external.transactions.lost, null);
  assert.equal(external.checks.length, 2);
});

test('report files: JSON and a self-contained HTML page with SVG charts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evsim-loadtest-'));
  try {
    const r = buildReport(
      parseLoadtestOptions(['--chargers', '4']),
      observedRun(),
      { url: 'u', builtIn: true, stats: csmsStats() },
      new Date(),
    );
    const paths = reportPaths(join(dir, 'nested', 'run.json'));
    assert.equal(paths.html, join(dir, 'nested', 'run.html'));
    writeReports(r, paths);
    const json = JSON.parse(readFileSync(paths.json, 'utf8'));
    assert.equal(json.chargers, 4);
    assert.equal(json.timeline.length, 1);
    const html = readFileSync(paths.html, 'utf8');
    assert.equal(html, renderHtml(r));
    assert.equal((html.match(/<svg /g) ?? []).length, 3);
    assert.match(html, /Chargers online over time/);
    assert.match(html, /Round-trip latency over time/);
    assert.doesNotMatch(html, /<script|src=|href=/, 'opens offline: nothing to fetch');
    assert.match(
      reportPaths(undefined, new Date('2025-01-02T03:04:05.678Z')).json,
      /^reports\/loadtest-2025-01-02T03-04-05-678Z\.json$/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('progress: rewritten in place on a terminal, one line per 10 s otherwise', () => {
  const sample = observedRun().metrics.samples[0];
  const line = progressLine(sample, 4);
  assert.match(
    line,
    /online 3\/4 \| offline 1 \| boots\/s \d+ \| calls\/s \d+ \| errors \d+ \| RSS \d+ MB \| CPU \d+%/,
  );

  const tty: string[] = [];
  const onTty = progressPrinter({ isTTY: true, write: (s) => tty.push(s) }, 4);
  onTty.onSample(sample);
  onTty.onSample({ ...sample, t: sample.t + 1 });
  onTty.done();
  assert.equal(tty.length, 3);
  assert.ok(tty[0].startsWith('\r') && tty[0].endsWith('\x1b[K'));
  assert.equal(tty[2], '\n');

  const pipe: string[] = [];
  const onPipe = progressPrinter({ isTTY: false, write: (s) => pipe.push(s) }, 4);
  for (let t = 0; t < 25; t++) onPipe.onSample({ ...sample, t });
  onPipe.done();
  assert.equal(pipe.length, 3); // t = 0, 10, 20
  assert.ok(pipe.every((s) => s.endsWith('\n') && !s.includes('\r')));
});

test('report: without a full GC (no --expose-gc) the memory per charger is not given, and says why', () => {
  const run = { ...observedRun(), baseline: null, idle: null };
  const r = buildReport(
    parseLoadtestOptions(['--chargers', '4']),
    run,
    { url: 'u', builtIn: true, stats: csmsStats() },
    new Date(),
  );
  assert.equal(r.memory.method, 'not measured');
  assert.equal(r.memory.heapPerCharger, null);
  assert.match(
    summaryText(r),
    /engine heap per idle charger \(not measured: run node with --expose-gc \(npm run loadtest does\)\)\s+n\/a/,
  );
});

/** Options of a 4-charger --via-api run. */
const viaApiOptions = () =>
  parseLoadtestOptions(['--chargers', '4', '--via-api', 'http://127.0.0.1:8080', '--token', 't']);

test("report --via-api: the header says what runs (no sessions); without the service's process, memory is not measured and CPU is the load test's", () => {
  const options = viaApiOptions();
  const run = {
    ...observedRun(),
    baseline: null,
    idle: null,
    warmupChargers: 0,
    sessions: 0,
    sessionsStopped: 0,
  };
  const r = buildReport(
    options,
    run,
    { url: 'u', builtIn: true, stats: csmsStats({ started: 0, stopped: 0 }) },
    new Date(),
  );
  const text = summaryText(r);
  assert.match(
    text,
    /deployed through http:\/\/127\.0\.0\.1:8080 \(POST \/evcharger\/location\) and followed once a second; no sessions/,
  );
  assert.doesNotMatch(text, /% charging/);
  assert.match(
    text,
    /service RSS per idle charger \(not measured: the service process was not found on this machine: give --service-pid\)/,
  );
  assert.match(text, /load-test process CPU whole run \(one core\)/);
  assert.doesNotMatch(text, /engine CPU/);
  assert.equal(r.memory.peakRss, null);
  const html = renderHtml(r);
  assert.match(html, /Round trips happen inside the service/);
  assert.match(html, /give <code>--service-pid<\/code>/);
  assert.equal((html.match(/<svg /g) ?? []).length, 1, 'only the chargers-online chart');
});

test('report --via-api: the service RSS at the end of the run is its own row; runs that did not read it have none', () => {
  const options = viaApiOptions();
  const csms = { url: 'u', builtIn: true, stats: csmsStats({ started: 0, stopped: 0 }) };
  const base = { ...observedRun(), warmupChargers: 0, sessions: 0, sessionsStopped: 0, servicePid: 4242 };
  const withEnd = buildReport(options, { ...base, endRss: 390 * 1024 * 1024 }, csms, new Date());
  assert.equal(withEnd.memory.endRss, 390 * 1024 * 1024);
  assert.match(summaryText(withEnd), /service RSS at the end of the run \(idle since the boot\)\s+390 MB/);
  const without = buildReport(options, base, csms, new Date());
  assert.equal(without.memory.endRss, null);
  assert.doesNotMatch(summaryText(without), /RSS at the end of the run/);
});

const sample = (t: number, over: Partial<Sample> = {}): Sample => ({
  t,
  dt: 1,
  interval: 1,
  online: 0,
  stages: {},
  bootsPerSec: 0,
  callsPerSec: 1,
  p50: 1,
  p95: 2,
  max: 3,
  errors: 0,
  rss: 0,
  heapUsed: 0,
  cpu: 0,
  ...over,
});

/** Subpaths of the SVG path of a series, each as its list of [x, y]. */
function subpaths(d: string): number[][][] {
  return d
    .split('M')
    .filter(Boolean)
    .map((part) =>
      [...part.matchAll(/(-?[\d.]+),(-?[\d.]+)|[HV](-?[\d.]+)/g)].map((m) =>
        m[3] ? [Number(m[3])] : [Number(m[1]), Number(m[2])],
      ),
    );
}

test('chart: the legend has its own row above the plot, so no line runs under it, even at the top value', () => {
  const series: Series[] = [
    {
      label: 'online',
      color: '#000',
      points: [
        [0, 0],
        [1, 300],
        [2, 300],
      ],
    },
  ];
  const svg = lineChart('t', 'x', 'y', series);
  const legendYs = [...svg.matchAll(/class="legend"[^>]* y="([\d.]+)"/g)].map((m) => Number(m[1]));
  const d = /<path d="([^"]+)"/.exec(svg)![1];
  const lineYs = subpaths(d)
    .flat()
    .filter((p) => p.length === 2)
    .map((p) => p[1]);
  assert.ok(legendYs.length === 2);
  assert.ok(Math.max(...legendYs) < Math.min(...lineYs), `legend ${legendYs} vs line ${lineYs}`);
  // 300 is not drawn on the top edge: the axis goes beyond it.
  assert.ok(svg.includes('>400</text>'));
});

test('chart: a sample without an answered call leaves a gap in the latency instead of a straight line across it', () => {
  const t = [
    sample(1),
    sample(2),
    sample(3, { callsPerSec: 0 }),
    sample(4, { callsPerSec: 0 }),
    sample(5),
    sample(6),
  ];
  const points = seriesOf(t, (s) => (s.callsPerSec > 0 ? s.p50 : null));
  const d = pathOf(
    points,
    (x) => x,
    (y) => y,
  );
  assert.equal(subpaths(d).length, 2, d); // [1,2] | [5,6]
  assert.doesNotMatch(
    pathOf(
      [
        [0, 1],
        [1, null],
        [2, 3],
      ],
      (x) => x,
      (y) => y,
    ),
    /L/,
  );
  const report = buildReport(
    parseLoadtestOptions(['--chargers', '4']),
    observedRun(),
    { url: 'u', builtIn: true, stats: csmsStats() },
    new Date(),
  );
  const html = renderHtml({ ...report, timeline: t });
  const latencyPath = /Round-trip latency[\s\S]*?<path d="([^"]+)"/.exec(html)![1];
  assert.equal(subpaths(latencyPath).length, 2, latencyPath);
});

test('chart: counts are drawn as steps (held until the next sample), rates point to point', () => {
  const points: Point[] = [
    [0, 0],
    [1, 10],
    [2, 30],
  ];
  assert.equal(
    pathOf(
      points,
      (x) => x,
      (y) => y,
      true,
    ),
    'M0.0,0.0H1.0V10.0H2.0V30.0',
  );
  assert.equal(
    pathOf(
      points,
      (x) => x,
      (y) => y,
    ),
    'M0.0,0.0L1.0,10.0L2.0,30.0',
  );
});

test('sampler: a sample says the interval its timer waited, also when every charger came online meanwhile', async () => {
  const metrics = new LoadMetrics(1, indexOf);
  metrics.restart();
  const samples: Sample[] = [];
  let fast = true;
  const sampler = startSampler(
    metrics,
    () => fast,
    (s) => samples.push(s),
  );
  await new Promise((r) => setTimeout(r, 50));
  fast = false; // the last charger came online while a 100 ms timer was waiting
  await new Promise((r) => setTimeout(r, 1200));
  sampler.stop();
  assert.deepEqual(
    samples.slice(0, 2).map((s) => s.interval),
    [0.1, 1],
  );
  assert.ok(samples[1].dt >= 0.9, String(samples[1].dt));
});

test('samples: the interval and the time each covers are kept; rates are over the last second', async () => {
  const metrics = new LoadMetrics(2, indexOf);
  metrics.restart();
  const at = new Date().toISOString();
  metrics.onStage({ identity: identityOf(0), attempt: 1, stage: 'online', outcome: 'succeeded', at });
  await new Promise((r) => setTimeout(r, 120));
  const first = metrics.sample(0.1);
  assert.equal(first.interval, 0.1);
  assert.ok(first.dt >= 0.1, String(first.dt));
  assert.ok(first.bootsPerSec > 0);
  // Right after: no boot in this sample's own window, but the boot is within the last second.
  const second = metrics.sample(0.1);
  assert.ok(second.dt < first.dt);
  assert.ok(second.bootsPerSec > 0, String(second.bootsPerSec));
});
