// Several evsim nodes as child processes (`node --import tsx cli/start.ts`) sharing one database
// and one MQTT broker under one topic prefix, as `npm start` on several machines would: on the real
// services, a fresh schema of DATABASE_URL and MQTT_URL; on the embedded defaults, a PGlite socket
// (behind the serializing proxy) and an aedes broker started by the test. Each node has its own
// NODE_ID, DATA_DIR and port; they share the token secret, so any node's API takes the same token.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createTokenService } from '../../engine/platform/auth/tokens.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../engine/platform/db/embedded-postgres.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../engine/platform/mqtt/embedded-broker.ts';
import {
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  createSchema,
  dropSchema,
  withSearchPath,
  type TestResponse,
} from '../support/service.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { startSerialProxy } from './serial-proxy.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface FleetNode {
  name: string;
  url: string;
  as(org: string): As;
  kill9(): Promise<void>;
  terminate(): Promise<void>;
  /** SIGSTOP: the process is frozen (takes no message, renews nothing) until killed. */
  freeze(): void;
  output(): string;
}

export interface Fleet {
  nodes: FleetNode[];
  /** A query on the shared database (the test's own connection). */
  query<R>(sql: string, values?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startFleet(names: string[], extraEnv: Record<string, string> = {}): Promise<Fleet> {
  const cleanups: Array<() => Promise<void>> = [];
  let databaseUrl: string;
  let mqttUrl: string;
  if (REAL_DATABASE_URL) {
    const schema = await createSchema();
    cleanups.push(() => dropSchema(schema));
    databaseUrl = withSearchPath(REAL_DATABASE_URL, schema);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'evsim-fleet-db-'));
    const postgres: EmbeddedPostgres = await startEmbeddedPostgres(dir);
    const proxy = await startSerialProxy(postgres.url);
    cleanups.push(async () => {
      await proxy.close();
      await postgres.close();
      rmSync(dir, { recursive: true, force: true });
    });
    databaseUrl = proxy.url;
  }
  if (REAL_MQTT_URL) mqttUrl = REAL_MQTT_URL;
  else {
    const broker: EmbeddedBroker = await startEmbeddedBroker();
    cleanups.push(() => broker.close());
    mqttUrl = broker.url;
  }
  const shared: Record<string, string> = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTH_JWT_SECRET: randomBytes(24).toString('hex'),
    MQTT_TOPIC_PREFIX: `t${randomBytes(4).toString('hex')}`,
    DATABASE_URL: databaseUrl,
    MQTT_URL: mqttUrl,
    LEASE_TTL_SECONDS: '3',
    ...extraEnv,
  };
  const tokens = createTokenService(loadConfig(shared));
  const tokenOf = new Map<string, Promise<string>>();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const nodes: FleetNode[] = [];
  const procs: ChildProcess[] = [];

  async function startNode(name: string): Promise<FleetNode> {
    const dataDir = mkdtempSync(join(tmpdir(), `evsim-${name}-`));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let out = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', 'cli/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...shared, NODE_ID: name, DATA_DIR: dataDir, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    procs.push(proc);
    proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<never>((_, reject) =>
      proc.once('exit', (code) =>
        reject(new Error(`node ${name} exited (${code}) before it was ready:\n${out}`)),
      ),
    );
    exited.catch(() => undefined);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ready = await Promise.race([
        fetch(`${url}/health/ready`).then(
          (r) => r.status === 200,
          () => false,
        ),
        exited,
      ]);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`node ${name} not ready after 90 s:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const stop = async (signal: NodeJS.Signals) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const gone = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill(signal);
      await gone;
    };
    return {
      name,
      url,
      as(org) {
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
      },
      kill9: () => stop('SIGKILL'),
      freeze: () => void proc.kill('SIGSTOP'),
      terminate: () => stop('SIGTERM'),
      output: () => out,
    };
  }

  try {
    // One after the other: each applies the migrations the first time it meets the database.
    for (const name of names) nodes.push(await startNode(name));
  } catch (err) {
    for (const p of procs) p.kill('SIGKILL');
    await db.end();
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    throw err;
  }
  return {
    nodes,
    async query<R>(sql: string, values?: unknown[]) {
      return (await db.query(sql, values)).rows as R[];
    },
    async close() {
      await Promise.all(
        procs.map(
          (p) =>
            new Promise<void>((resolve) => {
              if (p.exitCode !== null || p.signalCode !== null) return resolve();
              p.once('exit', () => resolve());
              p.kill('SIGTERM');
            }),
        ),
      );
      await db.end();
      for (const c of cleanups.reverse()) await c().catch(() => undefined);
    },
  };
}
