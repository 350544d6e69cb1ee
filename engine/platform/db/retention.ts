// The two retention statements of the logs kept in PostgreSQL (the OCPP message log, the stage
// events): the newest rows of each owner by count (ids grow with time), and everything older than
// the retention by age (each table has a BRIN index on `at`). Table and column names are this
// code's constants, never a caller's input.
import type { Queryable } from './database.ts';

/** A log table: its name and the uuid column naming whose row it is. */
export interface LogTable {
  table: string;
  owner: string;
}

/** Keeps the newest `max` rows of each of these owners; answers how many went. */
export async function keepNewest(
  db: Queryable,
  { table, owner }: LogTable,
  owners: readonly string[],
  max: number,
): Promise<number> {
  if (owners.length === 0) return 0;
  const { rowCount } = await db.query(
    `DELETE FROM ${table} l
     USING (SELECT k.key, (SELECT x.id FROM ${table} x WHERE x.${owner} = k.key
                           ORDER BY x.id DESC OFFSET $2 LIMIT 1) AS cutoff
            FROM unnest($1::uuid[]) AS k(key)) c
     WHERE l.${owner} = c.key AND c.cutoff IS NOT NULL AND l.id <= c.cutoff`,
    [owners, max],
  );
  return rowCount ?? 0;
}

/** Drops every row older than the retention; answers how many went. */
export async function dropOlderThan(db: Queryable, { table }: LogTable, hours: number): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM ${table} WHERE at < now() - make_interval(hours => $1)`, [
    hours,
  ]);
  return rowCount ?? 0;
}
