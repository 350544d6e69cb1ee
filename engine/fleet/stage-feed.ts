// Stage changes of every charger of the fleet, live, for the console's one stream per browser.
// Every node's write-behind already batches its stage events into evc_stage_events, so the feed
// tails that table: one query per second per process while anyone listens (none otherwise), shared
// by every listener and filtered by organization here. It serves chargers held by any node, with no
// broker topic and no per-charger work.
import type { Queryable } from '../platform/db/database.ts';

export interface StageChange {
  id: string;
  deployment_id: string | null;
  identity: string;
  attempt: number;
  stage: string;
  outcome: string;
  at: string;
  code: string | null;
  hint: string | null;
}

type Listener = (change: StageChange) => void;

/** Rows read per tick: a boot storm beyond this is read over the next ticks. */
const BATCH = 2000;

export class StageFeed {
  readonly #listeners = new Map<string, Set<Listener>>();
  #last: bigint | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #reading = false;

  constructor(
    private readonly db: Queryable,
    private readonly intervalMs = 1000,
  ) {}

  /** Calls `fn` with each new stage event of the organization; returns the unsubscribe. */
  async subscribe(orgId: string, fn: Listener): Promise<() => void> {
    if (this.#last === undefined) {
      const { rows } = await this.db.query<{ id: string | null }>(
        'SELECT max(id)::text AS id FROM evc_stage_events',
      );
      this.#last ??= BigInt(rows[0].id ?? '0');
    }
    let set = this.#listeners.get(orgId);
    if (!set) this.#listeners.set(orgId, (set = new Set()));
    set.add(fn);
    this.#arm();
    return () => {
      set.delete(fn);
      if (set.size === 0) this.#listeners.delete(orgId);
      if (this.#listeners.size === 0) this.#disarm();
    };
  }

  close(): void {
    this.#listeners.clear();
    this.#disarm();
  }

  #arm(): void {
    if (this.#timer || this.#listeners.size === 0) return;
    this.#timer = setTimeout(() => void this.#tick(), this.intervalMs);
    this.#timer.unref();
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // The next first listener starts from the newest event again.
    this.#last = undefined;
  }

  async #tick(): Promise<void> {
    this.#timer = undefined;
    if (this.#reading || this.#listeners.size === 0 || this.#last === undefined) return;
    this.#reading = true;
    try {
      const { rows } = await this.db.query<StageChange & { organization_id: string; at: Date }>(
        `SELECT id::text AS id, organization_id, deployment_id::text AS deployment_id, identity, attempt, stage,
                outcome, at, code, hint
         FROM evc_stage_events WHERE id > $1 AND organization_id = ANY ($2) ORDER BY id LIMIT $3`,
        [this.#last.toString(), [...this.#listeners.keys()], BATCH],
      );
      for (const { organization_id, ...r } of rows) {
        this.#last = BigInt(r.id);
        const change = { ...r, at: new Date(r.at).toISOString() };
        for (const fn of this.#listeners.get(organization_id) ?? []) fn(change);
      }
    } catch {
      // The database is away for a moment: the next tick reads from the same point.
    } finally {
      this.#reading = false;
      this.#arm();
    }
  }
}
