// Several evsim nodes as child processes (`node --import tsx cli/start.ts`) sharing one database
// and one MQTT broker under one topic prefix, as `npm start` on several machines would: on the real
// services, a fresh database of DATABASE_URL and MQTT_URL; on the embedded defaults, a PGlite socket
// (behind the serializing proxy) and an aedes broker started by the test. Each node has its own
// NODE_ID, DATA_DIR and port; they share the token secret, so any node's API takes the same token.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createTokenService } from '../../engine/platform/auth/tokens.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../engine/platform/db/embedded-postgres.ts';
import { seedDataDir } from '../support/data-template.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../engine/platform/mqtt/embedded-broker.ts';
import {
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  createTestDatabase,
  dropTestDatabase,
  testDatabaseUrl,
} from '../support/service.ts';
import { requester, spawnService, type ServiceProcess } from '../support/child-service.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { startSerialProxy } from './serial-proxy.ts';

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

export async function startFleet(names: string[], extraEnv: Record<string, string> = {}): Promise<Fleet> {
  const cleanups: Array<() => Promise<void>> = [];
  let databaseUrl: string;
  let mqttUrl: string;
  if (REAL_DATABASE_URL) {
    const database = await createTestDatabase();
    cleanups.push(() => dropTestDatabase(database));
    databaseUrl = testDatabaseUrl(REAL_DATABASE_URL, database);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'evsim-fleet-db-'));
    await seedDataDir(dir);
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
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const nodes: FleetNode[] = [];
  const procs: ServiceProcess[] = [];

  async function startNode(name: string): Promise<FleetNode> {
    const dataDir = mkdtempSync(join(tmpdir(), `evsim-${name}-`));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    let out = '';
    const proc = await spawnService(
      { ...shared, NODE_ID: name, DATA_DIR: dataDir },
      { name: `node ${name}`, readyTimeoutMs: 90_000, onOutput: (t) => (out += t), output: () => out },
    );
    procs.push(proc);
    return {
      name,
      url: proc.url,
      as: requester(
        () => proc.url,
        (org) => tokens.sign!(org),
      ),
      kill9: () => proc.stop('SIGKILL'),
      freeze: () => proc.freeze(),
      terminate: () => proc.stop('SIGTERM'),
      output: () => out,
    };
  }

  try {
    // One after the other: each applies the migrations the first time it meets the database.
    for (const name of names) nodes.push(await startNode(name));
    // Placement spreads chargers over the nodes live at that moment: on a busy machine an earlier
    // node's renewal can wait behind a later node's start (one database backend embedded), so
    // every node is seen live before the fleet is handed over.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await db.query<{ node_id: string }>(
        'SELECT node_id FROM evc_nodes WHERE expires_at > now()',
      );
      const live = new Set(rows.map((r) => r.node_id));
      if (names.every((n) => live.has(n))) break;
      if (Date.now() > deadline) throw new Error(`nodes not all live: ${[...live].join(', ')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
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
      await Promise.all(procs.map((p) => p.stop('SIGTERM')));
      await db.end();
      for (const c of cleanups.reverse()) await c().catch(() => undefined);
    },
  };
}
