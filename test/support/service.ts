// Starts the whole service for a test file, on the embedded defaults or, when the environment
// has DATABASE_URL / MQTT_URL (CI's second pass), on the real PostgreSQL and broker. Each service
// gets a database of its own (a copy of the run's migrated template), so test files never see
// each other's rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createLogger } from '../../engine/platform/log/logger.ts';
import { startService, type Service } from '../../api/server.ts';
import { realTemplate, seedDataDir } from './data-template.ts';

export const REAL_DATABASE_URL = process.env.DATABASE_URL || undefined;
export const REAL_MQTT_URL = process.env.MQTT_URL || undefined;
export const MODE = REAL_DATABASE_URL ? 'real' : 'embedded';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). */
  raw?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface TestService {
  url: string;
  service: Service;
  dataDir: string;
  token(orgId: string): Promise<string>;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  /** request() with a token of organization `org` (default 'org-a'). */
  as(
    org: string,
  ): <T = any>(
    method: string,
    path: string,
    opts?: Omit<RequestOptions, 'token'>,
  ) => Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Override the database URL (e.g. through a TCP proxy to the real server). */
  databaseUrl?: string;
  mqttUrl?: string;
  /** Reuse a data directory (restart tests). */
  dataDir?: string;
  /** Reuse a database on the real server (restart tests). */
  database?: string;
}

/**
 * A database of its own on the real server (DATABASE_URL) for one service or test: a copy of the
 * run's migrated template (data-template.ts), or an empty one for the migration tests. Returns its
 * name; testDatabaseUrl() makes the URL that reaches it.
 */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const template = opts.empty ? 'template0' : await realTemplate();
  const client = new pg.Client({ connectionString: REAL_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await client.end();
  }
  return name;
}

export async function dropTestDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: REAL_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** `url` (a server's) pointed at the database `name` on that server. */
export function testDatabaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function startTestService(opts: StartOptions = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'evsim-test-'));
  let database: string | undefined;
  let databaseUrl = opts.databaseUrl;
  if (REAL_DATABASE_URL && !databaseUrl) {
    database = opts.database ?? (await createTestDatabase());
    databaseUrl = testDatabaseUrl(REAL_DATABASE_URL, database);
  }
  // On the embedded database: a copy of the run's migrated one, not a new one (data-template.ts).
  if (!databaseUrl) await seedDataDir(dataDir);
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MQTT_TOPIC_PREFIX: `t${randomBytes(4).toString('hex')}`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...((opts.mqttUrl ?? REAL_MQTT_URL) ? { MQTT_URL: (opts.mqttUrl ?? REAL_MQTT_URL)! } : {}),
    ...opts.env,
  };
  const config = loadConfig(env);
  const service = await startService(config, createLogger(config));

  async function token(orgId: string): Promise<string> {
    return service.platform.tokens.sign!(orgId);
  }

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(service.url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }

  const tokens = new Map<string, string>();
  return {
    url: service.url,
    service,
    dataDir,
    token,
    request,
    as(org: string) {
      return async (method, path, o = {}) => {
        let t = tokens.get(org);
        if (!t) tokens.set(org, (t = await token(org)));
        return request(method, path, { ...o, token: t });
      };
    },
    async close() {
      await service.close();
      if (database && !opts.database) await dropTestDatabase(database).catch(() => undefined);
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
