// The load test's outcome as one JSON-able object and the checks against the targets. The
// summary table printed at the end is report-text.ts; the HTML rendering, report-html.ts.
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import type { Sample } from './metrics.ts';
import { round } from './metrics.ts';
import type { LoadtestOptions } from './options.ts';
import type { ReferenceCsmsStats } from '../reference-csms/reference-csms.ts';
import type { LocalRunResult, PhaseMarks, TrafficFigures } from './run-local.ts';

export interface ActionReport {
  count: number;
  errors: number;
  timeouts: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface LoadtestReport {
  startedAt: string;
  options: Omit<LoadtestOptions, 'token' | 'help'>;
  machine: {
    node: string;
    cores: number;
    cpu: string;
    memoryGb: number;
    platform: string;
    /** Files (so sockets) one process may open: ulimit -n; null when unknown. */
    openFiles: number | null;
  };
  mode: 'in-process' | 'via-api';
  /** --via-api: the service's process whose memory and CPU the report gives; null if not found. */
  servicePid: number | null;
  /** The central system loaded: the built-in reference one (own process) or --csms. */
  csms: { url: string; builtIn: boolean };
  chargers: number;
  online: {
    /** Chargers that came online at least once. */
    reached: number;
    /** Online at the end of the run. */
    atEnd: number;
    /** Seconds from the first deploy. */
    first: number | null;
    half: number | null;
    p99: number | null;
    all: number | null;
    /** Chargers per second until all (or all that did) came online. */
    bootRate: number;
  };
  marks: PhaseMarks;
  latency: Record<string, ActionReport>;
  chargerSide: { calls: number; callErrors: number; schemaErrors: number };
  centralSystem: ReferenceCsmsStats | null;
  transactions: {
    /** Sessions the chargers ran (a transaction open on the connector before the stop). */
    sessions: number;
    sessionsStopped: number;
    /** Known only with the built-in central system. */
    lost: number | null;
    duplicated: number | null;
  };
  disconnects: number;
  failures: Record<string, number>;
  stuck: number;
  memory: {
    /**
     * How the per-charger figures were taken: the marginal cost, (idle - baseline) / chargers, both
     * read after a full GC, the baseline after warm-up chargers had loaded what all chargers share;
     * or not at all (no --expose-gc, the chargers never all idle, or --via-api).
     */
    method: 'marginal after a full GC' | 'service RSS growth, no GC' | 'not measured';
    /** Why not measured, when not. */
    note: string | null;
    warmupChargers: number;
    baselineRss: number | null;
    baselineHeapUsed: number | null;
    idleRss: number | null;
    idleHeapUsed: number | null;
    /** Of the engine (this process, or the nodes' sum), or of the service with --via-api; null if unknown. */
    peakRss: number | null;
    /** --via-api: the service's RSS at the end of the run (V8 has shrunk the heap after the boot by then). */
    endRss: number | null;
    /** (idle - baseline) / chargers, bytes. */
    rssPerCharger: number | null;
    heapPerCharger: number | null;
  };
  /**
   * % of one core: the engine's (this process; the nodes' sum with --nodes), the service's with
   * --via-api (read by its pid), or the load test's own when the service could not be found.
   */
  cpu: {
    of: 'engine' | 'engine nodes' | 'service' | 'load-test process';
    steadyPercent: number | null;
    totalPercent: number;
  };
  /** The chargers' OCPP message log: off, or on with the frames it wrote to PostgreSQL. */
  ocppLog: { enabled: boolean; frames: number | null };
  /** --traffic: what the generated traffic did; null without it. */
  traffic: TrafficFigures | null;
  timeline: Sample[];
  checks: { name: string; ok: boolean; detail: string }[];
}

export function machineInfo(): LoadtestReport['machine'] {
  return {
    node: process.version,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform} ${process.arch}`,
    openFiles: openFileLimit(),
  };
}

/** The soft limit on open files of this process (Linux), which caps its connections. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : null;
  } catch {
    return null;
  }
}

export function buildReport(
  options: LoadtestOptions,
  run: LocalRunResult,
  csms: { url: string; builtIn: boolean; stats: ReferenceCsmsStats | null },
  startedAt: Date,
): LoadtestReport {
  const m = run.metrics;
  const latency: Record<string, ActionReport> = {};
  for (const [action, s] of [...m.actions].sort(([a], [b]) => a.localeCompare(b))) {
    latency[action] = {
      count: s.count,
      errors: s.errors,
      timeouts: s.timeouts,
      p50: round(s.latency.percentile(50), 2),
      p95: round(s.latency.percentile(95), 2),
      p99: round(s.latency.percentile(99), 2),
      max: round(s.latency.max, 2),
    };
  }
  const all = m.timeToOnline(1);
  const lastOnline = Math.max(0, ...Array.from(m.firstOnline).filter((t) => !Number.isNaN(t)));
  const tx = csms.stats?.transactions;
  // The database URL may carry a password.
  const { token: _token, help: _help, databaseUrl: _databaseUrl, ...shownOptions } = options;
  const viaApi = options.viaApi !== undefined;
  const service = viaApi && run.servicePid != null;
  const measured = run.baseline !== null && run.idle !== null;
  const perCharger = (pick: (m: { rss: number; heapUsed: number }) => number) =>
    run.baseline && run.idle ? Math.round((pick(run.idle) - pick(run.baseline)) / options.chargers) : null;
  const report: LoadtestReport = {
    startedAt: startedAt.toISOString(),
    options: shownOptions,
    machine: machineInfo(),
    mode: options.viaApi ? 'via-api' : 'in-process',
    servicePid: run.servicePid ?? null,
    csms: { url: csms.url, builtIn: csms.builtIn },
    chargers: options.chargers,
    online: {
      reached: m.everOnline,
      atEnd: m.online,
      first: m.timeToOnline(1 / options.chargers),
      half: m.timeToOnline(0.5),
      p99: m.timeToOnline(0.99),
      all,
      bootRate: lastOnline > 0 ? round(m.everOnline / lastOnline, 1) : 0,
    },
    marks: run.marks,
    latency,
    chargerSide: { calls: m.calls, callErrors: m.callErrors, schemaErrors: m.schemaErrors },
    centralSystem: csms.stats,
    transactions: {
      sessions: run.sessions,
      sessionsStopped: run.sessionsStopped,
      // Lost: a session the chargers ran that the central system never saw start, or saw start
      // and never saw stop. Duplicated: a start or stop it saw twice.
      lost: tx ? Math.max(0, run.sessions - tx.started) + tx.open : null,
      duplicated: tx ? tx.duplicateStarts + tx.duplicateStops : null,
    },
    disconnects: m.disconnects,
    failures: { ...m.failures },
    stuck: m.stuck,
    memory: {
      method: !measured ? 'not measured' : service ? 'service RSS growth, no GC' : 'marginal after a full GC',
      note: measured
        ? null
        : viaApi
          ? service
            ? 'the chargers were never all online'
            : 'the service process was not found on this machine: give --service-pid'
          : run.baseline === null
            ? 'run node with --expose-gc (npm run loadtest does)'
            : 'the chargers were never all online and idle',
      warmupChargers: run.warmupChargers,
      baselineRss: run.baseline?.rss ?? null,
      baselineHeapUsed: run.baseline?.heapUsed ?? null,
      idleRss: run.idle?.rss ?? null,
      idleHeapUsed: run.idle?.heapUsed ?? null,
      peakRss: viaApi && !service ? null : run.peakRss,
      endRss: run.endRss ?? null,
      rssPerCharger: perCharger((m) => m.rss),
      heapPerCharger: viaApi ? null : perCharger((m) => m.heapUsed),
    },
    cpu: {
      of: viaApi
        ? service
          ? 'service'
          : 'load-test process'
        : options.nodes > 1
          ? 'engine nodes'
          : 'engine',
      steadyPercent: run.steadyCpu,
      totalPercent: run.totalCpu,
    },
    ocppLog: { enabled: options.ocppLog === 'on', frames: run.ocppLogFrames ?? null },
    traffic: run.traffic ?? null,
    timeline: m.samples,
    checks: [],
  };
  report.checks = checksOf(report);
  return report;
}

/** What must hold for any run to pass (the exit code says whether they did). */
export function checksOf(r: LoadtestReport): LoadtestReport['checks'] {
  const checks: LoadtestReport['checks'] = [
    {
      name: 'every charger came online',
      ok: r.online.reached === r.chargers,
      detail: `${r.online.reached}/${r.chargers}`,
    },
    {
      name: 'no schema error',
      ok: r.chargerSide.schemaErrors === 0 && (r.centralSystem?.schemaErrors ?? 0) === 0,
      detail: `charger side ${r.chargerSide.schemaErrors}, central system ${r.centralSystem?.schemaErrors ?? 'n/a'}`,
    },
  ];
  if (r.transactions.lost !== null)
    checks.push({
      name: 'no lost or duplicated transaction',
      ok: r.transactions.lost === 0 && r.transactions.duplicated === 0,
      detail: `${r.transactions.sessions} sessions, lost ${r.transactions.lost}, duplicated ${r.transactions.duplicated}`,
    });
  return checks;
}
