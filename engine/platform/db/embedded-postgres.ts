// With no DATABASE_URL, PGlite runs in this process and is served on a loopback socket,
// so the application still talks real PostgreSQL wire protocol through `pg`.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { copyEmptyCluster } from './initdb-cache.ts';

export interface EmbeddedPostgres {
  url: string;
  /** Stops serving sockets; the database files stay. */
  stop(): Promise<void>;
  /** Serves again on the same port (used when the socket was stopped under a running service). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  opts: { cacheDir?: string } = {},
): Promise<EmbeddedPostgres> {
  const dir = join(dataDir, 'pglite');
  // A new database: a copy of the cached empty cluster instead of an initdb (initdb-cache.ts).
  if (!existsSync(dir)) await copyEmptyCluster(dir, opts.cacheDir);
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  let port = 0;
  let server = await serve();

  async function serve(): Promise<PGLiteSocketServer> {
    // maxConnections > 1: a pg pool needs several sockets; PGlite multiplexes them on one backend.
    const s = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 32 });
    await s.start();
    port = Number(s.getServerConn().split(':').pop());
    return s;
  }

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
    async restart() {
      if (!stopped) return;
      server = await serve();
      stopped = false;
    },
    async close() {
      if (!stopped) await server.stop();
      stopped = true;
      await db.close();
    },
  };
}
