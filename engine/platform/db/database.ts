// One pool for the whole process. Queries are plain SQL with positional parameters;
// transactions are short (PGlite serves every connection from one backend).
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

// int8 (bigint) and numeric come back as strings by default; our ids and counts fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export function createDatabase(url: string, log: Logger, opts: { max?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // A dropped idle connection must not crash the process; the next query gets a fresh one.
  pool.on('error', (err) => log.warn({ err: err.message }, 'database connection error'));

  return {
    pool,
    query: <R>(text: string, values?: unknown[]) =>
      pool.query(text, values) as unknown as Promise<QueryResult<R>>,
    async tx(fn) {
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
    },
    close: () => pool.end(),
  };
}
