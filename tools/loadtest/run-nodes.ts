// --nodes N: the fleet spread over N engine processes (one process may hold about as many
// sockets as its open-files limit), each running its slice of the chargers exactly as an
// in-process run does. This process coordinates: it starts every node's clock together (after
// their warm-ups), counts the fleet from the nodes' stage and call events (sent in batches every
// 100 ms), reads the nodes' memory and CPU from /proc, and adds up what each node measured.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StageEvent } from '../../actors/charger/charger-ports.ts';
import type { CallOutcome } from '../../protocols/ocpp/index.ts';
import { LoadMetrics, startSampler, type Sample } from './metrics.ts';
import type { LoadtestOptions } from './options.ts';
import { readProcesses } from './process-stats.ts';
import { tuneHeapForChargers } from '../../engine/platform/heap-tuning.ts';
import {
  indexOf,
  runLocal,
  type LocalRunResult,
  type MemoryReading,
  type PhaseMarks,
  type TrafficFigures,
} from './run-local.ts';

type StageItem = Pick<StageEvent, 'identity' | 'stage' | 'outcome' | 'code'>;
type CallItem = [action: string, ms: number, outcome: CallOutcome];
/** What a node reports of its own run (its LoadMetrics stay in the node). */
type NodeResult = Omit<LocalRunResult, 'metrics'>;

type ToNode = { type: 'go' };
type FromNode =
  | { type: 'ready' }
  | { type: 'events'; stages: StageItem[]; calls: CallItem[]; schemaErrors: number }
  | { type: 'result'; result: NodeResult }
  | { type: 'failed'; message: string };

interface NodeArgs {
  options: LoadtestOptions;
  firstIndex: number;
  csmsUrl: string;
}

export interface NodesRunHooks {
  /** One central system per node, or one for all. */
  csmsUrls: string[];
  onSample?: (sample: Sample) => void;
}

/** The slices of the fleet: as equal as can be, in index order. */
export function slicesOf(chargers: number, nodes: number): Array<{ first: number; count: number }> {
  const out = [];
  for (let k = 0, first = 0; k < nodes; k++) {
    const count = Math.floor(chargers / nodes) + (k < chargers % nodes ? 1 : 0);
    out.push({ first, count });
    first += count;
  }
  return out;
}

