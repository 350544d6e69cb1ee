// A blackout of a whole fleet against the reference central system (its own process): N chargers
// of this process come online, then a chaos run (engine/chaos) cuts the power of a share of them
// for --duration seconds. When it is back they boot as after a power cut: every one at once,
// backing off when a connection fails. Reports the time to the last one back online and
// accepted, the busiest second of connections, the spread of the chargers' times back, and the
// RSS and CPU of this process (the chargers) and of the central system during the storm.
//
//   npm run bench -- chaos-blackout [--chargers 10000] [--share 1] [--duration 10] [--spread 0] [--seed 1]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createChargerRuntime, type ChargerActor } from '../../engine/charger/charger-runtime.ts';
import { startLocalChaos } from '../../engine/chaos/local-chaos.ts';
import type { ChaosRun } from '../../engine/chaos/chaos-run.ts';
import { spawnCsmsProcess } from '../reference-csms/csms-process.ts';
import { cpuPercentBetween, readProcess, type ProcessReading } from '../loadtest/process-stats.ts';
import { LOADTEST_MODEL } from '../loadtest/run-local.ts';

const { values } = parseArgs({
  options: {
    chargers: { type: 'string', default: '10000' },
    share: { type: 'string', default: '1' },
    duration: { type: 'string', default: '10' },
    spread: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
  },
});
const N = Number(values.chargers);
if (!Number.isInteger(N) || N < 1 || N > 20_000) throw new Error('--chargers is 1..20000');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round(bytes / 1048576);

const csms = await spawnCsmsProcess({});
const runtime = createChargerRuntime({
  log: pino({ level: 'warn' }),
  defaultCsmsUrl: () => csms.url,
  // Spread over loopback addresses, as the load test does: 2 x N sockets outlive one address's ports.
  connectionSettings: (identity) => ({ localAddress: `127.0.0.${1 + (Number(identity.slice(2)) % 8)}` }),
});
const actors: ChargerActor[] = [];
let online = 0;
try {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const actor = runtime.create({
      identity: `BO${String(i).padStart(6, '0')}`,
      version: i % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1',
      model: LOADTEST_MODEL,
    });
    actor.on('stage', (e) => {
      if (e.stage === 'online') online++;
    });
    actor.start();
    actor.send({ type: 'DEPLOY' });
    actors.push(actor);
    if (i % 250 === 249) await new Promise((r) => setImmediate(r));
  }
  while (online < N) {
    if (performance.now() - t0 > 600_000) throw new Error(`only ${online} of ${N} online after 10 minutes`);
    await sleep(200);
  }
  console.log(`${N} chargers online in ${((performance.now() - t0) / 1000).toFixed(1)} s; settling 5 s`);
  await sleep(5_000);

  // The storm: sampled every second from the power cut to the last charger back.
  const self = () => readProcess(process.pid)!;
  const other = () => readProcess(csms.pid);
  // `t`: ms since the power cut. A starved event loop samples less often; each sample covers its own wall time.
  const samples: Array<{ t: number; rss: number; cpu: number; csmsRss: number; csmsCpu: number }> = [];
  const cut = performance.now();
  let last: { at: number; self: ProcessReading; csms: ProcessReading | null } = {
    at: performance.now(),
    self: self(),
    csms: other(),
  };
  const sampler = setInterval(() => {
    const now = { at: performance.now(), self: self(), csms: other() };
    const wall = now.at - last.at;
    samples.push({
      t: now.at - cut,
      rss: now.self.rss,
      cpu: cpuPercentBetween(last.self, now.self, wall),
      csmsRss: now.csms?.rss ?? 0,
      csmsCpu: last.csms && now.csms ? cpuPercentBetween(last.csms, now.csms, wall) : 0,
    });
    last = now;
  }, 1000);
  const config = {
    profile: 'blackout' as const,
    share: Number(values.share),
    duration_s: Number(values.duration),
    spread_s: Number(values.spread),
    seed: Number(values.seed),
    settle_s: 600,
  };
  const run = await new Promise<ChaosRun>((resolve) => startLocalChaos(config, runtime, actors, resolve));
  clearInterval(sampler);
  const r = run.report();
  // From the power's return (the run's first restore) to the last charger back.
  const back = (r.last_back_at_s ?? 0) * 1000 - (r.all_back_s ?? 0) * 1000;
  const after = samples.filter((s) => s.t >= back);
  const storm = after.length > 0 ? after : samples;
  type Key = 'rss' | 'cpu' | 'csmsRss' | 'csmsCpu';
  const peak = (k: Key) => Math.max(0, ...storm.map((s) => s[k]));
  const mean = (k: Key) => Math.round(storm.reduce((a, s) => a + s[k], 0) / Math.max(1, storm.length));
  console.log(
    JSON.stringify(
      {
        chargers: N,
        ...config,
        status: run.status,
        affected: r.affected,
        back: r.back,
        all_back: r.all_back,
        power_back_at_s: Math.round(back) / 1000,
        time_to_last_back_s: r.all_back_s,
        last_back_at_s: r.last_back_at_s,
        back_s: r.back_s,
        busiest_second: r.busiest_second,
        connections: r.connections,
        connect_failures: r.connect_failures,
        boot_answers: r.boot_answers,
        late_answers: r.late_answers,
        callerrors: r.callerrors,
        chargers_rss_mb_peak: mb(peak('rss')),
        chargers_cpu_pct_mean: mean('cpu'),
        chargers_cpu_pct_peak: peak('cpu'),
        csms_rss_mb_peak: mb(peak('csmsRss')),
        csms_cpu_pct_mean: mean('csmsCpu'),
        storm_samples: storm.length,
        load_average: loadavg().map((l) => Math.round(l * 100) / 100),
      },
      null,
      2,
    ),
  );
} finally {
  for (const a of actors) a.stop();
  await csms.close();
}
