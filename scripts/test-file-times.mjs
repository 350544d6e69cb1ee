// A second reporter for `npm test`: after the run, the test files that took longest, so that a
// suite growing past CI's budget shows where. A file's time is the sum of the top-level tests it
// defines (a shared suite such as test/charger/e2e-suite.ts counts for the files that run it;
// process start and module loading are not counted).
// Plain JavaScript: node loads reporters before tsx's loader is in place.
import { relative } from 'node:path';
import process from 'node:process';

const SHOWN = 12;

/** @param {AsyncIterable<{ type: string, data: { nesting?: number, file?: string, details?: { duration_ms?: number } } }>} source */
export default async function* fileTimes(source) {
  const byFile = new Map();
  for await (const { type, data } of source) {
    if ((type !== 'test:pass' && type !== 'test:fail') || data.nesting !== 0 || !data.file) continue;
    byFile.set(data.file, (byFile.get(data.file) ?? 0) + (data.details?.duration_ms ?? 0));
  }
  if (byFile.size < 2) return;
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((n, [, ms]) => n + ms, 0);
  yield `\nThe ${Math.min(SHOWN, rows.length)} slowest of the ${rows.length} files that define tests (their tests' time; ${Math.round(total / 1000)} s in all):\n`;
  for (const [file, ms] of rows.slice(0, SHOWN))
    yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${relative(process.cwd(), file)}\n`;
}
