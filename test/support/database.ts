// A bare database for engine-level tests: embedded PGlite in a temp dir, or a fresh schema on
// the real PostgreSQL when DATABASE_URL is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createDatabase, type Database } from '../../engine/platform/db/database.ts';
import { startEmbeddedPostgres } from '../../engine/platform/db/embedded-postgres.ts';
import { seedDataDir } from './data-template.ts';
import { REAL_DATABASE_URL, createSchema, dropSchema, withSearchPath } from './service.ts';

export const silentLog = pino({ level: 'silent' });

export async function openTestDatabase(): Promise<{ db: Database; close(): Promise<void> }> {
  if (REAL_DATABASE_URL) {
    const schema = await createSchema();
    const db = createDatabase(withSearchPath(REAL_DATABASE_URL, schema), silentLog);
    return {
      db,
      async close() {
        await db.close();
        await dropSchema(schema);
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
