// Node 20's test runner does not expand globs: find the test files ourselves. Says how long the
// run is expected to take before it starts, and how long it took at the end.
// Usage: npm test [-- <path filter>...]   e.g. npm test -- test/cli/start.test.ts
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

/**
 * The whole suite on 2 cores (AMD EPYC), as measured on 2026-11-28 (153 files): 25 min on the
 * embedded defaults (PGlite is the slow part), 15-16 min on PostgreSQL and Mosquitto.
 */
const WHOLE_SUITE_MINUTES = process.env.DATABASE_URL ? 'about 16' : 'about 25';

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
const files = all.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const mode = process.env.DATABASE_URL
  ? 'on DATABASE_URL / MQTT_URL'
  : 'on the embedded PostgreSQL and MQTT broker';
console.log(
  files.length === all.length
    ? `Running all ${files.length} test files ${mode}, one at a time: ${WHOLE_SUITE_MINUTES} minutes on 2 cores. ` +
        'One file: npm test -- test/cli/start.test.ts'
    : `Running ${files.length} of ${all.length} test files ${mode}.`,
);
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=1',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-file-times.mjs',
    '--test-reporter-destination=stdout',
    ...files,
  ],
  { stdio: 'inherit' },
);
const seconds = Math.round((Date.now() - started) / 1000);
const took = seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
console.log(
  `${files.length} test file${files.length === 1 ? '' : 's'} ran in ${took}: ${result.status === 0 ? 'all passed' : 'some FAILED (the failing tests are listed above under "failing tests")'}.`,
);
process.exit(result.status ?? 1);
