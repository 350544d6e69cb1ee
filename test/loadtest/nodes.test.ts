// `npm run loadtest -- --nodes N`: the fleet over N engine processes, one reference central
// system per node; the report covers the whole fleet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLoadtestOptions } from '../../tools/loadtest/options.ts';
import { runLoadtest } from '../../tools/loadtest/run.ts';
import { slicesOf } from '../../tools/loadtest/run-nodes.ts';
import { summaryText } from '../../tools/loadtest/report-text.ts';

test('the fleet is cut into slices as equal as can be, in index order', () => {
  assert.deepEqual(slicesOf(10, 3), [
    { first: 0, count: 4 },
    { first: 4, count: 3 },
    { first: 7, count: 3 },
  ]);
});

test('--nodes 2: 60 chargers over two engine processes all online, sessions without loss, one report', async () => {
  const options = parseLoadtestOptions([
    '--nodes', '2', '--chargers', '60', '--ocpp', 'mix', '--duration', '14',
    '--charging-share', '0.2', '--meter-interval', '5',
  ]); // prettier-ignore
  const progress: string[] = [];
  const report = await runLoadtest(options, { isTTY: false, write: (s) => progress.push(s) });
  assert.equal(report.online.reached, 60, progress.join(''));
  const cs = report.centralSystem!;
  assert.equal(cs.calls.BootNotification, 60, 'both central systems together saw every boot');
  assert.equal(cs.schemaErrors, 0);
  assert.equal(report.chargerSide.schemaErrors, 0);
  assert.equal(report.latency.BootNotification.count, 60, 'round trips of both nodes reach the report');
  assert.equal(report.transactions.sessions, 12);
  assert.equal(report.transactions.lost, 0);
  assert.equal(report.transactions.duplicated, 0);
  assert.equal(report.cpu.of, 'engine nodes');
  assert.equal(report.memory.method, 'marginal after a full GC');
  assert.equal(report.memory.warmupChargers, 40, 'each node warms up its own');
  assert.ok(
    report.timeline.some((s) => s.rss > 2 * 20 * 2 ** 20),
    'samples carry both nodes’ RSS',
  );
  const text = summaryText(report);
  assert.match(text, /summed over 2 engine processes/);
  assert.match(text, /reference, 2 own processes/);
});
