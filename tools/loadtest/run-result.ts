// What a load-test run hands its report (tools/loadtest/report.ts): phase marks, memory readings, figures.
import type { LoadMetrics } from './metrics.ts';
export interface PhaseMarks {
  /** Seconds from the start. */
  allOnline: number | null;
  idleMeasuredAt: number | null;
  sessionsStartedAt: number | null;
  steadyFrom: number | null;
  endAt: number;
}

export interface MemoryReading {
  rss: number;
  heapUsed: number;
}

export interface LocalRunResult {
  metrics: LoadMetrics;
  marks: PhaseMarks;
  /** After the warm-up chargers were gone and a full GC; null without --expose-gc. */
  baseline: MemoryReading | null;
  /** Every charger online and idle, after a full GC; null without --expose-gc or if never idle. */
  idle: MemoryReading | null;
  /** Chargers run and stopped before the baseline (0 with --via-api). */
  warmupChargers: number;
  peakRss: number;
  /** --via-api: the service's RSS at the end of the run, the fleet idle since it came online (null: not read). */
  endRss?: number | null;
  /** Sessions the chargers started (a transaction was running on connector 1 at the end). */
  sessions: number;
  /** Of those, sessions whose stop was delivered (the charger's outbox drained). */
  sessionsStopped: number;
  /** CPU of this process in the steady window (% of one core), and over the whole run. */
  steadyCpu: number | null;
  totalCpu: number;
  /** Frames the OCPP message log wrote to PostgreSQL (null: log off). */
  ocppLogFrames?: number | null;
  /**
   * --via-api: the service's pid when its memory and CPU were read (baseline = before the first
   * charger, idle = all online, no GC possible from here; the figures above are the service's);
   * null when it could not be found.
   */
  servicePid?: number | null;
  /** --nodes: the engine processes the figures above add up (memory and CPU are their sums). */
  nodes?: number;
  /** --traffic: what the generated traffic did (sessions plugged in, active at the end, faults, drops). */
  traffic?: TrafficFigures | null;
}

export interface TrafficFigures {
  seed: number;
  /** Arrivals per connector and hour the charging share gave. */
  arrivalsPerHour: number;
  /** Sessions whose EV plugged in (those in progress at the warm start included). */
  sessionsStarted: number;
  /** Sessions plugged in when the steady state began and when the run ended. */
  activeAtSteady: number | null;
  activeAtEnd: number;
  faults: number;
  drops: number;
  commandsFailed: number;
}
