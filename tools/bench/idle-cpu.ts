// Idle CPU of the service: chargers (half 1.6, half 2.0.1) deployed with E7 against the reference
// central system (its own process), then nothing but their keep-alive pings (every 60 s; the
// heartbeat, 300 s, falls after the window). The service's CPU is read from /proc over a window
// starting 30 s after the last BootNotification, with no API call during it. The service runs as
// `npm start` runs it (compiled, its own process) on the embedded defaults (PGlite and aedes in
// its process), or on DATABASE_URL / MQTT_URL when set; --service-dir runs another checkout's
// build, to compare versions on the same machine.
//
//   npm run build && npm run bench -- idle-cpu [--chargers 10000] [--window 180] [--service-dir DIR]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { spawnCsmsProcess } from '../reference-csms/csms-process.ts';
import { cpuPercentBetween, readProcess } from '../loadtest/process-stats.ts';
import { firstCatalogModel, serviceApi } from '../loadtest/service-api.ts';

const { values } = parseArgs({
  options: {
    chargers: { type: 'string', default: '10000' },
    window: { type: 'string', default: '180' },
    'service-dir': { type: 'string', default: '.' },
    port: { type: 'string', default: '18090' },
  },
});
const N = Number(values.chargers);
const windowSec = Number(values.window);
if (!Number.isInteger(N) || N < 1 || N > 19_000) throw new Error('--chargers is 1..19000');
if (!Number.isFinite(windowSec) || windowSec < 10) throw new Error('--window is at least 10 (seconds)');
const serviceDir = resolve(values['service-dir']);
const base = `http://127.0.0.1:${values.port}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(join(tmpdir(), 'evsim-idle-'));
const secret = randomBytes(32).toString('hex');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: values.port,
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  AUTH_JWT_SECRET: secret,
};
const service = spawn(process.execPath, [join(serviceDir, 'dist/cli/start.js')], {
  env,
  cwd: serviceDir,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const csms = await spawnCsmsProcess({});
try {
  // A token as a user gets one (`npm run token`), signed with the secret the service was given.
  const token = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'cli/token.ts', '--org', 'org-idle-bench'],
    {
      env,
      encoding: 'utf8',
    },
  )
    .trim()
    .split('\n')
    .at(-1)!;
  const call = serviceApi(base, token);
  for (let i = 0; ; i++) {
    if (service.exitCode !== null) throw new Error(`the service exited (code ${service.exitCode})`);
    if (
      await fetch(`${base}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 240) throw new Error('the service did not become ready within 2 minutes');
    await sleep(500);
  }
  const { brand, model } = await firstCatalogModel(call);
  const started = Date.now();
  for (let from = 0; from < N; from += 1000) {
    const chargers = [];
    for (let i = from; i < Math.min(N, from + 1000); i++)
      chargers.push({
        identity: `IDLE${String(i).padStart(5, '0')}`,
        brand_slug: brand,
        model,
        ws_url: csms.url,
        ocpp_version: i % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1',
      });
    await call('POST', '/evcharger/location', { name: `idle bench ${from / 1000 + 1}`, chargers });
  }
  let boots = 0;
  while (boots < N) {
    if (Date.now() - started > 300_000) throw new Error(`only ${boots} of ${N} chargers booted in 5 minutes`);
    await sleep(1000);
    boots = (await csms.stats()).calls.BootNotification ?? 0;
  }
  const bootSec = (Date.now() - started) / 1000;
  await sleep(30_000);
  const from = readProcess(service.pid!);
  const t0 = performance.now();
  await sleep(windowSec * 1000);
  const to = readProcess(service.pid!);
  if (!from || !to) throw new Error('the service process could not be read from /proc');
  const calls = (await csms.stats()).calls;
  console.log(
    `idle CPU of the service (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded defaults'}, ` +
      `${N} chargers booted in ${bootSec.toFixed(1)} s): ${cpuPercentBetween(from, to, performance.now() - t0)} % ` +
      `of one core over ${windowSec} s; RSS ${Math.round(from.rss / 1048576)} -> ${Math.round(to.rss / 1048576)} MB; ` +
      `central system calls: ${JSON.stringify(calls)}`,
  );
} finally {
  service.kill('SIGTERM');
  await new Promise((r) => (service.exitCode !== null ? r(null) : service.once('exit', r)));
  await csms.close();
  rmSync(dataDir, { recursive: true, force: true });
}
