// What a load test observes at the charger side: stage of every charger, when each first came
// online, round trips per OCPP action, and samples of the process (RSS, heap, CPU): every 100 ms
// while chargers come online (a ramp can be shorter than a second), every second after.
// Fixed-size structures only: counting 25k chargers must not cost the engine it measures.
import { STAGES, type Stage, type StageEvent } from '../../actors/charger/charger-ports.ts';
import type { CallOutcome } from '../../protocols/ocpp/index.ts';

// Log-scale latency buckets: bucket i holds (B(i-1), B(i)] with B(i) = 0.05 ms * 1.1^i, so a
// percentile read from them is within 10 % of the true value; 150 buckets reach ~80 s.
const BUCKETS = 150;
const BASE_MS = 0.05;
const GROWTH = 1.1;
const LOG_GROWTH = Math.log(GROWTH);
const bucketOf = (ms: number) =>
  ms <= BASE_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / BASE_MS) / LOG_GROWTH));
const upperOf = (bucket: number) => BASE_MS * GROWTH ** bucket;

export class LatencyHistogram {
  readonly counts = new Uint32Array(BUCKETS);
  count = 0;
  sum = 0;
  max = 0;

  add(ms: number): void {
    this.counts[bucketOf(ms)]++;
    this.count++;
    this.sum += ms;
    if (ms > this.max) this.max = ms;
  }

  /** The p-th percentile (0..100) in ms, to the bucket's upper bound; 0 when empty. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.min(upperOf(i), this.max);
    }
    return this.max;
  }

  reset(): void {
    this.counts.fill(0);
    this.count = 0;
    this.sum = 0;
    this.max = 0;
  }
}

export { STAGES };
const STAGE_INDEX = new Map(STAGES.map((s, i) => [s, i]));

export interface ActionStats {
  count: number;
  errors: number;
  timeouts: number;
  latency: LatencyHistogram;
}

/** One sample of the run: every 100 ms while chargers come online, every second after. */
export interface Sample {
  /** Seconds since the first deploy. */
  t: number;
  /** Seconds this sample covers (since the one before). */
  dt: number;
  /** Seconds the sampler meant to wait: a dt well above it is a gap (a busy event loop). */
  interval: number;
  online: number;
  stages: Partial<Record<Stage, number>>;
  /** Boots and CALLs per second over the last second (whatever the interval of the samples). */
  bootsPerSec: number;
  callsPerSec: number;
  /** Round trips answered in this sample: median, p95 and max (ms). */
  p50: number;
  p95: number;
  max: number;
  errors: number;
  rss: number;
  heapUsed: number;
  /** CPU of this process over the sample, in % of one core. */
  cpu: number;
}

/**
 * Where a sample's memory and CPU come from when the chargers run in other processes (engine
 * nodes, the service): their summed RSS, heap (0 when unknown) and CPU time so far (ms).
 */
export type ProcessSource = () => { rss: number; heapUsed: number; cpuMs: number } | null;

/** Turns a charger identity of this load test (prefix + number) back into its index. */
export type IndexOf = (identity: string) => number;

export class LoadMetrics {
  startedAt = performance.now();
  readonly stageOf: Uint8Array;
  readonly stageCounts = new Uint32Array(STAGES.length);
  /** Seconds from the start to each charger's first online; NaN until then. */
  readonly firstOnline: Float64Array;
  readonly actions = new Map<string, ActionStats>();
  readonly failures: Record<string, number> = {};
  readonly samples: Sample[] = [];
  boots = 0;
  everOnline = 0;
  disconnects = 0;
  stuck = 0;
  calls = 0;
  callErrors = 0;
  schemaErrors = 0;

