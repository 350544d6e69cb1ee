// `npm run loadtest -- --via-api`: the chargers are deployed through the service's own API (E7)
// against the reference central system, followed through GET /evcharger/deployments, and the
// locations deleted at the end. The report says what ran: no sessions, and the service's own
// memory and CPU, read by its pid (here the service runs in the test's process).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { parseLoadtestOptions } from '../../tools/loadtest/options.ts';
import { runLoadtest } from '../../tools/loadtest/run.ts';
import { summaryText } from '../../tools/loadtest/report.ts';

let svc: TestService;

before(async () => {
  svc = await startTestService();
});

after(() => svc.close());

test(`--via-api: 30 chargers deployed through E7 all come online at the reference central system; the report says what ran (${MODE})`, async () => {
  const token = await svc.token('org-loadtest');
  const options = parseLoadtestOptions(
    ['--via-api', svc.url, '--chargers', '30', '--duration', '8', '--ocpp', 'mix'],
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
  // The locations were deleted at the end.
  const left = await svc.request('GET', '/evcharger/deployments', { token });
  assert.deepEqual(left.body.items, []);
});
