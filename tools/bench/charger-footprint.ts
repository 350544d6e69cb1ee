// How much one virtual charger costs: N chargers through the real runtime (WebSocket + RPC +
// machine) against a reference central system on loopback; heap and RSS per idle online charger,
// time to all online, then heap per charging charger with sessions on a share of them.
//
//   npm run bench -- charger-footprint [--chargers 2000] [--version ocpp1.6|ocpp2.0.1|ocpp2.1] [--charging 0.2] [--batch 500] [--measurements]
//   (--measurements: the chargers' calls measured as the engine does, engine/metrics)
//   (runs: node --expose-gc --import tsx tools/bench/charger-footprint.ts ...)
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import {
  createChargerRuntime,
  type CallMeter,
  type ChargerActor,
} from '../../engine/charger/charger-runtime.ts';
import { callsSent } from '../../actors/charger/charger-ports.ts';
import { OCPP_VERSIONS, isOcppVersion } from '../../protocols/ocpp/versions.ts';
import { spawnReferenceCsms } from './support/reference-csms-worker.ts';
import { CsmsMeasurements } from '../../engine/metrics/csms-measurements.ts';

const { values } = parseArgs({
  options: {
    chargers: { type: 'string', default: '2000' },
    version: { type: 'string', default: 'ocpp1.6' },
    charging: { type: 'string', default: '0.2' },
    batch: { type: 'string', default: '500' },
    measurements: { type: 'boolean', default: false },
  },
});
const N = Number(values.chargers);
const version = values.version;
const chargingShare = Number(values.charging);
const batchSize = Number(values.batch);
if (!Number.isInteger(N) || N < 1) throw new Error('--chargers must be a positive integer');
if (!isOcppVersion(version)) throw new Error(`--version is one of ${OCPP_VERSIONS.join(', ')}`);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');

const MODEL = {
  boot_vendor: 'EVSim',
  boot_model: 'AC-22-Twin',
  firmware_version: '1.2.3',
  connector_count: 2,
  max_power_kw: 22,
  current_type: 'AC' as const,
};

async function settle(): Promise<{ heap: number; rss: number }> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

