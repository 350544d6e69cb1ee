// One load test from options to report: the central system (the reference one in its own
// process unless --csms names another), the chargers (here, or through the service's API with
// --via-api), the live progress line, and the JSON and HTML reports written at the end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { spawnCsmsProcess } from '../reference-csms/csms-process.ts';
import { progressLine, type Sample } from './metrics.ts';
import type { LoadtestOptions } from './options.ts';
import { buildReport, openFileLimit, type LoadtestReport } from './report.ts';
import { renderHtml } from './report-html.ts';
import { runLocal } from './run-local.ts';
import { runViaApi } from './run-via-api.ts';

export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Live progress: rewritten in place on a terminal, a line every 10 s otherwise. */
export function progressPrinter(
  out: ProgressOutput,
  chargers: number,
): {
  onSample: (s: Sample) => void;
  done: () => void;
} {
  let lastPrinted = -Infinity;
  let drawn = false;
  return {
    onSample(s) {
      const line = progressLine(s, chargers);
      if (out.isTTY) {
        out.write(`\r${line}\x1b[K`);
        drawn = true;
      } else if (s.t - lastPrinted >= 10) {
        out.write(`${line}\n`);
        lastPrinted = s.t;
      }
    },
    done() {
      if (drawn) out.write('\n');
    },
  };
}

/** Where the reports go: FILE (JSON) and FILE with .html; by default under reports/. */
export function reportPaths(
  reportFile: string | undefined,
  now = new Date(),
): { json: string; html: string } {
  const json = reportFile ?? `reports/loadtest-${now.toISOString().replace(/[:.]/g, '-')}.json`;
  const html = json.endsWith('.json') ? `${json.slice(0, -5)}.html` : `${json}.html`;
  return { json, html };
}

export function writeReports(report: LoadtestReport, paths: { json: string; html: string }): void {
  mkdirSync(dirname(paths.json), { recursive: true });
  writeFileSync(paths.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(paths.html, renderHtml(report));
}

export async function runLoadtest(options: LoadtestOptions, out: ProgressOutput): Promise<LoadtestReport> {
  const startedAt = new Date();
  const files = openFileLimit();
  if (files !== null && !options.viaApi && options.chargers + 100 > files)
    out.write(
      `warning: ${options.chargers} chargers need as many sockets, and this process may open ${files} files ` +
        `(ulimit -n): past that, connections fail with EMFILE and retry.\n`,
    );
  const csms = options.csmsUrl ? null : await spawnCsmsProcess({ heartbeatSec: options.heartbeatSec });
  const url = options.csmsUrl ?? csms!.url;
  const progress = progressPrinter(out, options.chargers);
  try {
    const hooks = { csmsUrl: url, onSample: progress.onSample };
    const run = options.viaApi ? await runViaApi(options, hooks) : await runLocal(options, hooks);
    progress.done();
    const stats = csms ? await csms.stats() : null;
    return buildReport(options, run, { url, builtIn: csms !== null, stats }, startedAt);
  } finally {
    await csms?.close();
  }
}
