// Looks up connecting charge points in batches: identities that arrive while a query runs are
// fetched together by the next one (one `= ANY($1)` query instead of one round trip per upgrade),
// so a crowd of chargers reconnecting at once costs a few queries, not thousands.
import type { Queryable } from '../platform/db/database.ts';
import type { KnownChargePoint } from './csms-store.ts';

type Waiter = { resolve: (cp: KnownChargePoint | undefined) => void; reject: (err: unknown) => void };

export class IdentityLookup {
  #waiting = new Map<string, Waiter[]>();
  #running = false;

  constructor(private readonly db: Queryable) {}

  find(identity: string): Promise<KnownChargePoint | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.#waiting.get(identity);
      if (waiters) waiters.push({ resolve, reject });
      else this.#waiting.set(identity, [{ resolve, reject }]);
      if (!this.#running) {
        this.#running = true;
        setImmediate(() => void this.#run());
      }
    });
  }

  async #run(): Promise<void> {
    while (this.#waiting.size > 0) {
      const batch = this.#waiting;
      this.#waiting = new Map();
      try {
        const { rows } = await this.db.query<KnownChargePoint>(
          `SELECT id::text AS pk, charge_point_id, organization_id, ocpp_version, password_salt, password_hash,
                  use_status_notification_0, connector_count
           FROM cpo_charge_points WHERE charge_point_id = ANY($1::text[])`,
          [[...batch.keys()]],
        );
        const found = new Map(rows.map((r) => [r.charge_point_id, r]));
        for (const [identity, waiters] of batch) for (const w of waiters) w.resolve(found.get(identity));
      } catch (err) {
        for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
      }
    }
    this.#running = false;
  }
}
