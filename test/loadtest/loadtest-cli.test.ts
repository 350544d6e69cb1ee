// `npm run loadtest` as a user runs it, small: 200 chargers of both versions for 20 s against the
// reference central system in its own process. Every charger comes online, the sessions start and
// stop without loss, the central system saw no schema error, and both reports are written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadtestReport } from '../../tools/loadtest/report.ts';

test('npm run loadtest: 200 chargers (mix) all online, reports written, 0 schema errors, 0 lost transactions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evsim-loadtest-e2e-'));
  try {
    const reportFile = join(dir, 'run.json');
    const child = spawn(
      process.execPath,
      [
        '--expose-gc', '--import', 'tsx', 'tools/loadtest/main.ts',
        '--chargers', '200', '--ocpp', 'mix', '--duration', '20',
        '--charging-share', '0.2', '--meter-interval', '5', '--heartbeat', '10',
        '--report', reportFile,
      ], // prettier-ignore
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, `exit code; stdout:\n${stdout}\nstderr:\n${stderr}`);
    assert.match(stdout, /ok {3}every charger came online: 200\/200/);
    assert.match(stderr, /online \d+\/200/, 'progress lines while running (not a TTY: every 10 s)');
    assert.doesNotMatch(stderr, /\r/, 'no in-place rewriting when not a TTY');

    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as LoadtestReport;
    assert.equal(report.online.reached, 200);
    assert.equal(report.online.atEnd, 200);
    assert.notEqual(report.online.all, null);
    const cs = report.centralSystem!;
    assert.equal(cs.schemaErrors, 0, cs.schemaErrorSamples.join('\n'));
    assert.equal(report.chargerSide.schemaErrors, 0);
    assert.deepEqual(cs.callErrors, {});
    assert.equal(cs.calls.BootNotification, 200);
    // 100 chargers of each version, 2 connectors: 1.6 also reports connector 0.
    assert.equal(cs.calls.StatusNotification >= 100 * 3 + 100 * 2, true);
    assert.ok(cs.calls.Heartbeat > 0, 'heartbeats at the interval the boot answer gave');
    assert.ok(cs.calls.MeterValues > 0 || cs.calls.TransactionEvent > 80, 'meter values while charging');
    // 40 sessions (20 %), every one started and stopped once at the central system.
    assert.equal(report.transactions.sessions, 40);
    assert.equal(report.transactions.sessionsStopped, 40);
    assert.equal(cs.transactions.started, 40);
    assert.equal(cs.transactions.stopped, 40);
    assert.equal(report.transactions.lost, 0);
    assert.equal(report.transactions.duplicated, 0);
    assert.ok(report.latency.BootNotification.count === 200 && report.latency.BootNotification.p50 > 0);
    assert.ok(report.timeline.length >= 15);
    // Sub-second samples while the chargers come online, one a second after.
    const ramp = report.timeline.filter((s) => s.t <= report.online.all!);
    assert.ok(ramp.length > 0 && ramp.every((s) => s.interval === 0.1), JSON.stringify(ramp.slice(0, 3)));
    assert.ok(report.timeline.at(-2)!.interval === 1);
    // Memory per charger: the marginal cost after a full GC, warm-up chargers in the baseline; the
    // warm-up's boots are not the run's.
    assert.equal(report.memory.method, 'marginal after a full GC');
    assert.equal(report.memory.warmupChargers, 20);
    assert.ok(report.memory.heapPerCharger! > 0, String(report.memory.heapPerCharger));
    assert.match(
      stdout,
      /engine heap per idle charger \(marginal, after a full GC, 20 warm-up chargers in the baseline\)/,
    );

    const html = readFileSync(join(dir, 'run.html'), 'utf8');
    assert.match(html, /<svg /);
    assert.match(html, /passed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
