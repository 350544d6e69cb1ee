// A bare database for engine-level tests: embedded PGlite in a temp dir, or a fresh empty database on
// the real PostgreSQL when DATABASE_URL is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createDatabase, type Database } from '../../engine/platform/db/database.ts';
import { startEmbeddedPostgres } from '../../engine/platform/db/embedded-postgres.ts';
import { seedDataDir } from './data-template.ts';
import { REAL_DATABASE_URL, createTestDatabase, dropTestDatabase, testDatabaseUrl } from './service.ts';

export const silentLog = pino({ level: 'silent' });

export async function openTestDatabase(): Promise<{ db: Database; close(): Promise<void> }> {
  if (REAL_DATABASE_URL) {
    const database = await createTestDatabase({ empty: true });
    const db = createDatabase(testDatabaseUrl(REAL_DATABASE_URL, database), silentLog);
    return {
      db,
      async close() {
        await db.close();
        await dropTestDatabase(database);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'evsim-db-'));
  await seedDataDir(dir, 'empty');
  const pg = await startEmbeddedPostgres(dir);
  const db = createDatabase(pg.url, silentLog);
  return {
    db,
    async close() {
      await db.close();
      await pg.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
