// A new embedded database is a copy of one empty cluster made once per PGlite version
// (engine/platform/db/initdb-cache.ts); the copies are databases of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../engine/platform/db/embedded-postgres.ts';

async function query<R>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as R[];
  } finally {
    await client.end();
  }
}

test('the first new database makes the cached empty cluster; the next starts from a copy of it, and each is its own', async () => {
  const root = mkdtempSync(join(tmpdir(), 'evsim-initdb-'));
  const cache = join(root, 'cache');
  try {
    {
      const a = await startEmbeddedPostgres(join(root, 'a'), { cacheDir: cache });
      const made = readdirSync(cache);
      assert.equal(made.length, 1, made.join());
      assert.match(made[0], /^pglite-[\d.]+-initdb$/);
      await query(a.url, 'CREATE TABLE only_in_a (x int)');
      const b = await startEmbeddedPostgres(join(root, 'b'), { cacheDir: cache });
      assert.deepEqual(readdirSync(cache), made, 'the cache was used, not made again');
      const inB = await query<{ n: number }>(
        b.url,
        "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_in_a'",
      );
      assert.deepEqual(inB, [{ n: 0 }]);
      await query(b.url, 'CREATE TABLE only_in_b (x int)');
      await a.close();
      await b.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a cache that cannot be written: the database is made in place all the same', async () => {
  const root = mkdtempSync(join(tmpdir(), 'evsim-initdb-'));
  try {
    // A file where the cache folder would be: nothing can be made below it, even as root.
    const cache = join(root, 'not-a-folder');
    writeFileSync(cache, 'x');
    const c = await startEmbeddedPostgres(join(root, 'c'), { cacheDir: join(cache, 'evsim') });
    assert.deepEqual(await query<{ one: number }>(c.url, 'SELECT 1 AS one'), [{ one: 1 }]);
    await c.close();
    assert.ok(existsSync(join(root, 'c', 'pglite', 'PG_VERSION')));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
