// The message log without the service around it, for the in-process load test: the same capture
// and write-behind into PostgreSQL (in a schema of its own, emptied first), with no API, no relay.
import type { Logger } from '../platform/log/logger.ts';
import { createDatabase } from '../platform/db/database.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../platform/db/migrate.ts';
import { MessageLog } from './message-log.ts';

export interface StandaloneMessageLog {
  messageLog: MessageLog;
  /** Frames written so far. */
  rows(): Promise<number>;
  close(): Promise<void>;
}

export async function startStandaloneMessageLog(
  databaseUrl: string,
  log: Logger,
  schema = 'evsim_loadtest',
): Promise<StandaloneMessageLog> {
  const setup = createDatabase(databaseUrl, log, { max: 1 });
  await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await setup.close();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = createDatabase(url.toString(), log);
  // The built load test (dist/) carries no SQL files: they are read from the source tree it runs in.
  const dir = existsSync(MIGRATIONS_DIR)
    ? MIGRATIONS_DIR
    : join(process.cwd(), 'engine/platform/db/migrations');
  await migrate(db, log, readMigrations(dir));
  await db.query('TRUNCATE ocpp_log');
  const messageLog = new MessageLog({ db, log, retentionHours: 24, maxPerCharger: 1000 });
  return {
    messageLog,
    async rows() {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ocpp_log');
      return rows[0].n;
    },
    async close() {
      await messageLog.close();
      await db.close();
    },
  };
}
