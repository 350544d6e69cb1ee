// Background jobs (E7 location deployment, E9 location fan-out), stored so that a restart resumes
// them: `targets` is fixed when the job is accepted, `done` counts the finished head of it.
import type { Queryable } from '../platform/db/database.ts';
import { nodeIsLive } from '../platform/node-identity.ts';

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

const COLUMNS =
  'id::text AS id, organization_id, kind, location_id::text AS location_id, action, targets, done';

export class JobStore {
  constructor(
    private readonly db: Queryable,
    /** This node: the one running the jobs it creates or takes over. */
    readonly nodeId: string,
  ) {}

  async create<T>(
    orgId: string,
    kind: JobKind,
    locationId: string,
    targets: T[],
    action?: string,
  ): Promise<Job<T>> {
    const { rows } = await this.db.query<Job<T>>(
      `INSERT INTO evc_jobs (organization_id, kind, location_id, action, targets, node_id)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${COLUMNS}`,
      [orgId, kind, locationId, action ?? null, JSON.stringify(targets), this.nodeId],
    );
    return rows[0];
  }

  /**
   * Unfinished jobs this node may run, now its own: the ones it had (a restart), the ones of nodes
   * no longer live, and the ones of no node; never one it is running (`running`), never one of
   * another live node. Oldest first.
   */
  async claim(running: string[]): Promise<Job[]> {
    const { rows } = await this.db.query<Job>(
      `WITH taken AS (
         UPDATE evc_jobs j SET node_id = $1
         WHERE j.finished_at IS NULL AND NOT (j.id = ANY($2::uuid[]))
           AND (j.node_id IS NULL OR j.node_id = $1 OR NOT ${nodeIsLive('j.node_id')})
         RETURNING j.*)
       SELECT ${COLUMNS} FROM taken ORDER BY created_at, id`,
      [this.nodeId, running],
    );
    return rows;
  }

  /** Progress of a job this node holds; false when another node has taken it over meanwhile. */
  async progress(id: string, done: number, finished: boolean): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE evc_jobs SET done = $2, finished_at = CASE WHEN $3 THEN now() ELSE NULL END
       WHERE id = $1 AND node_id = $4`,
      [id, done, finished, this.nodeId],
    );
    return (rowCount ?? 0) > 0;
  }
}