  readonly #window = new LatencyHistogram();
  /** Counters at the samples of the last second (and the one before it): the rates' window. */
  #history: Array<{ at: number; boots: number; calls: number }> = [
    { at: performance.now(), boots: 0, calls: 0 },
  ];
  #lastCpu = process.cpuUsage();
  #lastAt = performance.now();
  /** Set when the chargers run elsewhere: samples read those processes instead of this one. */
  source: ProcessSource | null = null;
  /**
   * Set when the chargers' stages are counted elsewhere (--via-api: the fleet summary): samples
   * show these counts instead of the per-charger ones, which are then read less often.
   */
  liveStages: Partial<Record<Stage, number>> | null = null;
  #lastSourceCpuMs = 0;

  constructor(
    readonly chargers: number,
    readonly indexOf: IndexOf,
  ) {
    this.stageOf = new Uint8Array(chargers); // 0 = not_deployed
    this.stageCounts[0] = chargers;
    this.firstOnline = new Float64Array(chargers).fill(NaN);
  }

  /** The run starts now (after a warm-up): the clock, and the CPU and rates of the first sample. */
  restart(): void {
    this.startedAt = performance.now();
    this.#lastAt = this.startedAt;
    this.#lastCpu = process.cpuUsage();
    this.#lastSourceCpuMs = this.source?.()?.cpuMs ?? 0;
    this.#history = [{ at: this.startedAt, boots: this.boots, calls: this.calls }];
  }

  /** Seconds since the start of the run. */
  now(): number {
    return (performance.now() - this.startedAt) / 1000;
  }

  get online(): number {
    return this.stageCounts[STAGE_INDEX.get('online')!];
  }

  /**
   * The stage events of every charger (one shared handler, no closure per charger). `atSeconds`:
   * when the stage was reached, if known better than now (--via-api: the service's record of it).
   */
  readonly onStage = (e: StageEvent, atSeconds?: number): void => {
    const i = this.indexOf(e.identity);
    if (!(i >= 0 && i < this.chargers)) return;
    const stage = STAGE_INDEX.get(e.stage)!;
    const before = this.stageOf[i];
    if (before !== stage) {
      this.stageCounts[before]--;
      this.stageCounts[stage]++;
      this.stageOf[i] = stage;
    }
    if (e.outcome === 'failed') {
      const code = e.code ?? 'UNKNOWN';
      this.failures[code] = (this.failures[code] ?? 0) + 1;
    } else if (e.outcome === 'stuck') this.stuck++;
    if (e.stage === 'offline' && e.outcome === 'in_progress') this.disconnects++;
    if (e.stage === 'online' && (e.outcome === 'succeeded' || e.outcome === 'recovered')) {
      this.boots++;
      if (Number.isNaN(this.firstOnline[i])) {
        this.firstOnline[i] = atSeconds ?? this.now();
        this.everOnline++;
      }
    }
  };

  /** The runtime's onCallAnswered hook. */
  readonly onCall = (action: string, ms: number, outcome: CallOutcome): void => {
    let stats = this.actions.get(action);
    if (!stats)
      this.actions.set(
        action,
        (stats = { count: 0, errors: 0, timeouts: 0, latency: new LatencyHistogram() }),
      );
    stats.count++;
    this.calls++;
    if (outcome === 'timeout') {
      stats.timeouts++;
      this.callErrors++;
      return;
    }
    if (outcome === 'error') {
      stats.errors++;
      this.callErrors++;
    }
    stats.latency.add(ms);
    this.#window.add(ms);
  };

  readonly onSchemaError = (): void => {
    this.schemaErrors++;
  };

