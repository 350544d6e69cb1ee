// Runs the load test's chargers in this process through the real charger runtime: deploys them at
// the ramp, starts sessions on a share of them once all are online (after the idle memory
// reading), keeps them running for the duration, then ends the sessions and stops everything.
// Memory per charger is marginal: a few warm-up chargers run first (against a throwaway central
// system in this process) so code, schema validators and pools are loaded before the baseline is
// read; baseline and idle readings follow a full GC (node --expose-gc), else they are not given.
import { pino } from 'pino';
import {
  callsSent,
  type ChargerInput,
  type ChargerModel,
  type StageEvent,
} from '../../actors/charger/charger-ports.ts';
import type { CallOutcome } from '../../protocols/ocpp/index.ts';
import {
  createChargerRuntime,
  type CallMeter,
  type ChargerActor,
} from '../../engine/charger/charger-runtime.ts';
import { CsmsMeasurements } from '../../engine/metrics/csms-measurements.ts';
import type { ChargerConnectionSettings } from '../../engine/charger/charger-link.ts';
import { startReferenceCsms } from '../reference-csms/reference-csms.ts';
import { startStandaloneMessageLog } from '../../engine/message-log/standalone.ts';
import { randomUUID } from 'node:crypto';
import { LoadMetrics, startSampler, type Sample } from './metrics.ts';
import { versionAt, type LoadtestOptions } from './options.ts';
import { loadtestTrafficConfig, startLocalTraffic, type LocalTraffic } from './traffic.ts';

export const LOADTEST_MODEL: ChargerModel = {
  boot_vendor: 'EVSim',
  boot_model: 'LoadTest-AC-22',
  firmware_version: '1.0.0',
  connector_count: 2,
  max_power_kw: 22,
  current_type: 'AC',
};

/** Identities are a prefix and a fixed-width number, so the number is the charger's index. */
const PREFIX = 'LT';
export const identityOf = (i: number) => PREFIX + String(i).padStart(6, '0');
export const indexOf = (identity: string) => Number(identity.slice(PREFIX.length));

export type { LocalRunResult, MemoryReading, PhaseMarks, TrafficFigures } from './run-result.ts';
import type { LocalRunResult, MemoryReading, PhaseMarks, TrafficFigures } from './run-result.ts';

export interface LocalRunHooks {
  csmsUrl: string;
  /** Called once a second with the latest sample. */
  onSample?: (sample: Sample) => void;
  /** --nodes: this process runs the chargers from this index of the fleet on (default 0). */
  firstIndex?: number;
  /** --nodes: awaited after the warm-up and baseline, so every node starts its clock together. */
  ready?: () => Promise<void>;
  /** --nodes: also told every stage event, answered call and schema error (to the coordinator). */
  observer?: ChargerObserver;
}

