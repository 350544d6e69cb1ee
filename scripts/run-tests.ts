// Node 20's test runner does not expand globs: find the test files ourselves. Files run side by
// side (TEST_CONCURRENCY, default 4: most of a file's time is spent waiting on sockets, timers and
// child processes, so 4 keep 2 cores busy); each is isolated by its own port (0), data directory,
// database (a copy of the run's migrated template, or its own schema on DATABASE_URL) and MQTT
// topic prefix. The slowest files start first, so that none of them ends the run alone. Says how
// long the run is expected to take before it starts, and how long it took at the end.
// Usage: npm test [-- <path filter>...]   e.g. npm test -- test/cli/start.test.ts
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { dataTemplate, realTemplate } from '../test/support/data-template.ts';

/** The whole suite on 2 cores, 4 files at a time, as measured by .ci/run on 2026-12-02 (183 files). */
const WHOLE_SUITE_MINUTES = process.env.DATABASE_URL ? 'about 6' : 'about 7.5';
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY) || 4;

/**
 * The files (or folders) that took longest in the last measured runs, longest first: started
 * first, they run beside the many short ones instead of after them.
 */
const SLOW_FIRST = [
  'test/commands/crash-',
  'test/scenarios/ready-scenarios-',
  'test/cluster/',
  'test/loadtest/traffic.test.ts',
  'test/loadtest/via-api.test.ts',
  'test/charger/',
  'test/commands/',
  'test/scenarios/scenario-cli.test.ts',
  'test/deployments/restart.test.ts',
  'test/console/',
  'test/docs/readme-walkthrough.test.ts',
];
/**
 * Files that measure time (answer-time percentiles, injected latency within a few ms): they run
 * after the others, one at a time, on a machine no other test file is loading.
 */
const ALONE = [
  'test/api/csms-metrics.test.ts',
  'test/cluster/metrics.test.ts',
  'test/charger/charger-e2e-link-conditions.test.ts',
];

const rank = (file: string) => {
  const i = SLOW_FIRST.findIndex((prefix) => file.startsWith(prefix));
  return i === -1 ? SLOW_FIRST.length : i;
};

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const all = findTests('test');
const files = all
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const mode = process.env.DATABASE_URL
  ? 'on DATABASE_URL / MQTT_URL'
  : 'on the embedded PostgreSQL and MQTT broker';
console.log(
  files.length === all.length
    ? `Running all ${files.length} test files ${mode}, ${CONCURRENCY} at a time: ${WHOLE_SUITE_MINUTES} minutes on 2 cores. ` +
        'One file: npm test -- test/cli/start.test.ts'
    : `Running ${files.length} of ${all.length} test files ${mode}.`,
);
const started = Date.now();
// Made once here rather than by several files at once (each would make its own, then one is kept).
if (process.env.DATABASE_URL) await realTemplate();
else await Promise.all([dataTemplate('seeded'), dataTemplate('empty')]);
/** One run of node's test runner over `batch`, `concurrency` files at a time; its exit status. */
function runFiles(batch: string[], concurrency: number): number {
  if (batch.length === 0) return 0;
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/test-file-times.mjs',
      '--test-reporter-destination=stdout',
      ...batch,
    ],
    { stdio: 'inherit' },
  );
  return result.status ?? 1;
}
const alone = files.filter((f) => ALONE.includes(f));
const together = runFiles(
  files.filter((f) => !alone.includes(f)),
  CONCURRENCY,
);
if (alone.length > 0) console.log(`\nThe ${alone.length} file(s) that measure time, one at a time:`);
const apart = runFiles(alone, 1);
const result = { status: together || apart };
const seconds = Math.round((Date.now() - started) / 1000);
const took = seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
console.log(
  `${files.length} test file${files.length === 1 ? '' : 's'} ran in ${took}: ${result.status === 0 ? 'all passed' : 'some FAILED (the failing tests are listed above under "failing tests")'}.`,
);
process.exit(result.status ?? 1);
