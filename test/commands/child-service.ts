// The service as a child process (`node --import tsx cli/start.ts`), for tests that kill it: on a
// free port picked first, a temp DATA_DIR, and on the real services a fresh schema and the real
// broker, each under a random MQTT topic prefix. Restarts keep the data, the schema and the prefix,
// as a node restarted by its supervisor would.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createTokenService } from '../../engine/platform/auth/tokens.ts';
import {
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  createSchema,
  dropSchema,
  withSearchPath,
  type TestResponse,
} from '../support/service.ts';
import type { As } from '../deployments/deployment-helpers.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface ChildService {
  url: string;
  /** Requests as organization `org` (tokens signed with the service's configured secret). */
  as(org: string): As;
  /** SIGKILL, and resolves once the process is gone. */
  kill9(): Promise<void>;
  /** Starts the service again on the same data (a new port). */
  restart(): Promise<void>;
  /** Reads the database while the service is down (embedded: opens the data dir itself). */
  queryWhileDown<R>(sql: string): Promise<R[]>;
  /** What the process printed (for failure messages). */
  output(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startChildService(extraEnv: Record<string, string> = {}): Promise<ChildService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-child-'));
  const schema = REAL_DATABASE_URL ? await createSchema() : undefined;
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_JWT_SECRET: randomBytes(24).toString('hex'),
    MQTT_TOPIC_PREFIX: `t${randomBytes(4).toString('hex')}`,
    ...(schema ? { DATABASE_URL: withSearchPath(REAL_DATABASE_URL!, schema) } : {}),
    ...(REAL_MQTT_URL ? { MQTT_URL: REAL_MQTT_URL } : {}),
    ...extraEnv,
  };
  const tokens = createTokenService(loadConfig(env));
  let child: ChildProcess | undefined;
  let out = '';
  let url = '';

  async function start(): Promise<void> {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const proc = spawn(process.execPath, ['--import', 'tsx', 'cli/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<never>((_, reject) =>
      proc.once('exit', (code) => reject(new Error(`service exited (${code}) before it was ready:\n${out}`))),
    );
    exited.catch(() => undefined);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = await Promise.race([
        fetch(`${url}/health/ready`).then(
          (r) => r.status === 200,
          () => false,
        ),
        exited,
      ]);
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`service not ready after 60 s:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function stop(signal: NodeJS.Signals): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill(signal);
    await gone;
  }

  const tokenOf = new Map<string, Promise<string>>();
  function as(org: string): As {
    return async (method, path, opts = {}) => {
      let token = tokenOf.get(org);
      if (!token) tokenOf.set(org, (token = tokens.sign!(org)));
      const res = await fetch(url + path, {
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

  async function queryWhileDown<R>(sql: string): Promise<R[]> {
    if (child) throw new Error('the service is running');
    if (schema) {
      const client = new pg.Client({ connectionString: withSearchPath(REAL_DATABASE_URL!, schema) });
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
    as,
    kill9: () => stop('SIGKILL'),
    restart: start,
    queryWhileDown,
    output: () => out,
    async close() {
      await stop('SIGTERM');
      if (schema) await dropSchema(schema).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
