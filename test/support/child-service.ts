// The service as a child process (`node --import tsx cli/start.ts`), for the tests that kill it, run
// several nodes, or read its output. One way to spawn it, wait for it and stop it:
//
// - spawnService(env): one process on a free port picked first, ready once GET /health/ready is 200
//   (it fails with the process's output if it exits first); stop(signal), freeze() (SIGSTOP);
// - startChildService(extraEnv): one node with a temp DATA_DIR, and on the real services a fresh
//   database and the real broker under a random MQTT topic prefix. Restarts keep the data, the database
//   and the prefix, as a node restarted by its supervisor would;
// - requester(url, tokenOf): requests as an organization, like the in-process test service's `as`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createTokenService } from '../../engine/platform/auth/tokens.ts';
import {
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  createTestDatabase,
  dropTestDatabase,
  testDatabaseUrl,
  type TestResponse,
} from './service.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { seedDataDir } from './data-template.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ServiceProcess {
  url: string;
  /** Resolves once the process is gone (at once when it is already). */
  stop(signal: NodeJS.Signals): Promise<void>;
  /** SIGSTOP: the process is frozen (takes no message, renews nothing) until killed. */
  freeze(): void;
}

export interface SpawnOptions {
  /** Names the process in failure messages. */
  name?: string;
  readyTimeoutMs?: number;
  /** Receives everything the process prints, stdout and stderr. */
  onOutput(text: string): void;
  /** Everything printed so far (for failure messages). */
  output(): string;
}

/** Starts the service with `env` (over this process's environment) on a free port; resolves when ready. */
export async function spawnService(env: Record<string, string>, opts: SpawnOptions): Promise<ServiceProcess> {
  const name = opts.name ?? 'service';
  const timeoutMs = opts.readyTimeoutMs ?? 60_000;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'cli/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (c: Buffer) => opts.onOutput(c.toString()));
  proc.stderr!.on('data', (c: Buffer) => opts.onOutput(c.toString()));
  const exited = new Promise<never>((_, reject) =>
    proc.once('exit', (code) =>
      reject(new Error(`${name} exited (${code}) before it was ready:\n${opts.output()}`)),
    ),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await Promise.race([
      fetch(`${url}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      ),
      exited,
    ]);
    if (ready) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`${name} not ready after ${timeoutMs / 1000} s:\n${opts.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop(signal) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const gone = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill(signal);
      await gone;
    },
    freeze: () => void proc.kill('SIGSTOP'),
  };
}

/** Requests to `url()` as organization `org`, with the token `tokenOf(org)` gives. */
export function requester(url: () => string, tokenOf: (org: string) => Promise<string>): (org: string) => As {
  const tokens = new Map<string, Promise<string>>();
  return (org) =>
    async (method, path, opts = {}) => {
      let token = tokens.get(org);
      if (!token) tokens.set(org, (token = tokenOf(org)));
      const res = await fetch(url() + path, {
        method,
        headers: {
          authorization: `Bearer ${await token}`,
          'content-type': 'application/json',
          ...opts.headers,
        },
        body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      return { status: res.status, body, headers: res.headers, text } as TestResponse;
    };
}

export interface ChildService {
  url: string;
  /** Requests as organization `org` (tokens signed with the service's secret). */
  as(org: string): As;
  /** SIGKILL, and resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean stop), and resolves once the process is gone. */
  terminate(): Promise<void>;
  /** Starts the service again on the same data (a new port). */
  restart(): Promise<void>;
  /** Reads the database while the service is down (embedded: opens the data dir itself). */
  queryWhileDown<R>(sql: string): Promise<R[]>;
  /** What the process printed, over every start. */
  output(): string;
  close(): Promise<void>;
}

export interface ChildServiceOptions {
  /** Dev mode: no AUTH_JWT_SECRET; tokens are signed with the secret the service keeps in DATA_DIR. */
  devAuth?: boolean;
}

export async function startChildService(
  extraEnv: Record<string, string> = {},
  opts: ChildServiceOptions = {},
): Promise<ChildService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-child-'));
  const database = REAL_DATABASE_URL ? await createTestDatabase() : undefined;
  if (!database && !extraEnv.DATABASE_URL) await seedDataDir(dataDir);
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(opts.devAuth ? {} : { AUTH_JWT_SECRET: randomBytes(24).toString('hex') }),
    MQTT_TOPIC_PREFIX: `t${randomBytes(4).toString('hex')}`,
    ...(database ? { DATABASE_URL: testDatabaseUrl(REAL_DATABASE_URL!, database) } : {}),
    ...(REAL_MQTT_URL ? { MQTT_URL: REAL_MQTT_URL } : {}),
    ...extraEnv,
  };
  // Made at the first request: in dev mode the service has written its secret by then.
  let tokens: ReturnType<typeof createTokenService> | undefined;
  let proc: ServiceProcess | undefined;
  let out = '';
  let url = '';

  async function start(): Promise<void> {
    proc = await spawnService(env, { onOutput: (t) => (out += t), output: () => out });
    url = proc.url;
  }
  async function stop(signal: NodeJS.Signals): Promise<void> {
    const p = proc;
    proc = undefined;
    await p?.stop(signal);
  }

  async function queryWhileDown<R>(sql: string): Promise<R[]> {
    if (proc) throw new Error('the service is running');
    if (database) {
      const client = new pg.Client({ connectionString: testDatabaseUrl(REAL_DATABASE_URL!, database) });
      await client.connect();
      try {
        return (await client.query(sql)).rows as R[];
      } finally {
        await client.end();
      }
    }
    const db = await PGlite.create(join(dataDir, 'pglite'));
    try {
      return (await db.query<R>(sql)).rows;
    } finally {
      await db.close();
    }
  }

  await start();
  return {
    get url() {
      return url;
    },
    as: requester(
      () => url,
      (org) => (tokens ??= createTokenService(loadConfig(env))).sign!(org),
    ),
    kill9: () => stop('SIGKILL'),
    terminate: () => stop('SIGTERM'),
    restart: start,
    queryWhileDown,
    output: () => out,
    async close() {
      await stop('SIGTERM');
      if (database) await dropTestDatabase(database).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
