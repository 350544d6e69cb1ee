// Write-behind for running chargers: stage events and persisted snapshots are buffered and written
// in two multi-row statements per flush, so a boot storm of thousands of chargers costs a handful of
// writes per second instead of one round trip per transition (scheduled by the one BatchWriter).
import type { StageEvent } from '../../actors/charger/charger-ports.ts';
import type { StoredSnapshot } from '../charger/charger-snapshots.ts';
import { BatchWriter } from '../platform/db/batch-writer.ts';
import type { Database } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { CountedCharger, StageEventRetention } from './stage-event-retention.ts';

/** What the writer needs of a running charger. */
export interface PersistedCharger extends CountedCharger {
  deploymentId: string;
  orgId: string;
  locationId: string | null;
  /** The snapshot to store now (engine/charger/charger-snapshots.ts), or undefined when there is none. */
  persistedSnapshot(): StoredSnapshot | undefined;
  /** The newest stage event (mirrored on the deployment row). */
  last?: StageEvent;
}

/** A stage event waiting for the flush, as it came (no copy per event: a boot storm makes ~7 per charger). */
interface PendingEvent {
  event: StageEvent;
  orgId: string;
  deploymentId: string | null;
  locationId: string | null;
}

/** Rows per statement: keeps one statement's parameters to a few MB. */
const CHUNK = 500;

export class DeploymentWriteBehind {
  #dirty = new Map<string, PersistedCharger>();
  #events: PendingEvent[] = [];
  readonly #batch: BatchWriter;

  constructor(
    private readonly db: Database,
    log: Logger,
    private readonly retention?: Pick<StageEventRetention, 'counted'>,
    intervalMs = 250,
  ) {
    this.#batch = new BatchWriter({
      name: 'deployments',
      log,
      delayMs: intervalMs,
      pending: () => this.#events.length > 0 || this.#dirty.size > 0,
      write: () => this.#write(),
    });
  }

  /** The charger's snapshot changed: write it with the next flush. */
  changed(charger: PersistedCharger): void {
    this.#dirty.set(charger.deploymentId, charger);
    this.#batch.schedule();
  }

  stage(charger: PersistedCharger, event: StageEvent): void {
    charger.last = event;
    this.#events.push({
      event,
      orgId: charger.orgId,
      deploymentId: charger.deploymentId,
      locationId: charger.locationId,
    });
    this.retention?.counted(charger);
    this.changed(charger);
  }

  /** A stage event of a charger that never got a deployment (a failed location charger). */
  orphanEvent(orgId: string, locationId: string, event: StageEvent): void {
    this.#events.push({ event, orgId, deploymentId: null, locationId });
    this.#batch.schedule();
  }

  /** The deployment is being deleted: drop what is still waiting for it. */
  forget(deploymentId: string): void {
    this.#dirty.delete(deploymentId);
    if (this.#events.some((e) => e.deploymentId === deploymentId))
      this.#events = this.#events.filter((e) => e.deploymentId !== deploymentId);
  }

  /** Writes everything waiting now; resolves once it is in the database (or failed and was kept). */
  flush(): Promise<void> {
    return this.#batch.flush();
  }

  /** Resolves when the flush in progress (if any) is done. */
  idle(): Promise<void> {
    return this.#batch.idle();
  }

  close(): Promise<void> {
    return this.flush();
  }

  async #write(): Promise<void> {
    const events = this.#events;
    const dirty = this.#dirty;
    this.#events = [];
    this.#dirty = new Map();
    let i = 0;
    let failure: unknown;
    try {
      for (; i < events.length; i += CHUNK) await this.#insertEvents(events.slice(i, i + CHUNK));
    } catch (err) {
      failure = err;
      this.#events = [...events.slice(i), ...this.#events];
    }
    const rows = [...dirty.values()].flatMap((c) => {
      const stored = c.persistedSnapshot();
      return stored === undefined
        ? []
        : [
            {
              id: c.deploymentId,
              snapshot: stored.snapshot,
              version: stored.version,
              stage: c.last?.stage ?? null,
              outcome: c.last?.outcome ?? null,
              attempt: c.last?.attempt ?? null,
              code: c.last?.code ?? null,
              hint: c.last?.hint ?? null,
              // updated_at is when the stage mirrored here changed (its event's time), not when the
              // write-behind got to it (in a boot storm a flush trails its events by a second or
              // more); never back, so a write of the snapshot alone leaves it as it was.
              at: c.last?.at ?? null,
            },
          ];
    });
    try {
      for (let j = 0; j < rows.length; j += CHUNK) await this.#updateSnapshots(rows.slice(j, j + CHUNK));
    } catch (err) {
      failure ??= err;
      for (const [id, c] of dirty) if (!this.#dirty.has(id)) this.#dirty.set(id, c);
    }
    if (failure) throw failure;
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
          events.map(({ event: e, orgId, deploymentId, locationId }, n) => ({
            org: orgId,
            dep: deploymentId,
            loc: locationId,
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
       SET snapshot = u.snapshot, snapshot_version = u.version, stage = coalesce(u.stage, d.stage),
           outcome = coalesce(u.outcome, d.outcome), attempt = coalesce(u.attempt, d.attempt),
           code = CASE WHEN u.stage IS NULL THEN d.code ELSE u.code END,
           hint = CASE WHEN u.stage IS NULL THEN d.hint ELSE u.hint END,
           updated_at = CASE WHEN u.at IS NULL THEN d.updated_at ELSE greatest(d.updated_at, u.at) END
       FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, snapshot jsonb, version int, stage text, outcome text,
         attempt int, code text, hint text, at timestamptz)
       WHERE d.id = u.id`,
      [JSON.stringify(rows)],
    );
  }
}
