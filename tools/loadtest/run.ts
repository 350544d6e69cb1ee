// One load test from options to report: the central system (the reference one in its own
// process unless --csms names another), the chargers (here, or through the service's API with
// --via-api), the live progress line, and the JSON and HTML reports written at the end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { spawnCsmsProcess, type CsmsProcess } from '../reference-csms/csms-process.ts';
import type { ReferenceCsmsStats } from '../reference-csms/reference-csms.ts';
import { progressLine, type Sample } from './metrics.ts';
import type { LoadtestOptions } from './options.ts';
import { buildReport, openFileLimit, type LoadtestReport } from './report.ts';
import { renderHtml } from './report-html.ts';
import { runLocal } from './run-local.ts';
import { runViaApi } from './run-via-api.ts';
import { runNodes } from './run-nodes.ts';

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
  const perProcess = Math.ceil(options.chargers / options.nodes);
  if (files !== null && !options.viaApi && perProcess + 100 > files)
    out.write(
      `warning: ${perProcess} chargers per process need as many sockets, and a process may open ${files} files ` +
        `(ulimit -n): past that, connections fail with EMFILE and retry; --nodes spreads them.\n`,
    );
  // The reference central system: one process per engine node, so it too stays under the limit.
  const csmsList: CsmsProcess[] = [];
  if (!options.csmsUrl)
    for (let k = 0; k < (options.viaApi ? 1 : options.nodes); k++)
      csmsList.push(await spawnCsmsProcess({ heartbeatSec: options.heartbeatSec }));
  const urls = options.csmsUrl ? [options.csmsUrl] : csmsList.map((c) => c.url);
  const progress = progressPrinter(out, options.chargers);
  try {
    const hooks = {
      csmsUrl: urls[0],
      csmsUrls: urls,
      onSample: progress.onSample,
      csmsStats: csmsList.length === 1 ? () => csmsList[0].stats() : undefined,
    };
    const run = options.viaApi
      ? await runViaApi(options, hooks)
      : options.nodes > 1
        ? await runNodes(options, hooks)
        : await runLocal(options, hooks);
    progress.done();
    const stats = csmsList.length > 0 ? sumStats(await Promise.all(csmsList.map((c) => c.stats()))) : null;
    return buildReport(options, run, { url: urls.join(' '), builtIn: csmsList.length > 0, stats }, startedAt);
  } finally {
    await Promise.all(csmsList.map((c) => c.close()));
  }
}

/** The reference central systems' counts added up (one per engine node with --nodes). */
export function sumStats(all: ReferenceCsmsStats[]): ReferenceCsmsStats {
  if (all.length === 1) return all[0];
  const add = (a: Record<string, number>, b: Record<string, number>) => {
    for (const [k, n] of Object.entries(b)) a[k] = (a[k] ?? 0) + n;
    return a;
  };
  return all.reduce((sum, s) => ({
    connections: sum.connections + s.connections,
    accepted: sum.accepted + s.accepted,
    closed: sum.closed + s.closed,
    calls: add({ ...sum.calls }, s.calls),
    callErrors: add({ ...sum.callErrors }, s.callErrors),
    schemaErrors: sum.schemaErrors + s.schemaErrors,
    schemaErrorSamples: [...sum.schemaErrorSamples, ...s.schemaErrorSamples].slice(0, 10),
    badFrames: sum.badFrames + s.badFrames,
    transactions: add(
      { ...sum.transactions },
      s.transactions as unknown as Record<string, number>,
    ) as unknown as ReferenceCsmsStats['transactions'],
    processCpuMs:
      sum.processCpuMs === undefined || s.processCpuMs === undefined
        ? undefined
        : sum.processCpuMs + s.processCpuMs,
  }));
}