/** Resolves when `done()` holds, checked after each of the chargers' changes reported via `kick`. */
function until(
  done: () => boolean,
  label: string,
  timeoutMs = 120_000,
): { promise: Promise<void>; kick: () => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  const timer = setTimeout(() => reject(new Error(`timed out waiting for ${label}`)), timeoutMs);
  const kick = () => {
    if (done()) {
      clearTimeout(timer);
      resolve();
    }
  };
  return { promise, kick };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const csms = await spawnReferenceCsms();
let answered = 0;
const measurements = values.measurements ? new CsmsMeasurements() : undefined;
const meter = measurements?.meter('bench', null, version);
// As the engine does: one meter shared by the chargers of one organization, location and version
// (counting the answers as the bench does without it).
const counted: CallMeter | undefined = meter && {
  onCallAnswered: (action, ms, outcome, answer) => {
    answered++;
    meter.onCallAnswered!(action, ms, outcome, answer);
  },
  onCallReplied: meter.onCallReplied,
};
const runtime = createChargerRuntime({
  log: pino({ level: 'warn' }),
  defaultCsmsUrl: () => csms.url,
  onCallAnswered: () => answered++,
  ...(counted && { meter: () => counted }),
});
const cpu0 = process.cpuUsage();
/** Every CALL the chargers sent is answered (a machine counts each, quiet ones too). */
const allAnswered = () => answered >= actors.reduce((n, a) => n + callsSent(a.getSnapshot().context), 0);
const actors: ChargerActor[] = [];
const base = await settle();

// Deploy in batches: all at once works too, but batches keep the connect storm realistic.
let online = 0;
let kick = () => {};
const t0 = performance.now();
for (let start = 0; start < N; start += batchSize) {
  const end = Math.min(N, start + batchSize);
  const batch = until(() => online >= end, `chargers ${start}..${end} online`);
  kick = batch.kick;
  for (let i = start; i < end; i++) {
    const actor = runtime.create({ identity: `BENCH-${String(i).padStart(6, '0')}`, version, model: MODEL });
    actor.on('stage', (e) => {
      if (e.stage === 'online' && e.outcome === 'succeeded') {
        online++;
        kick();
      }
    });
    actor.start();
    actor.send({ type: 'DEPLOY' });
    actors.push(actor);
  }
  await batch.promise;
}
const onlineSec = (performance.now() - t0) / 1000;

// Idle: every charger answered (StatusNotifications after boot delivered).
const idleDone = until(allAnswered, 'idle');
const idleTimer = setInterval(idleDone.kick, 50);
await idleDone.promise;
clearInterval(idleTimer);
const idle = await settle();
const idleSnapshot = JSON.stringify(actors[0].getPersistedSnapshot()).length;

// Sessions on a share of them: plug in, present a token (Authorize at the CSMS), charge.
const M = Math.max(1, Math.round(N * chargingShare));
const charging = actors.slice(0, M);
for (const actor of charging) {
  actor.send({ type: 'PLUG_IN', connectorId: 1 });
  actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'BENCH-TAG' });
}
const chargingDone = until(
  () =>
    charging.every((a) => {
      const ctx = a.getSnapshot().context;
      return (
        ctx.connectors[0].status === 'Charging' &&
        ctx.outbox.length === 0 &&
        Object.keys(ctx.calls).length === 0
      );
    }) && allAnswered(),
  'sessions started',
);
const chargingTimer = setInterval(chargingDone.kick, 50);
await chargingDone.promise;
clearInterval(chargingTimer);
const busy = await settle();
const chargingSnapshot = JSON.stringify(charging[0].getPersistedSnapshot()).length;
const stats = await csms.stats();
const cpuUsed = process.cpuUsage(cpu0);

const idleHeap = (idle.heap - base.heap) / N;
const idleRss = (idle.rss - base.rss) / N;
const extraHeap = (busy.heap - idle.heap) / M;
const extraRss = (busy.rss - idle.rss) / M;
const cpu = cpus()[0]?.model ?? 'unknown CPU';

console.log(`\ncharger-footprint: ${N} chargers (${version}), ${M} charging`);
console.log(`node ${process.version}, ${availableParallelism()} cores (${cpu})`);
console.log('');
console.log('| measure                          | heap        | RSS         |');
console.log('|----------------------------------|-------------|-------------|');
console.log(
  `| per idle online charger          | ${kb(idleHeap).padStart(7)} KB  | ${kb(idleRss).padStart(7)} KB  |`,
);
console.log(
  `| per charging charger             | ${kb(idleHeap + extraHeap).padStart(7)} KB  | ${kb(idleRss + extraRss).padStart(7)} KB  |`,
);
console.log(
  `| of which the session            | ${kb(extraHeap).padStart(7)} KB  | ${kb(extraRss).padStart(7)} KB  |`,
);
console.log('');
console.log(
  `time to all online: ${onlineSec.toFixed(2)} s (${Math.round(N / onlineSec)} chargers/s, batches of ${batchSize})`,
);
console.log(
  `CPU (whole process, both sides): ${((cpuUsed.user + cpuUsed.system) / 1e6).toFixed(2)} s; ` +
    `measurements ${measurements ? `on (${measurements.figures().series.length} series)` : 'off'}`,
);
console.log(`persisted snapshot: ${idleSnapshot} B idle, ${chargingSnapshot} B charging`);
console.log(
  `central system saw: ${stats.calls.BootNotification ?? 0} BootNotification, ` +
    `${stats.calls.StatusNotification ?? 0} StatusNotification, ${stats.schemaErrors} schema errors`,
);
console.log(
  'heap = main thread only (the central system runs in a worker); RSS = whole process, both sides of each socket',
);

for (const actor of actors) actor.stop();
await csms.close();
process.exit(stats.schemaErrors === 0 ? 0 : 1);
