// E10 reads of the stage-event log: newest first, filtered in SQL, bounded by `limit`; and its
// retention (engine/deployments/stage-event-retention.ts).
import type { StageEvent } from '../../actors/charger/charger-ports.ts';
import type { Queryable } from '../platform/db/database.ts';
import { dropOlderThan, keepNewest, type LogTable } from '../platform/db/retention.ts';

const STAGE_EVENTS: LogTable = { table: 'evc_stage_events', owner: 'deployment_id' };

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

  /** Keeps the newest `max` events of each of these deployments. */
  pruneCount(deploymentIds: readonly string[], max: number): Promise<number> {
    return keepNewest(this.db, STAGE_EVENTS, deploymentIds, max);
  }

  /** Drops every event older than the retention. */
  pruneAge(hours: number): Promise<number> {
    return dropOlderThan(this.db, STAGE_EVENTS, hours);
  }
}
