// The nodes' figures in the database: each node's row (written by FiguresPublisher), the live
// nodes' rows read back, and the fleet's counts that the database already holds (stages).
import type { Queryable } from '../platform/db/database.ts';
import { nodeIsLive } from '../platform/node-identity.ts';
import type { NodeFigures } from './csms-measurements.ts';

export class FiguresStore {
  constructor(private readonly db: Queryable) {}

  async write(nodeId: string, figures: NodeFigures): Promise<void> {
    await this.db.query(
      `INSERT INTO evc_node_figures (node_id, written_at, figures) VALUES ($1, now(), $2)
       ON CONFLICT (node_id) DO UPDATE SET written_at = now(), figures = EXCLUDED.figures`,
      [nodeId, JSON.stringify(figures)],
    );
  }

  async remove(nodeId: string): Promise<void> {
    await this.db.query('DELETE FROM evc_node_figures WHERE node_id = $1', [nodeId]);
  }

  /** The rows of the live nodes other than `nodeId` (whose figures the caller has in memory). */
  async othersLive(nodeId: string): Promise<NodeFigures[]> {
    const { rows } = await this.db.query<{ figures: NodeFigures }>(
      `SELECT f.figures FROM evc_node_figures f WHERE f.node_id <> $1 AND ${nodeIsLive('f.node_id')}`,
      [nodeId],
    );
    return rows.map((r) => r.figures);
  }

  /** Every deployment of every organization by stage. */
  async stages(): Promise<Record<string, number>> {
    const { rows } = await this.db.query<{ stage: string; n: string }>(
      'SELECT stage, count(*) AS n FROM evc_deployments GROUP BY stage',
    );
    return Object.fromEntries(rows.map((r) => [r.stage, Number(r.n)]));
  }

  /** Live nodes (every role). */
  async liveNodes(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM evc_nodes WHERE expires_at > now()',
    );
    return Number(rows[0]?.n ?? 0);
  }
}
