// The lease tables (migrations 1030, 1031): node presence and one lease per charger a node holds.
// A lease is live while its node's presence is (one row renewed per tick, whatever the fleet's
// size); every statement here is per node and per tick or per batch, never per charger. Claims of
// lapsed chargers return their rows (snapshots included) to resume them.
import type { Queryable } from '../platform/db/database.ts';
import { nodeIsLive } from '../platform/node-identity.ts';
import { ROW, type DeploymentRow } from '../deployments/deployment-store.ts';

export type NodeRole = 'api' | 'engine' | 'all';

export interface Presence {
  nodeId: string;
  run: string;
  role: NodeRole;
  engine: boolean;
  /** Chargers the node holds now (what placement balances). */
  chargers: number;
}

export interface LiveNode {
  node_id: string;
  engine: boolean;
  chargers: number;
}

const TTL = (n: number) => `now() + make_interval(secs => $${n}::double precision)`;
/** The lease `l` belongs to a live node. */
const HELD = (l: string) => nodeIsLive(`${l}.node_id`);
const D_ROW = ROW.split(',')
  .map((c) => `d.${c.trim()}`)
  .join(', ');

export class LeaseStore {
  constructor(
    private readonly db: Queryable,
    private readonly ttlSeconds: number,
  ) {}

  /**
   * The node's presence renewed (its leases live with it). `lapsed`: it had expired before this
   * renewal (the node was frozen or cut off past the TTL), so other nodes may have claimed its chargers.
   */
  async renew(p: Presence): Promise<{ lapsed: boolean }> {
    const { rows } = await this.db.query<{ lapsed: boolean }>(
      `WITH before AS (SELECT expires_at FROM evc_nodes WHERE node_id = $1), up AS (
         INSERT INTO evc_nodes (node_id, run, role, engine, heartbeat_at, expires_at, chargers)
         VALUES ($1, $2, $3, $4, now(), ${TTL(5)}, $6)
         ON CONFLICT (node_id) DO UPDATE SET run = EXCLUDED.run, role = EXCLUDED.role, engine = EXCLUDED.engine,
           heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at, chargers = EXCLUDED.chargers
       )
       SELECT coalesce((SELECT expires_at <= now() FROM before), false) AS lapsed`,
      [p.nodeId, p.run, p.role, p.engine, this.ttlSeconds, p.chargers],
    );
    return { lapsed: rows[0]?.lapsed ?? false };
  }

  /** Live nodes, whether each runs chargers, and what each held at its last renewal. */
  async liveNodes(): Promise<LiveNode[]> {
    const { rows } = await this.db.query<LiveNode>(
      `SELECT node_id, engine, chargers FROM evc_nodes WHERE expires_at > now() ORDER BY node_id`,
    );
    return rows;
  }

  /** Running chargers whose lease is this node's (a node started again under its id), in pages. */
  async *own(nodeId: string, pageSize: number): AsyncGenerator<DeploymentRow[]> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.db.query<DeploymentRow>(
        `SELECT ${D_ROW} FROM evc_deployments d JOIN evc_charger_leases l ON l.deployment_id = d.id
         WHERE l.node_id = $1 AND d.desired = 'running' AND d.id > $2 ORDER BY d.id LIMIT $3`,
        [nodeId, after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }

  /**
   * Claims running chargers without a live lease (never leased, or their node is gone): this
   * node's fair share (the fleet over the live engine nodes, less what it holds), at least its
   * part of the lapsed ones, at most `limit`. Two nodes claiming at once cannot both win a charger
   * (the upsert moves only a lapsed lease). Returns the rows claimed, snapshots included.
   */
  async claim(nodeId: string, limit: number): Promise<DeploymentRow[]> {
    const { rows } = await this.db.query<DeploymentRow>(
      `WITH engines AS (
         SELECT greatest(count(*), 1)::numeric AS n FROM evc_nodes WHERE engine AND expires_at > now()
       ), running AS (
         SELECT d.id, l.node_id, coalesce(${HELD('l')}, false) AS held FROM evc_deployments d
         LEFT JOIN evc_charger_leases l ON l.deployment_id = d.id WHERE d.desired = 'running'
       ), lapsed AS (
         SELECT id FROM running WHERE NOT held
       ), quota AS (
         SELECT greatest(
           ceil((SELECT count(*) FROM running) / (SELECT n FROM engines))
             - (SELECT count(*) FROM running WHERE node_id = $1 AND held),
           ceil((SELECT count(*) FROM lapsed) / (SELECT n FROM engines)))::int AS q
       ), claimed AS (
         INSERT INTO evc_charger_leases AS l (deployment_id, node_id)
         SELECT id, $1 FROM lapsed ORDER BY id LIMIT least((SELECT q FROM quota), $2)
         ON CONFLICT (deployment_id) DO UPDATE SET node_id = EXCLUDED.node_id
           WHERE l.node_id = EXCLUDED.node_id OR NOT ${HELD('l')}
         RETURNING deployment_id
       )
       SELECT ${D_ROW} FROM evc_deployments d JOIN claimed c ON c.deployment_id = d.id ORDER BY d.id`,
      [nodeId, limit],
    );
    return rows;
  }

  /** The charger's lease for `nodeId` unless another live node holds it; true when it is the node's now. */
  async take(deploymentId: string, nodeId: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `INSERT INTO evc_charger_leases AS l (deployment_id, node_id) VALUES ($1, $2)
       ON CONFLICT (deployment_id) DO UPDATE SET node_id = EXCLUDED.node_id
         WHERE l.node_id = EXCLUDED.node_id OR NOT ${HELD('l')}
       RETURNING 1`,
      [deploymentId, nodeId],
    );
    return rows.length > 0;
  }

