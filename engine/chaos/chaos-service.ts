// Fleet chaos runs of one process, per organization (docs/faults.md, "Fleet chaos runs"): started
// on a location's running chargers or the organization's whole fleet, read while they run, stopped.
// Each step goes to the nodes holding the chargers (chaos-bus.ts), and what the chargers saw comes
// back from them. Held in memory, as traffic runs are: a run is an experiment of this process.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../platform/db/database.ts';
import { dropOldestEnded } from '../platform/keep-newest.ts';
import { isUuid } from '../deployments/deployment-store.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { ChaosBus } from './chaos-bus.ts';
import type { ChaosConfig } from './chaos-config.ts';
import type { ChaosReport } from './chaos-report.ts';
import { ChaosRun, type ChaosCharger, type ChaosStatus } from './chaos-run.ts';

export interface ChaosRunView {
  run_id: string;
  status: ChaosStatus;
  location_id: string | null;
  profile: ChaosConfig['profile'];
  share: number;
  duration_s: number;
  seed: number;
  spread_s: number;
  settle_s: number;
  /** Running chargers the share was taken of. */
  chargers: number;
  /** Faults done so far (power off and on, network off and on, reboots, sessions started and ended). */
  injected: number;
  started_at: string;
  ended_at: string | null;
  report: ChaosReport;
}

interface Held {
  orgId: string;
  locationId: string | null;
  run: ChaosRun;
}

export type ChaosStart =
  | { kind: 'started'; view: ChaosRunView }
  | { kind: 'not_found' }
  /** No running charger to act on. */
  | { kind: 'no_chargers' }
  /** A run is active on the same chargers (the location, or the whole fleet). */
  | { kind: 'busy'; run_id: string };

/** Ended runs kept per organization. */
export const KEEP_ENDED = 100;

export class ChaosService {
  readonly #runs = new Map<string, Held>();

  constructor(private readonly d: { db: Queryable; bus: ChaosBus; log: Logger }) {
    d.bus.onSeen = (runId, deploymentId, seen) => this.#runs.get(runId)?.run.observe(deploymentId, seen);
  }

  async start(orgId: string, config: ChaosConfig): Promise<ChaosStart> {
    const locationId = config.location_id ?? null;
    if (locationId !== null) {
      if (!isUuid(locationId)) return { kind: 'not_found' };
      const { rows } = await this.d.db.query(
        'SELECT 1 FROM evc_locations WHERE organization_id = $1 AND id = $2',
        [orgId, locationId],
      );
      if (rows.length === 0) return { kind: 'not_found' };
    }
    // A location's run and a fleet run touch the same chargers: one at a time.
    for (const [id, h] of this.#runs)
      if (
        h.orgId === orgId &&
        h.run.status === 'running' &&
        (h.locationId === null || locationId === null || h.locationId === locationId)
      )
        return { kind: 'busy', run_id: id };
    const { rows } = await this.d.db.query<{ id: string; identity: string }>(
      `SELECT id::text AS id, identity FROM evc_deployments
       WHERE organization_id = $1 AND desired = 'running' AND ($2::uuid IS NULL OR location_id = $2::uuid)`,
      [orgId, locationId],
    );
    if (rows.length === 0) return { kind: 'no_chargers' };
    // In a stable order, so a charger's place (and its draws) is the same run after run.
    const chargers: ChaosCharger[] = rows
      .map((r) => ({ key: r.id, identity: r.identity }))
      .sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : a.key < b.key ? -1 : 1));
    const runId = randomUUID();
    const run = new ChaosRun(
      config,
      chargers,
      (step, targets) =>
        void this.d.bus
          .send(
            runId,
            step,
            targets.map((t) => t.key),
          )
          .catch((err: unknown) =>
            this.d.log.warn({ err, runId, step, chargers: targets.length }, 'chaos step not sent'),
          ),
      Date.now,
      () => this.#evict(orgId),
    );
    this.#runs.set(runId, { orgId, locationId, run });
    return { kind: 'started', view: view(runId, this.#runs.get(runId)!) };
  }

  get(orgId: string, runId: string): ChaosRunView | undefined {
    const held = this.#held(orgId, runId);
    return held && view(runId, held);
  }

  /** The organization's runs, newest first. */
  list(orgId: string): ChaosRunView[] {
    return [...this.#runs]
      .filter(([, h]) => h.orgId === orgId)
      .map(([id, h]) => view(id, h))
      .reverse();
  }

  /** The faults done so far, in order. */
  injected(orgId: string, runId: string) {
    return this.#held(orgId, runId)?.run.done;
  }

  /** Ends a run now: power and network come back, EVs leave; the report stays. */
  stop(orgId: string, runId: string): ChaosRunView | undefined {
    const held = this.#held(orgId, runId);
    if (!held) return undefined;
    held.run.stop();
    return view(runId, held);
  }

  close(): void {
    for (const h of this.#runs.values()) h.run.stop();
  }

  #evict(orgId: string): void {
    dropOldestEnded(this.#runs, (h) => h.orgId === orgId && h.run.status !== 'running', KEEP_ENDED);
  }

  #held(orgId: string, runId: string): Held | undefined {
    const held = this.#runs.get(runId);
    return held && held.orgId === orgId ? held : undefined;
  }
}

function view(id: string, h: Held): ChaosRunView {
  const { run } = h;
  const c = run.config;
  return {
    run_id: id,
    status: run.status,
    location_id: h.locationId,
    profile: c.profile,
    share: c.share,
    duration_s: c.duration_s,
    seed: c.seed,
    spread_s: c.spread_s,
    settle_s: c.settle_s,
    chargers: run.chargers.length,
    injected: run.done.length,
    started_at: new Date(run.startedAt).toISOString(),
    ended_at: run.endedAt === null ? null : new Date(run.endedAt).toISOString(),
    report: run.report(),
  };
}