  /** Takes the sample of the interval that just ended (`interval`: what the sampler waited, s). */
  sample(interval = 1): Sample {
    const at = performance.now();
    const elapsed = Math.max(0.001, (at - this.#lastAt) / 1000);
    const cpu = process.cpuUsage(this.#lastCpu);
    this.#lastCpu = process.cpuUsage();
    let memory = memoryUsage();
    let cpuMs = (cpu.user + cpu.system) / 1000;
    const other = this.source?.();
    if (other) {
      memory = { rss: other.rss, heapUsed: other.heapUsed };
      cpuMs = Math.max(0, other.cpuMs - this.#lastSourceCpuMs);
      this.#lastSourceCpuMs = other.cpuMs;
    }
    const stages = this.liveStages ?? this.#countedStages();
    const errors = this.callErrors + Object.values(this.failures).reduce((a, b) => a + b, 0);
    this.#history.push({ at, boots: this.boots, calls: this.calls });
    while (this.#history.length > 2 && this.#history[1].at <= at - 1000) this.#history.shift();
    const since = this.#history[0];
    const span = Math.max(0.001, (at - since.at) / 1000);
    const sample: Sample = {
      t: round(this.now(), 2),
      dt: round(elapsed, 3),
      interval,
      online: stages.online ?? 0,
      stages,
      bootsPerSec: round((this.boots - since.boots) / span, 1),
      callsPerSec: round((this.calls - since.calls) / span, 1),
      p50: round(this.#window.percentile(50), 2),
      p95: round(this.#window.percentile(95), 2),
      max: round(this.#window.max, 2),
      errors,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      cpu: round((cpuMs / (elapsed * 1000)) * 100, 1),
    };
    this.#window.reset();
    this.#lastAt = at;
    this.samples.push(sample);
    return sample;
  }

  #countedStages(): Partial<Record<Stage, number>> {
    const stages: Partial<Record<Stage, number>> = {};
    STAGES.forEach((s, i) => {
      if (this.stageCounts[i] > 0) stages[s] = this.stageCounts[i];
    });
    return stages;
  }

  /** Seconds from the start until `share` (0..1] of the chargers had been online; null if never. */
  timeToOnline(share: number): number | null {
    const times = Array.from(this.firstOnline).filter((t) => !Number.isNaN(t));
    times.sort((a, b) => a - b);
    const needed = Math.max(1, Math.ceil(share * this.chargers));
    return times.length >= needed ? times[needed - 1] : null;
  }
}

let lastMemory = { rss: 0, heapUsed: 0 };
/** process.memoryUsage() reads /proc: out of file descriptors it throws, so keep the last reading. */
function memoryUsage(): { rss: number; heapUsed: number } {
  try {
    const m = process.memoryUsage();
    lastMemory = { rss: m.rss, heapUsed: m.heapUsed };
  } catch {
    // EMFILE: the chargers hold every descriptor the process may open.
  }
  return lastMemory;
}

export const round = (n: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** The one-line live view: chargers per stage, rates, errors, RSS and CPU. */
export function progressLine(s: Sample, chargers: number): string {
  const stages = Object.entries(s.stages)
    .filter(([stage]) => stage !== 'online' && stage !== 'not_deployed')
    .map(([stage, n]) => `${stage} ${n}`);
  const waiting = s.stages.not_deployed ? [`waiting ${s.stages.not_deployed}`] : [];
  return [
    `[${s.t.toFixed(0).padStart(4)} s] online ${s.online}/${chargers}`,
    ...waiting,
    ...stages,
    `boots/s ${Math.round(s.bootsPerSec)}`,
    `calls/s ${Math.round(s.callsPerSec)}`,
    `errors ${s.errors}`,
    `RSS ${Math.round(s.rss / 1048576)} MB`,
    `CPU ${Math.round(s.cpu)}%`,
  ].join(' | ');
}

/**
 * Samples every 100 ms while `fast()` holds (a ramp may take less than a second), then every
 * second. Each sample says the interval its timer waited, not the one chosen since: the last
 * charger may come online in between. `stop()` takes the last sample.
 */
export function startSampler(
  metrics: LoadMetrics,
  fast: () => boolean,
  onSample: (sample: Sample) => void,
): { stop: () => void } {
  const schedule = () => {
    const interval = fast() ? 0.1 : 1;
    timer = setTimeout(() => {
      onSample(metrics.sample(interval));
      schedule();
    }, interval * 1000);
  };
  let timer: NodeJS.Timeout;
  schedule();
  return {
    stop: () => {
      clearTimeout(timer);
      onSample(metrics.sample(fast() ? 0.1 : 1));
    },
  };
}
