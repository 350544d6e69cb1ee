// Write-behind for running chargers: stage events and persisted snapshots are buffered and written
// in two multi-row statements per flush, so a boot storm of thousands of chargers costs a handful of
// writes per second instead of one round trip per transition. A timer is armed only while something
// waits (no idle polling); a flush runs alone and whatever arrives meanwhile goes into the next one.
import { SNAPSHOT_VERSION, type StageEvent } from '../../actors/charger/charger-ports.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';

/** What the writer needs of a running charger. */
export interface PersistedCharger {
  deploymentId: string;
  orgId: string;
  locationId: string | null;
  /** The actor's persisted snapshot now, or undefined when it is not running any more. */
  persistedSnapshot(): unknown;
  /** The newest stage event (mirrored on the deployment row). */
  last?: StageEvent;
}

interface PendingEvent extends StageEvent {
  orgId: string;
  deploymentId: string | null;
  locationId: string | null;
}

/** Rows per statement: keeps one statement's parameters to a few MB. */
const CHUNK = 500;

export class DeploymentWriteBehind {
  #dirty = new Map<string, PersistedCharger>();
  #events: PendingEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly intervalMs = 250,
  ) {}

  /** The charger's snapshot changed: write it with the next flush. */
  changed(charger: PersistedCharger): void {
    this.#dirty.set(charger.deploymentId, charger);
    this.#schedule();
  }

  stage(charger: PersistedCharger, event: StageEvent): void {
    charger.last = event;
    this.#events.push({
      ...event,
      orgId: charger.orgId,
      deploymentId: charger.deploymentId,
      locationId: charger.locationId,
    });
    this.changed(charger);
  }

  /** A stage event of a charger that never got a deployment (a failed location charger). */
  orphanEvent(orgId: string, locationId: string, event: StageEvent): void {
    this.#events.push({ ...event, orgId, deploymentId: null, locationId });
    this.#schedule();
  }

  /** The deployment is being deleted: drop what is still waiting for it. */
  forget(deploymentId: string): void {
    this.#dirty.delete(deploymentId);
    if (this.#events.some((e) => e.deploymentId === deploymentId))
      this.#events = this.#events.filter((e) => e.deploymentId !== deploymentId);
  }

  /** Writes everything waiting now; resolves once it is in the database (or failed and was kept). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  /** Resolves when the flush in progress (if any) is done. */
  idle(): Promise<void> {
    return this.#flushing;
  }

  close(): Promise<void> {
    return this.flush();
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), this.intervalMs);
    this.#timer.unref();
  }

  async #write(): Promise<void> {
    const events = this.#events;
    const dirty = this.#dirty;
    this.#events = [];
    this.#dirty = new Map();
    let i = 0;
    try {
      for (; i < events.length; i += CHUNK) await this.#insertEvents(events.slice(i, i + CHUNK));
    } catch (err) {
      this.log.warn({ err }, 'deployments: stage events not written, retrying');
      this.#events = [...events.slice(i), ...this.#events];
    }
    const rows = [...dirty.values()].flatMap((c) => {
      const snapshot = c.persistedSnapshot();
      return snapshot === undefined
        ? []
        : [
            {
              id: c.deploymentId,
              snapshot,
              stage: c.last?.stage ?? null,
              outcome: c.last?.outcome ?? null,
              attempt: c.last?.attempt ?? null,
            },
          ];
    });
    try {
      for (let j = 0; j < rows.length; j += CHUNK) await this.#updateSnapshots(rows.slice(j, j + CHUNK));
    } catch (err) {
      this.log.warn({ err }, 'deployments: snapshots not written, retrying');
      for (const [id, c] of dirty) if (!this.#dirty.has(id)) this.#dirty.set(id, c);
    }
    if (this.#events.length > 0 || this.#dirty.size > 0) this.#schedule();
  }

  // Events of a deployment deleted meanwhile are dropped (its row, and with it its log, is gone).
  async #insertEvents(events: PendingEvent[]): Promise<void> {
    await this.db.query(
      `INSERT INTO evc_stage_events (organization_id, deployment_id, location_id, identity, attempt, stage,
         outcome, at, code, hint)
       SELECT u.org, u.dep, u.loc, u.identity, u.attempt, u.stage, u.outcome, u.at, u.code, u.hint
       FROM jsonb_to_recordset($1::jsonb) AS u(org text, dep uuid, loc uuid, identity text, attempt int,
         stage text, outcome text, at timestamptz, code text, hint text, n int)
       WHERE (u.dep IS NULL OR EXISTS (SELECT 1 FROM evc_deployments d WHERE d.id = u.dep))
         AND (u.loc IS NULL OR EXISTS (SELECT 1 FROM evc_locations l WHERE l.id = u.loc))
       ORDER BY u.n`,
      [
        JSON.stringify(
          events.map((e, n) => ({
            org: e.orgId,
            dep: e.deploymentId,
            loc: e.locationId,
            identity: e.identity,
            attempt: e.attempt,
            stage: e.stage,
            outcome: e.outcome,
            at: e.at,
            code: e.code ?? null,
            hint: e.hint ?? null,
            n,
          })),
        ),
      ],
    );
  }

  async #updateSnapshots(rows: Array<Record<string, unknown>>): Promise<void> {
    await this.db.query(
      `UPDATE evc_deployments d
       SET snapshot = u.snapshot, snapshot_version = $2, stage = coalesce(u.stage, d.stage),
           outcome = coalesce(u.outcome, d.outcome), attempt = coalesce(u.attempt, d.attempt), updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, snapshot jsonb, stage text, outcome text, attempt int)
       WHERE d.id = u.id`,
      [JSON.stringify(rows), SNAPSHOT_VERSION],
    );
  }
}
