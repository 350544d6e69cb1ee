// One pool for the whole process. Queries are plain SQL with positional parameters;
// transactions are short (PGlite serves every connection from one backend).
//
// PGlite behind its socket server is one backend session for every connection, and the socket
// server interleaves the messages of concurrent connections: two extended-protocol queries at
// once (Parse/Bind/Execute/Sync) bind each other's statements (electric-sql/pglite#1046). Against
// PGlite the pool therefore lets one query (or one transaction) talk at a time; it is one backend
// anyway, so nothing is lost but the interleaving.
import pg from 'pg';
import type { Logger } from '../log/logger.ts';

export type Row = Record<string, unknown>;

export interface QueryResult<R> {
  rows: R[];
  rowCount: number | null;
}

export interface Queryable {
  query<R = Row>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

export interface Database extends Queryable {
  pool: pg.Pool;
  /** Runs fn in a transaction on one connection; rolls back when it throws. */
  tx<T>(fn: (client: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Socket errors that mean the server cannot be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a connection that failed or a server that is going away or refusing connections
 * (not 08P01, a protocol violation, which is a bug rather than an outage).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** pg's own errors for a connection that could not be made or was lost (they carry no code). */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/;

/**
 * Whether `err` (or what caused it) says the database cannot be reached, as opposed to a query
 * the database refused. The API answers the first 503 and the second 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, hops = 0; e instanceof Error && hops < 8; e = e.cause, hops++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code))) return true;
    if (LOST_CONNECTION.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

// int8 (bigint) and numeric come back as strings by default; our ids and counts fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

/** Runs one task at a time, in arrival order. */
class Gate {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

/** Whether the server at `url` is PGlite (its version() says so). */
export async function servesPglite(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    return /PGlite/i.test(rows[0]?.version ?? '');
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function createDatabase(
  url: string,
  log: Logger,
  opts: { max?: number; oneAtATime?: boolean } = {},
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // A dropped idle connection must not crash the process; the next query gets a fresh one.
  pool.on('error', (err) => log.warn({ err: err.message }, 'database connection error'));

  const gate = opts.oneAtATime ? new Gate() : undefined;
  const query = <R>(text: string, values?: unknown[]) =>
    pool.query(text, values) as unknown as Promise<QueryResult<R>>;
  async function tx<T>(fn: (client: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client as unknown as Queryable);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  return {
    pool,
    query: gate ? (text, values) => gate.run(() => query(text, values)) : query,
    // A transaction holds the gate until it ends: its statements go through its own client.
    tx: gate ? (fn) => gate.run(() => tx(fn)) : tx,
    close: () => pool.end(),
  };
}