export interface ChargerObserver {
  onStage(e: StageEvent): void;
  onCall(action: string, ms: number, outcome: CallOutcome): void;
  onSchemaError(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CALLs the chargers sent, quiet ones too. */
const sentBy = (actors: readonly (ChargerActor | undefined)[]): number =>
  actors.reduce((n, a) => n + (a ? callsSent(a.getSnapshot().context) : 0), 0);
const gc = (globalThis as { gc?: () => void }).gc;

/** Memory after full GCs; null when the process was started without --expose-gc. */
async function settledMemory(): Promise<MemoryReading | null> {
  if (!gc) return null;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

/** Warm-up chargers: enough to load every code path of an idle charger of both versions. */
export const WARMUP_CHARGERS = 20;

/**
 * Runs the warm-up chargers against a reference central system in this process until they are
 * online and idle, then stops them and the central system: what stays is what any number of
 * chargers shares (modules, compiled schemas, pools), which the baseline then includes.
 */
async function warmUp(
  runtime: ReturnType<typeof createChargerRuntime>,
  options: LoadtestOptions,
  answered: () => number,
): Promise<void> {
  const csms = await startReferenceCsms({ heartbeatSec: options.heartbeatSec });
  const actors: ChargerActor[] = [];
  try {
    for (let i = 0; i < WARMUP_CHARGERS; i++) {
      const actor = runtime.create({
        identity: `WARMUP${String(i).padStart(4, '0')}`,
        version: versionOf(options, i),
        model: LOADTEST_MODEL,
        url: csms.url,
      });
      actor.start();
      actor.send({ type: 'DEPLOY' });
      actors.push(actor);
    }
    const deadline = performance.now() + 30_000;
    const idle = () =>
      actors.every((a) => a.getSnapshot().context.stage === 'online') && answered() >= sentBy(actors);
    while (!idle() && performance.now() < deadline) await sleep(50);
  } finally {
    for (const actor of actors) actor.stop();
    await csms.close();
  }
}

function versionOf(options: LoadtestOptions, i: number): ChargerInput['version'] {
  return versionAt(options.ocpp, i);
}

/** Indexes of the charging chargers: spread evenly over the fleet (and so over both versions). */
export function chargingIndexes(chargers: number, share: number): number[] {
  const count = Math.round(chargers * share);
  const out: number[] = [];
  for (let k = 0; k < count; k++) out.push(Math.floor((k * chargers) / count));
  return out;
}

export async function runLocal(options: LoadtestOptions, hooks: LocalRunHooks): Promise<LocalRunResult> {
  const N = options.chargers;
  const first = hooks.firstIndex ?? 0;
  const metrics = new LoadMetrics(N, first === 0 ? indexOf : (identity) => indexOf(identity) - first);
  const observer = hooks.observer;
  const onStage = observer
    ? (e: StageEvent) => {
        metrics.onStage(e);
        observer.onStage(e);
      }
    : metrics.onStage;
  const addresses = options.localAddresses.map((localAddress) => ({ localAddress }));
  const connectionSettings =
    addresses.length > 0
      ? (identity: string): ChargerConnectionSettings => addresses[indexOf(identity) % addresses.length]
      : undefined;
  // The warm-up's calls and schema errors are not the run's.
  let measuring = false;
  let answered = 0;
  const log = pino({ level: 'warn' });
  // Log on: every frame captured and written behind to PostgreSQL, as the service does it.
  const ocppLog = options.databaseUrl ? await startStandaloneMessageLog(options.databaseUrl, log) : null;
  const onCallAnswered = (action: string, ms: number, outcome: CallOutcome): void => {
    answered++;
    if (!measuring) return;
    metrics.onCall(action, ms, outcome);
    observer?.onCall(action, ms, outcome);
  };
  // --measurements on: the service's measurements of the central system as well (engine/metrics),
  // one meter per version as the engine shares one per organization, location and version.
  const measurements = options.measurements === 'on' ? new CsmsMeasurements() : undefined;
  const meters = new Map<string, CallMeter>();
  const meterOf = (version: string): CallMeter => {
    let meter = meters.get(version);
    if (meter) return meter;
    const engine = measurements!.meter('loadtest', null, version);
    meter = {
      onCallAnswered: (action, ms, outcome, answer) => {
        onCallAnswered(action, ms, outcome);
        engine.onCallAnswered!(action, ms, outcome, answer);
      },
      onCallReplied: engine.onCallReplied,
    };
    meters.set(version, meter);
    return meter;
  };
  const runtime = createChargerRuntime({
    log,
    defaultCsmsUrl: () => hooks.csmsUrl,
    connectionSettings,
    onCallAnswered,
    ...(measurements && { meter: (_identity: string, version: string) => meterOf(version) }),
    onSchemaError: () => {
      if (!measuring) return;
      metrics.onSchemaError();
      observer?.onSchemaError();
    },
    frameObserver: ocppLog
      ? (_identity, key) => (key === undefined ? undefined : ocppLog.messageLog.observer(key))
      : undefined,
  });
  // One config object for all: the machine copies what differs from its defaults.
  const config = {
    HeartbeatInterval: String(options.heartbeatSec),
    MeterValueSampleInterval: String(options.meterIntervalSec),
    ...(options.measurands ? { MeterValuesSampledData: options.measurands } : {}),
  };
  const actors: ChargerActor[] = new Array(N);
  await warmUp(runtime, options, () => answered);
  const warmUpAnswered = answered;
  const baseline = await settledMemory();
  await hooks.ready?.();
  measuring = true;
  metrics.restart();
  let peakRss = process.memoryUsage().rss;
  const cpuAtStart = process.cpuUsage();

  // Every 100 ms until every charger came online, then every second.
  let fast = true;
  const sampler = startSampler(
    metrics,
    () => fast,
    (sample) => {
      if (sample.rss > peakRss) peakRss = sample.rss;
      hooks.onSample?.(sample);
    },
  );

  const deploy = (i: number) => {
    const actor = runtime.create(
      {
        identity: identityOf(first + i),
        version: versionOf(options, first + i),
        model: LOADTEST_MODEL,
        config,
      },
      ocppLog ? randomUUID() : undefined,
    );
    actor.on('stage', onStage);
    actor.start();
    actor.send({ type: 'DEPLOY' });
    actors[i] = actor;
  };

  const endAt = options.durationSec;
  const marks: PhaseMarks = {
    allOnline: null,
    idleMeasuredAt: null,
    sessionsStartedAt: null,
    steadyFrom: null,
    endAt,
  };
  const remaining = () => (endAt - metrics.now()) * 1000;

  // Deploy: unlimited = as fast as the event loop takes them (yielding every chunk so sockets
  // opened earlier make progress); otherwise a tick every 100 ms deploys what the ramp allows.
  let next = 0;
  if (options.ramp === 0) {
    const CHUNK = 250;
    while (next < N) {
      const end = Math.min(N, next + CHUNK);
      for (; next < end; next++) deploy(next);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } else {
    const t0 = metrics.now();
    while (next < N && remaining() > 0) {
      const due = Math.min(N, Math.floor((metrics.now() - t0) * options.ramp) + 1);
      for (; next < due; next++) deploy(next);
      if (next < N) await sleep(100);
    }
  }

  // All online (or out of time): note when, let the boot traffic drain, read idle memory.
  while (metrics.online < next && remaining() > 0) await sleep(50);
  fast = false;
  if (metrics.everOnline === N) marks.allOnline = metrics.timeToOnline(1);
  const quiet = async () => {
    // Idle = every CALL answered (StatusNotifications after boot), or none answered for a second:
    // a dropped connection's CALLs are never answered.
    let seen = answered;
    let stillFor = 0;
    while (remaining() > 0 && answered - warmUpAnswered < sentBy(actors) && stillFor < 1000) {
      await sleep(100);
      stillFor = answered === seen ? stillFor + 100 : 0;
      seen = answered;
    }
  };
  await quiet();
  let idle: MemoryReading | null = null;
  if (remaining() > 0 && metrics.online === N) {
    idle = await settledMemory();
    if (idle) marks.idleMeasuredAt = metrics.now();
  }

  // Sessions, spread over one meter interval (at most 30 s) so meter values do not come in waves;
  // or generated traffic, whose sessions in progress plug in during its first minute.
  let traffic: LocalTraffic | null = null;
  const trafficConfig =
    options.traffic === undefined
      ? null
      : loadtestTrafficConfig(options.traffic, options.chargingShare, LOADTEST_MODEL.connector_count);
  if (trafficConfig && remaining() > 0) {
    marks.sessionsStartedAt = metrics.now();
    const identities = Array.from({ length: next }, (_, i) => identityOf(first + i));
    traffic = startLocalTraffic(trafficConfig, actors, identities, LOADTEST_MODEL.connector_count, first);
    await sleep(Math.min(60_000, Math.max(0, remaining())));
  }
  const charging = trafficConfig ? [] : chargingIndexes(next, options.chargingShare);
  const spreadMs = Math.min(options.meterIntervalSec, 30) * 1000;
  if (charging.length > 0 && remaining() > 0) {
    marks.sessionsStartedAt = metrics.now();
    const perTick = Math.max(1, Math.ceil(charging.length / (spreadMs / 100)));
    for (let k = 0; k < charging.length && remaining() > 0; k += perTick) {
      for (const i of charging.slice(k, k + perTick)) {
        actors[i].send({ type: 'PLUG_IN', connectorId: 1 });
        actors[i].send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'LOADTEST' });
      }
      await sleep(100);
    }
  }
  // Steady state: a few seconds after the last session started, until the end.
  await sleep(Math.min(5000, Math.max(0, remaining())));
  let steadyCpuStart: NodeJS.CpuUsage | null = null;
  let activeAtSteady: number | null = null;
  if (remaining() > 0) {
    marks.steadyFrom = metrics.now();
    steadyCpuStart = process.cpuUsage();
    activeAtSteady = traffic?.status().sessions_active ?? null;
  }
  const steadyStartedAt = performance.now();
  if (remaining() > 0) await sleep(remaining());
  const steadyCpu = steadyCpuStart
    ? cpuPercent(process.cpuUsage(steadyCpuStart), performance.now() - steadyStartedAt)
    : null;

  // End the sessions (EV unplugged: StopTransaction / TransactionEvent Ended) and wait until the
  // chargers delivered them, so the central system's ledger can be compared.
  let sessions = 0;
  for (const i of charging) {
    const actor = actors[i];
    if (actor?.getSnapshot().context.connectors[0]?.tx) sessions++;
    actor?.send({ type: 'UNPLUG', connectorId: 1 });
  }
  let trafficFigures: TrafficFigures | null = null;
  if (traffic && trafficConfig) {
    const status = traffic.status();
    await traffic.run.stop();
    sessions = traffic.sessions();
    trafficFigures = {
      seed: trafficConfig.seed,
      arrivalsPerHour: trafficConfig.arrivals_per_hour[0],
      sessionsStarted: status.sessions_started,
      activeAtSteady,
      activeAtEnd: status.sessions_active,
      faults: status.faults,
      drops: status.drops,
      commandsFailed: status.commands_failed,
    };
  }
  // With traffic any charger may have had a session: all are waited for.
  const ended = traffic ? actors.map((_, i) => i) : charging;
  const stopDeadline = performance.now() + 30_000;
  const undelivered = () =>
    ended.filter((i) => {
      const ctx = actors[i]?.getSnapshot().context;
      return ctx && (ctx.outbox.length > 0 || ctx.connectors.some((c) => c.tx));
    }).length;
  while (undelivered() > 0 && performance.now() < stopDeadline) await sleep(100);
  const sessionsStopped = sessions - undelivered();

  sampler.stop();
  const totalCpu = cpuPercent(process.cpuUsage(cpuAtStart), metrics.now() * 1000);
  for (const actor of actors) actor?.stop();
  let logged: number | null = null;
  if (ocppLog) {
    await ocppLog.messageLog.flush();
    logged = await ocppLog.rows();
    await ocppLog.close();
  }
  return {
    metrics,
    marks,
    baseline,
    idle,
    warmupChargers: WARMUP_CHARGERS,
    peakRss,
    sessions,
    sessionsStopped,
    steadyCpu,
    totalCpu,
    ocppLogFrames: logged,
    traffic: trafficFigures,
  };
}

const cpuPercent = (usage: NodeJS.CpuUsage, wallMs: number) =>
  Math.round(((usage.user + usage.system) / 1000 / Math.max(1, wallMs)) * 1000) / 10;
