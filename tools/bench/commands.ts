// Command throughput: one command to each charger of a 1,000-charger location, through the whole
// path (HTTP -> one INSERT -> one QoS 1 message per charger -> consumer -> charger actor -> outcome
// written back), on the embedded defaults (PGlite, aedes) in this process, chargers against the
// reference central system in a worker thread. Reports the 202 time, the time until every command
// is final, and p50/p99 of created_at -> completed_at. Target: all final within 5 s.
//
//   npm run bench -- commands [--chargers 1000] [--version ocpp1.6|ocpp2.0.1] [--rounds 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createLogger } from '../../engine/platform/log/logger.ts';
import { startService } from '../../api/server.ts';
import { spawnReferenceCsms } from './support/reference-csms-worker.ts';

const { values } = parseArgs({
  options: {
    chargers: { type: 'string', default: '1000' },
    version: { type: 'string', default: 'ocpp1.6' },
    rounds: { type: 'string', default: '3' },
  },
});
const N = Number(values.chargers);
const version = values.version;
const rounds = Number(values.rounds);
if (!Number.isInteger(N) || N < 1 || N > 1000) throw new Error('--chargers is 1..1000 (one location)');
// The versions the bench's catalog model (abb-a400) speaks: E7 answers any other with a failure.
if (version !== 'ocpp1.6' && version !== 'ocpp2.0.1') throw new Error('--version is ocpp1.6 or ocpp2.0.1');

const dataDir = mkdtempSync(join(tmpdir(), 'evsim-bench-'));
const csms = await spawnReferenceCsms();
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
const service = await startService(config, createLogger(config));
const token = await service.platform.tokens.sign!('org-bench');
const db = service.platform.db;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Queued }> {
  const res = await fetch(service.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Queued };
}

/** The parts of the answers this benchmark reads (E7's location_id, the queued command result). */
interface Queued {
  location_id: string;
  queued_count: number;
  results: { command: { id: string } }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

try {
  const t0 = performance.now();
  const location = await api('POST', '/evcharger/location', {
    name: 'bench site',
    address: 'Benchstraat 1',
    city: 'Utrecht',
    country: 'NLD',
    coordinates: { lat: 52.09, lng: 5.12 },
    timezone: 'Europe/Amsterdam',
    ocpp_version: version,
    ocpi_version: '2.2.1',
    chargers: Array.from({ length: N }, (_x, i) => ({
      identity: `BENCH-${String(i + 1).padStart(4, '0')}`,
      brand_slug: 'abb',
      model: 'abb-a400',
      connector_type: 'CCS2',
      ws_url: csms.url,
    })),
  });
  if (location.status !== 202)
    throw new Error(`E7 answered ${location.status}: ${JSON.stringify(location.body)}`);
  const locationId: string = location.body.location_id;
  for (;;) {
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM evc_deployments WHERE location_id = $1 AND stage = 'online'`,
      [locationId],
    );
    if (Number(rows[0].n) === N) break;
    if (performance.now() - t0 > 180_000)
      throw new Error(`only ${rows[0].n} of ${N} chargers online after 180 s`);
    await sleep(250);
  }
  console.log(`${N} ${version} chargers online in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const kinds: [string, string, unknown][] = [
    ['cache-reset (answered by the charger)', 'cache/reset', undefined],
    [
      'proxy-message Heartbeat (round trip to the CSMS)',
      'proxy-message',
      { action: 'Heartbeat', payload: {} },
    ],
  ];
  const results: {
    kind: string;
    round: number;
    accept: number;
    allFinal: number;
    p50: number;
    p99: number;
    ok: number;
  }[] = [];
  for (const [kind, path, payload] of kinds) {
    for (let round = 1; round <= rounds; round++) {
      const start = performance.now();
      const res = await api('POST', `/evcharger/commands/${path}`, {
        target: { location_id: locationId },
        ...(payload ? { payload } : {}),
      });
      const accept = performance.now() - start;
      if (res.status !== 202 || res.body.queued_count !== N)
        throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
      const ids: string[] = res.body.results.map((r) => r.command.id);
      let allFinal = 0;
      for (;;) {
        const { rows } = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM evc_commands WHERE id = ANY($1::uuid[])
             AND status IN ('completed', 'rejected', 'failed', 'timed_out', 'interrupted')`,
          [ids],
        );
        if (Number(rows[0].n) === N) {
          allFinal = performance.now() - start;
          break;
        }
        if (performance.now() - start > 60_000) throw new Error(`only ${rows[0].n} of ${N} final after 60 s`);
        await sleep(20);
      }
      const { rows } = await db.query<{ ms: number; status: string }>(
        `SELECT EXTRACT(EPOCH FROM (completed_at - created_at)) * 1000 AS ms, status
         FROM evc_commands WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      const ms = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
      const ok = rows.filter((r) => r.status === 'completed').length;
      results.push({ kind, round, accept, allFinal, p50: pct(ms, 0.5), p99: pct(ms, 0.99), ok });
      console.log(
        `${kind}, round ${round}: 202 in ${accept.toFixed(0)} ms, all ${N} final in ${allFinal.toFixed(0)} ms, ` +
          `latency p50 ${pct(ms, 0.5).toFixed(0)} ms, p99 ${pct(ms, 0.99).toFixed(0)} ms, completed ${ok}/${N}`,
      );
    }
  }
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; embedded PGlite + aedes`,
  );
  const worst = Math.max(...results.map((r) => r.allFinal));
  console.log(
    `slowest round: all final in ${worst.toFixed(0)} ms (target 5000 ms): ${worst <= 5000 ? 'met' : 'MISSED'}`,
  );
} finally {
  await service.close();
  await csms.close();
  rmSync(dataDir, { recursive: true, force: true });
}
