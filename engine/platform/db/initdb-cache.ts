// A new embedded database starts as a copy of an empty one made once per installed PGlite.
// PGlite's initdb is most of a first start (3-5 s of CPU on a quiet core, 20 s on a busy one);
// copying the ~40 MB cluster it leaves takes a fraction of a second. Every new DATA_DIR gains:
// the first `npm start`, each `npm run scenario` (a temporary service per run), each load test
// and test service. The copy is an initdb'd cluster with nothing in it: migrations still run.
//
// Kept in node_modules/.cache/evsim/ (where tools keep caches), or EVSIM_CACHE_DIR; named by the
// PGlite version, so an upgrade makes a new one. Best effort: when the cache cannot be written
// (a read-only node_modules in an image) the database is made in place as before.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const READY = 'initdb-ready';

/** PGlite's package directory and version (its package.json is not exported: found on disk). */
function pglitePackage(): { dir: string; version: string } | undefined {
  let dir = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return { dir, version: pkg.version };
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function defaultCacheRoot(pkgDir: string): string {
  const at = pkgDir.lastIndexOf('node_modules');
  return join(pkgDir.slice(0, at), 'node_modules', '.cache', 'evsim');
}

/** The cached empty cluster (its folder), made now if missing; undefined when it cannot be. */
async function emptyCluster(cacheDir: string | undefined): Promise<string | undefined> {
  const pkg = pglitePackage();
  if (!pkg) return undefined;
  const root = cacheDir ?? defaultCacheRoot(pkg.dir);
  const target = join(root, `pglite-${pkg.version}-initdb`);
  if (existsSync(join(target, READY))) return target;
  // Made aside and renamed into place: two first starts at once each make one, one is kept.
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, 'making-'));
  try {
    const db = await PGlite.create(join(work, 'pglite'));
    await db.close();
    mkdirSync(join(work, READY));
    try {
      renameSync(work, target);
    } catch {
      if (!existsSync(join(target, READY))) throw new Error('initdb cache: neither made nor found');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}

/**
 * Gives the new PGlite directory `dir` (which must not exist yet) an empty cluster from the cache.
 * Returns false, leaving `dir` absent, when the cache cannot be used.
 */
export async function copyEmptyCluster(dir: string, cacheDir?: string): Promise<boolean> {
  try {
    const cluster = await emptyCluster(cacheDir);
    if (!cluster) return false;
    cpSync(join(cluster, 'pglite'), dir, { recursive: true });
    return true;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return false;
  }
}
