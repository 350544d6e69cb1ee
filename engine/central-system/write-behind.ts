// Batches the central system's frequent writes (presence, heartbeats, connector status) into a few
// multi-row statements per flush instead of one round trip per OCPP message. Heartbeats and status
// wait up to `intervalMs`; presence changes flush at once (a connecting charger waits for its row
// to say online). Scheduled by the one BatchWriter.
import { BatchWriter } from '../platform/db/batch-writer.ts';
import type { Database } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';

export interface Presence {
  online: boolean;
  version?: string;
  at: Date;
}

interface StatusWrite {
  pk: string;
  evse: number;
  connector: number;
  status: string;
  errorCode: string | null;
  at: Date;
}

export class WriteBehind {
  #presence = new Set<string>();
  #heartbeats = new Map<string, Date>();
  #statuses = new Map<string, StatusWrite>();
  /** Connector-0 status per charge point, fanned out to every connector (use_status_notification_0). */
  #fanOut = new Map<string, StatusWrite & { connectorCount: number }>();
  #waiters: Array<() => void> = [];
  readonly #batch: BatchWriter;

  constructor(
    private readonly db: Database,
    log: Logger,
    private readonly nodeId: string,
    /** The node's current truth about a charge point's connection, read at flush time. */
    private readonly presenceOf: (pk: string) => Presence | undefined,
    intervalMs = 1_000,
  ) {
    this.#batch = new BatchWriter({
      name: 'central system',
      log,
      delayMs: intervalMs,
      pending: () => this.#presence.size + this.#heartbeats.size + this.#statuses.size > 0,
      write: () => this.#write(),
    });
  }

  /** Resolves once the charge point's current presence is in the database. */
  presenceChanged(pk: string): Promise<void> {
    this.#presence.add(pk);
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.#batch.schedule(true);
    });
  }

  heartbeat(pk: string, at: Date): void {
    this.#heartbeats.set(pk, at);
    this.#batch.schedule();
  }

  status(write: StatusWrite, fanOutTo?: number): void {
    if (fanOutTo !== undefined) {
      // Supersedes every earlier per-connector status of this charge point still waiting.
      for (const [key, w] of this.#statuses) if (w.pk === write.pk && w.evse > 0) this.#statuses.delete(key);
      this.#fanOut.set(write.pk, { ...write, connectorCount: fanOutTo });
    }
    this.#statuses.set(`${write.pk}/${write.evse}/${write.connector}`, write);
    this.#batch.schedule();
  }

  /** Writes everything pending now (shutdown, tests). */
  flush(): Promise<void> {
    return this.#batch.flush();
  }

  async #write(): Promise<void> {
    const presence = this.#presence;
    const heartbeats = this.#heartbeats;
    const statuses = this.#statuses;
    const fanOut = this.#fanOut;
    const waiters = this.#waiters;
    this.#presence = new Set();
    this.#heartbeats = new Map();
    this.#statuses = new Map();
    this.#fanOut = new Map();
    this.#waiters = [];
    try {
      if (presence.size > 0) await this.#writePresence(presence);
      if (heartbeats.size > 0)
        await this.db.query(
          `UPDATE cpo_charge_points c SET last_heartbeat = u.at
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) WHERE c.id = u.id`,
          [[...heartbeats.keys()], [...heartbeats.values()]],
        );
      if (fanOut.size > 0) await this.#writeFanOut([...fanOut.values()]);
      if (statuses.size > 0) await this.#writeStatuses([...statuses.values()]);
    } finally {
      for (const resolve of waiters) resolve();
    }
  }

  async #writePresence(pks: Set<string>): Promise<void> {
    const ids: string[] = [];
    const online: boolean[] = [];
    const versions: Array<string | null> = [];
    const at: Date[] = [];
    for (const pk of pks) {
      const p = this.presenceOf(pk);
      ids.push(pk);
      online.push(p?.online ?? false);
      versions.push(p?.version ?? null);
      at.push(p?.at ?? new Date());
    }
    // Going offline only clears a row this node holds: another node may have the charger by now.
    await this.db.query(
      `UPDATE cpo_charge_points c SET
         is_online = u.online,
         node_id = CASE WHEN u.online THEN $5 ELSE NULL END,
         connected_at = CASE WHEN u.online THEN u.at ELSE c.connected_at END,
         ocpp_version = CASE WHEN u.online AND u.version IS NOT NULL THEN u.version ELSE c.ocpp_version END
       FROM unnest($1::uuid[], $2::boolean[], $3::text[], $4::timestamptz[]) AS u(id, online, version, at)
       WHERE c.id = u.id AND (u.online OR c.node_id = $5)`,
      [ids, online, versions, at, this.nodeId],
    );
  }

  async #writeFanOut(writes: Array<StatusWrite & { connectorCount: number }>): Promise<void> {
    const cols = columns(writes);
    const counts = writes.map((w) => w.connectorCount);
    // Every connector the charge point declared (connector_count) or has reported so far.
    await this.db.query(
      `INSERT INTO cpo_connector_status (charge_point_pk, evse_id, connector_id, status, error_code, updated_at)
       SELECT u.id, g.n, 1, u.status, u.error_code, u.at
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::int[]) AS u(id, status, error_code, at, n)
       CROSS JOIN LATERAL generate_series(1, u.n) AS g(n)
       ON CONFLICT DO NOTHING`,
      [cols.ids, cols.status, cols.errors, cols.at, counts],
    );
    await this.db.query(
      `UPDATE cpo_connector_status s SET status = u.status, error_code = u.error_code, updated_at = u.at
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[]) AS u(id, status, error_code, at)
       WHERE s.charge_point_pk = u.id AND s.evse_id > 0`,
      [cols.ids, cols.status, cols.errors, cols.at],
    );
  }

  async #writeStatuses(writes: StatusWrite[]): Promise<void> {
    const cols = columns(writes);
    await this.db.query(
      `INSERT INTO cpo_connector_status (charge_point_pk, evse_id, connector_id, status, error_code, updated_at)
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::text[], $6::timestamptz[])
       ON CONFLICT (charge_point_pk, evse_id, connector_id) DO UPDATE
       SET status = EXCLUDED.status, error_code = EXCLUDED.error_code, updated_at = EXCLUDED.updated_at`,
      [
        cols.ids,
        writes.map((w) => w.evse),
        writes.map((w) => w.connector),
        cols.status,
        cols.errors,
        cols.at,
      ],
    );
  }
}

function columns(writes: StatusWrite[]) {
  return {
    ids: writes.map((w) => w.pk),
    status: writes.map((w) => w.status),
    errors: writes.map((w) => w.errorCode),
    at: writes.map((w) => w.at),
  };
}
