// `npm run loadtest -- --via-api`: the chargers are deployed through the service's own API (E7)
// against the reference central system, followed through GET /evcharger/deployments, and the
// locations deleted at the end. The report says what ran: no sessions, memory not measured here.
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
  assert.equal(report.memory.method, 'not measured');
  assert.equal(report.cpu.of, 'load-test process');
  assert.ok(
    report.checks.every((c) => c.ok),
    JSON.stringify(report.checks),
  );
  const text = summaryText(report);
  assert.match(text, /no sessions/);
  assert.doesNotMatch(text, /% charging/);
  // The locations were deleted at the end.
  const left = await svc.request('GET', '/evcharger/deployments', { token });
  assert.deepEqual(left.body.items, []);
});