export async function runNodes(options: LoadtestOptions, hooks: NodesRunHooks): Promise<LocalRunResult> {
  const N = options.chargers;
  const metrics = new LoadMetrics(N, indexOf);
  const self = fileURLToPath(import.meta.url);
  const slices = slicesOf(N, options.nodes);
  const nodes: ChildProcess[] = [];
  const results: NodeResult[] = [];
  let ready = 0;
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const allReady = new Promise<void>((resolve) => {
    slices.forEach((slice, k) => {
      const args: NodeArgs = {
        options: { ...options, chargers: slice.count, nodes: 1 },
        firstIndex: slice.first,
        csmsUrl: hooks.csmsUrls[k % hooks.csmsUrls.length],
      };
      const child = fork(self, [JSON.stringify(args)], {
        execArgv: [...(self.endsWith('.ts') ? ['--import', 'tsx'] : []), '--expose-gc'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on('message', (m: FromNode) => {
        if (m.type === 'ready' && ++ready === slices.length) resolve();
        else if (m.type === 'events') {
          for (const e of m.stages) metrics.onStage({ ...e, attempt: 1, at: '' } as StageEvent);
          for (const [action, ms, outcome] of m.calls) metrics.onCall(action, ms, outcome);
          for (let i = 0; i < m.schemaErrors; i++) metrics.onSchemaError();
        } else if (m.type === 'result') results[k] = m.result;
        else if (m.type === 'failed') fail(new Error(`engine node ${k + 1}: ${m.message}`));
      });
      child.once('exit', (code) => {
        if (results[k] === undefined) fail(new Error(`engine node ${k + 1} exited (code ${code})`));
      });
      nodes.push(child);
    });
  });
  try {
    await Promise.race([allReady, failed]);
    const pids = nodes.map((n) => n.pid!);
    // Memory and CPU of the samples: the nodes', summed (the heap is each node's own business).
    metrics.source = () => {
      const r = readProcesses(pids);
      return r && { ...r, heapUsed: 0 };
    };
    metrics.restart();
    for (const node of nodes) node.send({ type: 'go' } satisfies ToNode);
    const sampler = startSampler(
      metrics,
      () => metrics.everOnline < N,
      (sample) => hooks.onSample?.(sample),
    );
    const done = Promise.all(
      nodes.map((n, k) => new Promise<void>((resolve) => n.once('exit', () => results[k] && resolve()))),
    );
    await Promise.race([done, failed]);
    sampler.stop();
  } finally {
    for (const node of nodes) if (node.exitCode === null) node.kill('SIGKILL');
  }
  return combine(metrics, results, options.durationSec);
}

/** The fleet's result from the nodes': sums, and the latest of each phase mark. */
function combine(metrics: LoadMetrics, results: NodeResult[], endAt: number): LocalRunResult {
  const sum = (pick: (r: NodeResult) => number) => results.reduce((a, r) => a + pick(r), 0);
  const memory = (pick: (r: NodeResult) => MemoryReading | null): MemoryReading | null =>
    results.every((r) => pick(r) !== null)
      ? { rss: sum((r) => pick(r)!.rss), heapUsed: sum((r) => pick(r)!.heapUsed) }
      : null;
  const latest = (pick: (m: PhaseMarks) => number | null) =>
    results.every((r) => pick(r.marks) !== null) ? Math.max(...results.map((r) => pick(r.marks)!)) : null;
  return {
    metrics,
    marks: {
      allOnline: metrics.everOnline === metrics.chargers ? metrics.timeToOnline(1) : null,
      idleMeasuredAt: latest((m) => m.idleMeasuredAt),
      sessionsStartedAt: latest((m) => m.sessionsStartedAt),
      steadyFrom: latest((m) => m.steadyFrom),
      endAt,
    },
    baseline: memory((r) => r.baseline),
    idle: memory((r) => r.idle),
    warmupChargers: sum((r) => r.warmupChargers),
    peakRss: sum((r) => r.peakRss),
    sessions: sum((r) => r.sessions),
    sessionsStopped: sum((r) => r.sessionsStopped),
    steadyCpu: results.every((r) => r.steadyCpu !== null) ? round1(sum((r) => r.steadyCpu!)) : null,
    totalCpu: round1(sum((r) => r.totalCpu)),
    nodes: results.length,
    traffic: combineTraffic(results.map((r) => r.traffic ?? null)),
  };
}

/** --traffic: each node ran the traffic of its slice; the fleet's is their sum. */
function combineTraffic(parts: Array<TrafficFigures | null>): TrafficFigures | null {
  if (parts.some((t) => t === null)) return null;
  const all = parts as TrafficFigures[];
  const sum = (pick: (t: TrafficFigures) => number) => all.reduce((a, t) => a + pick(t), 0);
  return {
    seed: all[0].seed,
    arrivalsPerHour: all[0].arrivalsPerHour,
    sessionsStarted: sum((t) => t.sessionsStarted),
    activeAtSteady: all.every((t) => t.activeAtSteady !== null) ? sum((t) => t.activeAtSteady!) : null,
    activeAtEnd: sum((t) => t.activeAtEnd),
    faults: sum((t) => t.faults),
    drops: sum((t) => t.drops),
    commandsFailed: sum((t) => t.commandsFailed),
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** A node: its slice of the fleet through runLocal, events to the coordinator in batches. */
async function runNode(args: NodeArgs, send: (m: FromNode) => void): Promise<NodeResult> {
  let stages: StageItem[] = [];
  let calls: CallItem[] = [];
  let schemaErrors = 0;
  const flush = () => {
    if (stages.length === 0 && calls.length === 0 && schemaErrors === 0) return;
    send({ type: 'events', stages, calls, schemaErrors });
    stages = [];
    calls = [];
    schemaErrors = 0;
  };
  const flusher = setInterval(flush, 100);
  const go = new Promise<void>((resolve) =>
    process.on('message', (m: ToNode) => m.type === 'go' && resolve()),
  );
  try {
    const { metrics: _metrics, ...result } = await runLocal(args.options, {
      csmsUrl: args.csmsUrl,
      firstIndex: args.firstIndex,
      ready: async () => {
        send({ type: 'ready' });
        await go;
      },
      observer: {
        onStage: (e) =>
          stages.push({ identity: e.identity, stage: e.stage, outcome: e.outcome, code: e.code }),
        onCall: (action, ms, outcome) => calls.push([action, ms, outcome]),
        onSchemaError: () => schemaErrors++,
      },
    });
    flush();
    return result;
  } finally {
    clearInterval(flusher);
  }
}

// The child: run the node, report, leave (sockets of thousands of chargers take long to unwind).
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const send = (m: FromNode) => new Promise<void>((resolve) => process.send!(m, () => resolve()));
  process.on('disconnect', () => process.exit(0));
  tuneHeapForChargers();
  runNode(JSON.parse(process.argv[2]) as NodeArgs, (m) => void send(m)).then(
    (result) => send({ type: 'result', result }).then(() => process.exit(0)),
    (error: Error) => send({ type: 'failed', message: error.message }).then(() => process.exit(1)),
  );
}
