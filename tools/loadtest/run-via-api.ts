// --via-api: the chargers run inside the service, deployed through its API, so the whole product
// is what is measured. Locations of up to 1000 chargers go to POST /evcharger/location (E7) at the
// ramp. While they boot, the fleet summary's counts are read once a second (the live view); every
// charger's stage comes from GET /evcharger/deployments only when the count says all are online,
// or every LIST_EVERY_SEC seconds for failures and stragglers (read whole every second, the lists
// were the load test's own load on the service: ~5 % of its CPU in a 10,000-charger boot). Once
// all were online, the list is read again only if the count drops. At the end the locations are
// deleted (E8). Round trips are not visible from here (they happen inside the service); the
// central system's counts are, when it is the reference one. The service's own RSS and CPU are
// read from /proc by its pid (--service-pid, or the process listening on the API's port here).
// With --traffic the sessions come from the service's generated traffic (via-api-traffic.ts), and
// the transactions they carried from the reference central system's ledger.
import { LoadMetrics, type Sample } from './metrics.ts';
import { versionAt, type LoadtestOptions } from './options.ts';
import { identityOf, indexOf, type LocalRunResult, type PhaseMarks } from './run-local.ts';
import type { Stage, StageOutcome } from '../../actors/charger/charger-ports.ts';
import { cpuPercentBetween, findListenerPid, readProcess, type ProcessReading } from './process-stats.ts';
import { firstCatalogModel, serviceApi } from './service-api.ts';
import type { ReferenceCsmsStats } from '../reference-csms/reference-csms.ts';
import { startApiTraffic, type ApiTraffic } from './via-api-traffic.ts';
import type { TrafficFigures } from './run-result.ts';

const LOCATION_MAX = 1000;
const PAGE = 500;
const LIST_EVERY_SEC = 5;

interface DeploymentItem {
  identity: string;
  updated_at: string;
  stage: Stage;
  outcome: StageOutcome;
}

export interface ViaApiHooks {
  csmsUrl: string;
  onSample?: (sample: Sample) => void;
  fetch?: typeof fetch;
  /** The reference central system's counts (its transaction ledger), when it is the one in use. */
  csmsStats?: () => Promise<ReferenceCsmsStats>;
}

