import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, readMigrations } from '../../engine/platform/db/migrate.ts';
import { MODE } from '../support/service.ts';
import { openTestDatabase, silentLog } from '../support/database.ts';
import type { Database } from '../../engine/platform/db/database.ts';

describe(`schema migrations (${MODE})`, () => {
  let db: Database;
  let close: () => Promise<void>;
  before(async () => {
    ({ db, close } = await openTestDatabase());
  });
  after(() => close());

  test('applies every migration once and records it', async () => {
    const all = readMigrations();
    const applied = await migrate(db, silentLog);
    assert.deepEqual(
      applied,
      all.map((m) => m.version),
    );
    const { rows } = await db.query<{ version: string }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    assert.deepEqual(
      rows.map((r) => r.version),
      all.map((m) => m.version),
    );
  });

  test('a second run applies nothing', async () => {
    assert.deepEqual(await migrate(db, silentLog), []);
  });

  test('concurrent runs apply each migration exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evsim-mig-'));
    writeFileSync(join(dir, '9001_probe.sql'), 'CREATE TABLE probe_concurrent (id int);');
    const extra = [...readMigrations(), ...readMigrations(dir)];
    const results = await Promise.all([migrate(db, silentLog, extra), migrate(db, silentLog, extra)]);
    assert.deepEqual(results.flat(), ['9001_probe']);
  });

  test('a migration edited after it was applied is refused', async () => {
    const edited = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: 'changed' } : m));
    await assert.rejects(migrate(db, silentLog, edited), /was changed after it was applied/);
  });

  test('a failing migration is rolled back and not recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evsim-mig-'));
    writeFileSync(
      join(dir, '9002_broken.sql'),
      'CREATE TABLE half_done (id int); SELECT nonsense_column FROM nowhere;',
    );
    const list = [...readMigrations(), ...readMigrations(dir)].filter((m) => m.version !== '9001_probe');
    await assert.rejects(migrate(db, silentLog, list), /migration 9002_broken failed/);
    const { rows } = await db.query("SELECT to_regclass('half_done') AS t");
    assert.equal(rows[0].t, null);
    const rec = await db.query("SELECT 1 FROM schema_migrations WHERE version = '9002_broken'");
    assert.equal(rec.rows.length, 0);
  });
});
