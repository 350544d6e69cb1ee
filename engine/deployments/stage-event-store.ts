// E10 reads of the stage-event log: newest first, filtered in SQL, bounded by `limit`; and its
// retention (engine/deployments/stage-event-retention.ts).
import type { StageEvent } from '../../actors/charger/charger-ports.ts';
import type { Queryable } from '../platform/db/database.ts';

export type OutcomeFilter = 'failed' | 'stuck' | 'recovered' | 'alerts' | 'all';

const OUTCOMES: Record<OutcomeFilter, string[] | null> = {
  failed: ['failed'],
  stuck: ['stuck'],
  recovered: ['recovered'],
  alerts: ['failed', 'stuck', 'recovered'],
  all: null,
};

export interface EventQuery {
  since?: Date;
  outcome: OutcomeFilter;
  identity?: string;
  limit: number;
}

export class StageEventStore {
  constructor(private readonly db: Queryable) {}

  async recent(orgId: string, q: EventQuery): Promise<StageEvent[]> {
    const { rows } = await this.db.query<StageEvent & { at: Date; code: string | null; hint: string | null }>(
      `SELECT identity, attempt, stage, outcome, at, code, hint FROM evc_stage_events
       WHERE organization_id = $1
         AND ($2::timestamptz IS NULL OR at > $2)
         AND ($3::text[] IS NULL OR outcome = ANY ($3))
         AND ($4::text IS NULL OR identity = $4)
       ORDER BY at DESC, id DESC LIMIT $5`,
      [orgId, q.since ?? null, OUTCOMES[q.outcome], q.identity ?? null, q.limit],
    );
    return rows.map((r) => {
      const e: StageEvent = {
        identity: r.identity,
        attempt: r.attempt,
        stage: r.stage,
        outcome: r.outcome,
        at: new Date(r.at).toISOString(),
      };
      if (r.code !== null) e.code = r.code;
      if (r.hint !== null) e.hint = r.hint;
      return e;
    });
  }

  /** Keeps the newest `max` events of each of these deployments; answers how many went. */
  async pruneCount(deploymentIds: readonly string[], max: number): Promise<number> {
    if (deploymentIds.length === 0) return 0;
    const { rowCount } = await this.db.query(
      `DELETE FROM evc_stage_events e
       USING (SELECT k.dep, (SELECT x.id FROM evc_stage_events x WHERE x.deployment_id = k.dep
                             ORDER BY x.id DESC OFFSET $2 LIMIT 1) AS cutoff
              FROM unnest($1::uuid[]) AS k(dep)) c
       WHERE e.deployment_id = c.dep AND c.cutoff IS NOT NULL AND e.id <= c.cutoff`,
      [deploymentIds, max],
    );
    return rowCount ?? 0;
  }

  /** Drops every event older than the retention. */
  async pruneAge(hours: number): Promise<number> {
    const { rowCount } = await this.db.query(
      'DELETE FROM evc_stage_events WHERE at < now() - make_interval(hours => $1)',
      [hours],
    );
    return rowCount ?? 0;
  }
}
