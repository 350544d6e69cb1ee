// One embedded database made per run of the suite, copied for each test instead of made anew.
// A fresh PGlite data directory costs an initdb (3-5 s of CPU on a quiet core, 20 s on a busy
// one), then the migrations and the catalog (another 1-4 s); copying a made one costs ~0.2 s.
//
// Two templates, each a PGlite data directory (DATA_DIR/pglite) kept in the system's temp folder
// and named by a hash of what went into it, so a changed migration or catalog makes a new one:
// - 'empty':  initdb only (the migration tests apply migrations themselves);
// - 'seeded': every migration applied and the reference data (catalog, template gallery) loaded,
//             as a service leaves it after its first start.
// Several test processes may ask at once: each builds into a folder of its own and renames it into
// place; the first rename wins and the others use the winner's (a rename is atomic).
//
// On DATABASE_URL the same seeded template is a database of that server (evsim_tpl_<hash>), made
// under an advisory lock by the first process that needs it; each service then gets
// `CREATE DATABASE ... TEMPLATE` (tens of milliseconds) instead of its own migrations.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { startEmbeddedPostgres } from '../../engine/platform/db/embedded-postgres.ts';
import { createDatabase } from '../../engine/platform/db/database.ts';
import { migrate, readMigrations } from '../../engine/platform/db/migrate.ts';
import { loadReferenceData } from '../../engine/catalog/reference-data.ts';

export type TemplateKind = 'empty' | 'seeded';

const READY = 'template-ready';
const ROOT = new URL('../../', import.meta.url).pathname;

function fingerprint(kind: TemplateKind): string {
  const hash = createHash('sha256').update(kind);
  // The installed PGlite: its version is in the lock file (its package.json is not exported).
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  hash.update(lock.packages['node_modules/@electric-sql/pglite']?.version ?? '');
  if (kind === 'seeded') {
    for (const m of readMigrations()) hash.update(m.version).update(m.checksum);
    for (const file of ['engine/catalog/catalog-data.json', 'engine/catalog/template-gallery.json'])
      hash.update(readFileSync(join(ROOT, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

const made = new Map<TemplateKind, Promise<string>>();

/** The data directory of the template (its `pglite` folder inside), made on first use. */
export function dataTemplate(kind: TemplateKind): Promise<string> {
  let dir = made.get(kind);
  if (!dir) made.set(kind, (dir = ensure(kind)));
  return dir;
}

async function ensure(kind: TemplateKind): Promise<string> {
  const target = join(tmpdir(), `evsim-test-template-${kind}-${fingerprint(kind)}`);
  if (existsSync(join(target, READY))) return target;
  const work = mkdtempSync(join(tmpdir(), `evsim-test-template-${kind}-building-`));
  const postgres = await startEmbeddedPostgres(work);
  if (kind === 'seeded') {
    const log = pino({ level: 'silent' });
    const db = createDatabase(postgres.url, log, { oneAtATime: true });
    await migrate(db, log);
    await loadReferenceData(db, log);
    await db.close();
  }
  await postgres.close();
  mkdirSync(join(work, READY));
  try {
    renameSync(work, target);
  } catch {
    // Another process made it first (or a stale unfinished one is in the way: replace it).
    if (!existsSync(join(target, READY))) {
      rmSync(target, { recursive: true, force: true });
      renameSync(work, target);
    } else rmSync(work, { recursive: true, force: true });
  }
  return target;
}

/**
 * Gives `dataDir` the template's database unless it holds one already (a restart test reuses its
 * data directory): a service started on it then opens a migrated database instead of making one.
 */
export async function seedDataDir(dataDir: string, kind: TemplateKind = 'seeded'): Promise<void> {
  if (existsSync(join(dataDir, 'pglite'))) return;
  const template = await dataTemplate(kind);
  cpSync(join(template, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

const REAL_TEMPLATE_LOCK = 727_002;
let realMade: Promise<string> | undefined;

/** The name of the seeded template database on DATABASE_URL's server, made on first use. */
export function realTemplate(): Promise<string> {
  return (realMade ??= makeRealTemplate(process.env.DATABASE_URL!));
}

async function makeRealTemplate(serverUrl: string): Promise<string> {
  const name = `evsim_tpl_${fingerprint('seeded')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [REAL_TEMPLATE_LOCK]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return name;
    // Built under another name and renamed when whole: a run killed halfway leaves no template.
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    const log = pino({ level: 'silent' });
    const db = createDatabase(url.toString(), log);
    try {
      await migrate(db, log);
      await loadReferenceData(db, log);
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await admin.end();
  }
}
