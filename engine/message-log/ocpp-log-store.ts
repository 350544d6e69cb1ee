// ocpp_log in PostgreSQL: batched inserts (one statement per chunk of frames, the frames passed as
// one JSON text so that nothing is escaped per frame), pages newest first, and the pruning
// (engine/platform/db/retention.ts). Rows are keyed by the charger's key: a deployment id (virtual
// charger side) or a charge point's id (built-in central system side). Who may read a key is
// decided here too.
import type { Queryable } from '../platform/db/database.ts';
import { dropOlderThan, keepNewest, type LogTable } from '../platform/db/retention.ts';
import { isUuid } from '../deployments/deployment-store.ts';
import { itemJson, type LogItemFields } from './log-item.ts';

const OCPP_LOG: LogTable = { table: 'ocpp_log', owner: 'charger_id' };

/** A charger whose log a caller may read. */
export interface LogOwner {
  key: string;
  /** It may be running on some node now (worth waiting a moment for that node's newest frames). */
  live: boolean;
}

export interface PageQuery {
  limit: number;
  /** Older items than this id only. */
  before?: number;
  action?: string;
  direction?: 'in' | 'out';
}

export interface Page {
  /** Item JSON texts, newest first. */
  items: string[];
  nextBefore: string | null;
}

export interface WrittenEntry extends LogItemFields {
  owner: { key: string };
}

interface Row {
  id: number;
  at_ms: number;
  direction: 'in' | 'out';
  type: number | null;
  message_id: string | null;
  action: string | null;
  frame: string;
  error: string | null;
  injected: string | null;
}

const SELECT = `SELECT id, (extract(epoch FROM at) * 1000)::float8 AS at_ms, direction, type, message_id, action,
  frame::text AS frame, error, injected FROM ocpp_log`;

const fields = (r: Row): LogItemFields => ({
  id: r.id,
  at: Math.round(r.at_ms),
  direction: r.direction,
  type: r.type,
  messageId: r.message_id,
  action: r.action,
  frame: r.frame,
  error: r.error,
  injected: r.injected,
});

const str = (v: string | null) => (v === null ? 'null' : JSON.stringify(v));

export class OcppLogStore {
  constructor(private readonly db: Queryable) {}

  async deploymentOwner(orgId: string, deploymentId: string): Promise<LogOwner | undefined> {
    if (!isUuid(deploymentId)) return undefined;
    const { rows } = await this.db.query<{ running: boolean }>(
      `SELECT desired = 'running' AS running FROM evc_deployments WHERE organization_id = $1 AND id = $2`,
      [orgId, deploymentId],
    );
    return rows[0] && { key: deploymentId.toLowerCase(), live: rows[0].running };
  }

  async chargePointOwner(orgId: string, chargePointId: string): Promise<LogOwner | undefined> {
    const { rows } = await this.db.query<{ id: string; is_online: boolean }>(
      'SELECT id::text AS id, is_online FROM cpo_charge_points WHERE organization_id = $1 AND charge_point_id = $2',
      [orgId, chargePointId],
    );
    return rows[0] && { key: rows[0].id, live: rows[0].is_online };
  }

  async page(key: string, q: PageQuery): Promise<Page> {
    const { rows } = await this.db.query<Row>(
      `${SELECT}
       WHERE charger_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3::text IS NULL OR action = $3)
         AND ($4::text IS NULL OR direction = $4)
       ORDER BY id DESC LIMIT $5`,
      [key, q.before ?? null, q.action ?? null, q.direction ?? null, q.limit + 1],
    );
    const more = rows.length > q.limit;
    const page = rows.slice(0, q.limit);
    return {
      items: page.map((r) => itemJson(fields(r))),
      nextBefore: more ? String(page[page.length - 1].id) : null,
    };
  }

  /** The newest `limit` items, oldest first. */
  async latest(key: string, limit: number): Promise<LogItemFields[]> {
    const { rows } = await this.db.query<Row>(`${SELECT} WHERE charger_id = $1 ORDER BY id DESC LIMIT $2`, [
      key,
      limit,
    ]);
    return rows.reverse().map(fields);
  }

  /** One statement for all of them; a frame written twice (a retried batch) is kept once. */
  async insert(entries: readonly WrittenEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(
      (e) =>
        `{"k":"${e.owner.key}","i":${e.id},"t":${e.at},"d":"${e.direction}","y":${e.type ?? 'null'},` +
        `"m":${str(e.messageId)},"a":${str(e.action)},"e":${str(e.error)},"j":${str(e.injected ?? null)},"f":${e.frame}}`,
    );
    // The brackets go inside the join, which makes one flat string: around it they would make a
    // cons string that pg flattens into a second copy of every frame (promoted garbage in a boot).
    rows[0] = `[${rows[0]}`;
    rows[rows.length - 1] += ']';
    await this.db.query(
      `INSERT INTO ocpp_log (charger_id, id, at, direction, type, message_id, action, frame, error, injected)
       SELECT u.k, u.i, to_timestamp(u.t / 1000.0), u.d, u.y, u.m, u.a, u.f, u.e, u.j
       FROM json_to_recordset($1::json) AS u(k uuid, i bigint, t double precision, d text, y smallint, m text,
         a text, e text, j text, f json)
       ON CONFLICT DO NOTHING`,
      [rows.join(',')],
    );
  }

  /** Keeps the newest `max` rows of each of these chargers. */
  pruneCount(keys: readonly string[], max: number): Promise<number> {
    return keepNewest(this.db, OCPP_LOG, keys, max);
  }

  /** Drops every row older than the retention. */
  pruneAge(hours: number): Promise<number> {
    return dropOlderThan(this.db, OCPP_LOG, hours);
  }
}