  /** The live node holding the charger's lease, if any. */
  async ownerOf(deploymentId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ node_id: string }>(
      `SELECT node_id FROM evc_charger_leases l WHERE deployment_id = $1 AND ${HELD('l')}`,
      [deploymentId],
    );
    return rows[0]?.node_id;
  }

  /** The live owners of these chargers (one statement for a location's chargers). */
  async ownersOf(ids: string[]): Promise<{ id: string; node_id: string }[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<{ id: string; node_id: string }>(
      `SELECT deployment_id::text AS id, node_id FROM evc_charger_leases l
       WHERE deployment_id = ANY($1::uuid[]) AND ${HELD('l')}`,
      [ids],
    );
    return rows;
  }

  /** The chargers this node has a lease on, and whether each should run. */
  async leasedBy(nodeId: string): Promise<{ id: string; running: boolean }[]> {
    const { rows } = await this.db.query<{ id: string; running: boolean }>(
      `SELECT d.id::text AS id, d.desired = 'running' AS running FROM evc_charger_leases l
       JOIN evc_deployments d ON d.id = l.deployment_id WHERE l.node_id = $1`,
      [nodeId],
    );
    return rows;
  }

  /** Rows of these chargers that this node has a lease on (sent to it by another node's API). */
  async rowsLeased(nodeId: string, ids: string[]): Promise<DeploymentRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<DeploymentRow>(
      `SELECT ${D_ROW} FROM evc_deployments d JOIN evc_charger_leases l ON l.deployment_id = d.id
       WHERE l.node_id = $1 AND d.id = ANY($2::uuid[])`,
      [nodeId, ids],
    );
    return rows;
  }

  /** Leases of this node on these chargers end (they no longer run here). */
  async release(nodeId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `DELETE FROM evc_charger_leases WHERE node_id = $1 AND deployment_id = ANY($2::uuid[])`,
      [nodeId, ids],
    );
  }

  /** The node leaves (SIGTERM): its leases end at once and its presence with them, in one statement. */
  async leave(nodeId: string): Promise<void> {
    await this.db.query(
      `WITH gone AS (UPDATE evc_nodes SET expires_at = now(), chargers = 0 WHERE node_id = $1)
       DELETE FROM evc_charger_leases WHERE node_id = $1`,
      [nodeId],
    );
  }

  /**
   * Charge points shown online through a built-in central system whose node is gone (killed, its
   * presence lapsed) are offline. The central system records `node id / run` as the connection's node.
   */
  async offlineAtGoneNodes(): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE cpo_charge_points c SET is_online = false, node_id = NULL
       WHERE c.node_id IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM evc_nodes n WHERE n.node_id || '/' || n.run = c.node_id AND n.expires_at > now())`,
    );
    return rowCount ?? 0;
  }
}
