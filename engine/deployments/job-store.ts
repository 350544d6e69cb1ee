// Background jobs (E7 location deployment, E9 location fan-out), stored so that a restart resumes
// them: `targets` is fixed when the job is accepted, `done` counts the finished head of it.
import type { Queryable } from '../platform/db/database.ts';

export type JobKind = 'deploy_location' | 'runtime_op';

export interface Job<T = unknown> {
  id: string;
  organization_id: string;
  kind: JobKind;
  location_id: string;
  action: string | null;
  targets: T[];
  done: number;
}

export class JobStore {
  constructor(private readonly db: Queryable) {}

  async create<T>(
    orgId: string,
    kind: JobKind,
    locationId: string,
    targets: T[],
    action?: string,
  ): Promise<Job<T>> {
    const { rows } = await this.db.query<Job<T>>(
      `INSERT INTO evc_jobs (organization_id, kind, location_id, action, targets) VALUES ($1, $2, $3, $4, $5::jsonb)
       RETURNING id::text AS id, organization_id, kind, location_id::text AS location_id, action, targets, done`,
      [orgId, kind, locationId, action ?? null, JSON.stringify(targets)],
    );
    return rows[0];
  }

  async unfinished(): Promise<Job[]> {
    const { rows } = await this.db.query<Job>(
      `SELECT id::text AS id, organization_id, kind, location_id::text AS location_id, action, targets, done
       FROM evc_jobs WHERE finished_at IS NULL ORDER BY created_at, id`,
    );
    return rows;
  }

  async progress(id: string, done: number, finished: boolean): Promise<void> {
    await this.db.query(
      `UPDATE evc_jobs SET done = $2, finished_at = CASE WHEN $3 THEN now() ELSE NULL END WHERE id = $1`,
      [id, done, finished],
    );
  }
}