export async function runViaApi(options: LoadtestOptions, hooks: ViaApiHooks): Promise<LocalRunResult> {
  const base = options.viaApi!;
  const call = serviceApi(base, options.token, hooks.fetch);
  const { brand, model, connectors } = await firstCatalogModel(call);

  const N = options.chargers;
  const metrics = new LoadMetrics(N, indexOf);
  const pid = options.servicePid ?? localListenerPid(base);
  const service = () => (pid === null ? null : readProcess(pid));
  if (pid !== null) metrics.source = () => (service() ? { ...service()!, heapUsed: 0 } : null);
  const before = service();
  metrics.restart();
  const wallStart = Date.now() - metrics.now() * 1000;
  const sameClock = pid !== null;
  let peakRss = before?.rss ?? 0;
  const marks: PhaseMarks = {
    allOnline: null,
    idleMeasuredAt: null,
    sessionsStartedAt: null,
    steadyFrom: null,
    endAt: options.durationSec,
  };
  const locations: string[] = [];
  /** How long each E7 call took to answer, while the chargers posted before it boot. */
  const e7: Array<{ seconds: number; chargers: number }> = [];
  const seen = new Map<string, string>(); // identity -> stage/outcome last reported
  // A location whose chargers were all seen online is not read again while the others boot.
  const settled = new Set<string>();
  const sizes = new Map<string, number>(); // location -> chargers posted to it
  const poll = async () => {
    for (const location of [...locations]) {
      if (settled.has(location) && metrics.everOnline < N) continue;
      let offset: number | null = 0;
      let online = 0;
      while (offset !== null) {
        const page = (await call(
          'GET',
          `/evcharger/deployments?location_id=${encodeURIComponent(location)}&limit=${PAGE}&offset=${offset}`,
        )) as { items: DeploymentItem[]; next_offset: number | null };
        for (const item of page.items) {
          if (item.stage === 'online') online++;
          const key = `${item.stage}/${item.outcome}`;
          if (seen.get(item.identity) === key) continue;
          seen.set(item.identity, key);
          // On this machine the service's clock is ours: its record of the change (updated_at, the
          // time of the charger's newest stage event) times the stage, not this poll.
          const at = sameClock ? (Date.parse(item.updated_at) - wallStart) / 1000 : undefined;
          metrics.onStage({ ...item, attempt: 1, at: new Date().toISOString() }, at);
        }
        offset = page.next_offset;
      }
      if (online === sizes.get(location)) settled.add(location);
      else settled.delete(location);
    }
  };
  // The summary counts the organization's whole fleet: what was there before the run is taken off.
  const summary = async () =>
    ((await call('GET', '/evcharger/fleet/summary')) as { stages: Partial<Record<Stage, number>> }).stages;
  const already = await summary();
  metrics.liveStages = { not_deployed: N };
  let listedAt = 0;
  const follow = async () => {
    const counted: Partial<Record<Stage, number>> = {};
    let deployed = 0;
    for (const [stage, n] of Object.entries(await summary()) as Array<[Stage, number]>) {
      const ours = Math.max(0, n - (already[stage] ?? 0));
      if (ours > 0) counted[stage] = ours;
      deployed += ours;
    }
    // Not posted yet counts as not deployed, like a posted row whose charger has not started.
    if (deployed < N) counted.not_deployed = (counted.not_deployed ?? 0) + N - deployed;
    metrics.liveStages = counted;
    const online = counted.online ?? 0;
    if (metrics.everOnline < N) {
      if (online < N && metrics.now() - listedAt < LIST_EVERY_SEC) return;
      listedAt = metrics.now();
      await poll();
    } else if (online < metrics.online) await poll();
  };
  let polling = Promise.resolve();
  const ticker = setInterval(() => {
    polling = polling
      .then(follow)
      .catch((error: Error) => process.stderr.write(`poll failed: ${error.message}\n`))
      .then(() => {
        const sample = metrics.sample();
        if (sample.rss > peakRss) peakRss = sample.rss;
        hooks.onSample?.(sample);
      });
  }, 1000);
  const remaining = () => (options.durationSec - metrics.now()) * 1000;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

  const cpuAtStart = process.cpuUsage();
  const perSecond = options.ramp === 0 ? N : options.ramp;
  for (let next = 0, batch = 0; next < N && remaining() > 0; batch++) {
    const second = metrics.now();
    const end = Math.min(N, next + perSecond);
    for (; next < end;) {
      const upto = Math.min(end, next + LOCATION_MAX);
      const chargers = [];
      for (let i = next; i < upto; i++)
        chargers.push({
          identity: identityOf(i),
          brand_slug: brand,
          model,
          ws_url: hooks.csmsUrl,
          ocpp_version: versionAt(options.ocpp, i),
        });
      const posted = performance.now();
      const accepted = (await call('POST', '/evcharger/location', {
        name: `loadtest ${new Date().toISOString()} #${locations.length + 1}`,
        chargers,
      })) as { location_id: string };
      e7.push({ seconds: (performance.now() - posted) / 1000, chargers: chargers.length });
      locations.push(accepted.location_id);
      sizes.set(accepted.location_id, chargers.length);
      next = upto;
    }
    if (next < N) await sleep(1000 - (metrics.now() - second) * 1000);
  }
  while (metrics.everOnline < N && remaining() > 0) await sleep(200);
  if (metrics.everOnline === N) marks.allOnline = metrics.timeToOnline(1);
  // Idle: the boot traffic drained (a few seconds after the last charger came online).
  await sleep(Math.min(5000, Math.max(0, remaining())));
  let idle: ProcessReading | null = null;
  if (metrics.online === N && remaining() > 0) {
    idle = service();
    if (idle) marks.idleMeasuredAt = metrics.now();
  }
  // Generated traffic: the sessions in progress at its warm start plug in during its first minute.
  let traffic: ApiTraffic | null = null;
  if (options.traffic !== undefined && remaining() > 0) {
    marks.sessionsStartedAt = metrics.now();
    traffic = await startApiTraffic(call, locations, options.traffic, options.chargingShare, connectors);
    await sleep(Math.min(65_000, remaining()));
  }
  let steadyFrom: { reading: ProcessReading | null; at: number } | null = null;
  let activeAtSteady: number | null = null;
  if (remaining() > 0) {
    marks.steadyFrom = metrics.now();
    steadyFrom = { reading: service(), at: performance.now() };
    activeAtSteady = traffic && (await traffic.active());
    await sleep(remaining());
  }
  const end = service();
  clearInterval(ticker);
  await polling;
  // The EVs leave; the chargers' stops reach the central system before the locations go.
  const trafficFigures: TrafficFigures | null = traffic && (await traffic.stop(activeAtSteady));
  const ledger = traffic && hooks.csmsStats ? await stopsDelivered(hooks.csmsStats) : null;
  for (const location of locations)
    await call('DELETE', `/evcharger/location?location_id=${encodeURIComponent(location)}`);
  process.stdout.write(`${describeE7(e7)}\n`);
  const ownCpu = process.cpuUsage(cpuAtStart);
  const wallMs = metrics.now() * 1000;
  const totalCpu =
    before && end
      ? cpuPercentBetween(before, end, wallMs)
      : Math.round(((ownCpu.user + ownCpu.system) / 1000 / wallMs) * 1000) / 10;
  const steadyCpu =
    steadyFrom?.reading && end
      ? cpuPercentBetween(steadyFrom.reading, end, performance.now() - steadyFrom.at)
      : null;
  return {
    metrics,
    marks,
    baseline: before ? { rss: before.rss, heapUsed: 0 } : null,
    idle: idle ? { rss: idle.rss, heapUsed: 0 } : null,
    warmupChargers: 0,
    peakRss,
    endRss: end?.rss ?? null,
    // Without a ledger (--csms) the sessions the chargers carried are not visible from here.
    sessions: ledger?.started ?? 0,
    sessionsStopped: ledger ? ledger.started - ledger.open : 0,
    steadyCpu,
    totalCpu,
    servicePid: pid,
    traffic: trafficFigures,
  };
}

/** The ledger once no transaction is open at the central system, or after 30 s. */
async function stopsDelivered(stats: () => Promise<ReferenceCsmsStats>) {
  const deadline = performance.now() + 30_000;
  let tx = (await stats()).transactions;
  while (tx.open > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    tx = (await stats()).transactions;
  }
  return tx;
}

/** The pid of the service when its API listens on this machine; null otherwise. */
function localListenerPid(base: string): number | null {
  const url = new URL(base);
  if (!['localhost', '127.0.0.1', '[::1]', '0.0.0.0'].includes(url.hostname)) return null;
  return findListenerPid(Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
}

/** `E7 answered 10 calls of up to 1000 chargers: median 0.21 s, max 0.48 s (0.05 0.31 ...)`. */
export function describeE7(calls: Array<{ seconds: number; chargers: number }>): string {
  if (calls.length === 0) return 'E7: no call';
  const sorted = calls.map((c) => c.seconds).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const most = Math.max(...calls.map((c) => c.chargers));
  const each = calls.map((c) => c.seconds.toFixed(2)).join(' ');
  return `E7 answered ${calls.length} calls of up to ${most} chargers: median ${median.toFixed(2)} s, max ${sorted[sorted.length - 1].toFixed(2)} s (in order: ${each})`;
}
