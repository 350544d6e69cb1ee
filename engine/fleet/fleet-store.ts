// The console's fleet reads: counts by stage and a searchable page of deployments, answered by
// PostgreSQL (server-side paging), so a fleet of 10,000 chargers costs the browser one page.
import type { Queryable } from '../platform/db/database.ts';
import type { DeploymentListItem } from '../deployments/deployment-store.ts';

export interface FleetQuery {
  /** Part of the identity or model, case-insensitive. */
  q?: string;
  stage?: string;
  outcome?: string;
  /** The chargers of one location. */
  location_id?: string;
  limit: number;
  offset: number;
}

/** A connector as the fleet shows it: its status and, while it charges, its power. */
export interface FleetConnector {
  connector_id: number;
  status: string;
  power_w: number;
}

/**
 * A row of the deployment list, always of a deployment (failures are not in the fleet), with its
 * connectors as the newest stored snapshot has them (none before the charger's first snapshot).
 */
export type FleetItem = DeploymentListItem & {
  deployment_id: string;
  ocpp_version: string;
  connectors: FleetConnector[];
};

export interface FleetPage {
  items: FleetItem[];
  /** Deployments matching the filters (all pages). */
  total: number;
  next_offset: number | null;
}

export interface FleetSummary {
  total: number;
  stages: Record<string, number>;
  outcomes: Record<string, number>;
}

/** LIKE treats % and _ as wildcards; a search for them means the characters themselves. */
const likeText = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class FleetStore {
  constructor(private readonly db: Queryable) {}

  async page(orgId: string, f: FleetQuery): Promise<FleetPage> {
    const { rows } = await this.db.query<Omit<FleetItem, 'connectors'> & { updated_at: Date; total: string }>(
      `SELECT id::text AS deployment_id, identity, ocpp_version, model, location_id::text AS location_id,
              stage, outcome, code, hint, updated_at, count(*) OVER () AS total
       FROM evc_deployments
       WHERE organization_id = $1
         AND ($2::text IS NULL OR identity ILIKE $2 OR model ILIKE $2)
         AND ($3::text IS NULL OR stage = $3)
         AND ($4::text IS NULL OR outcome = $4)
         AND ($7::text IS NULL OR location_id::text = $7)
       ORDER BY evc_natural_key(identity), identity, id LIMIT $5 OFFSET $6`,
      [
        orgId,
        f.q ? likeText(f.q) : null,
        f.stage ?? null,
        f.outcome ?? null,
        f.limit,
        f.offset,
        f.location_id ?? null,
      ],
    );
    const total = rows.length > 0 ? Number(rows[0].total) : await this.#count(orgId, f);
    const connectors = await this.#connectors(
      orgId,
      rows.map((r) => r.deployment_id),
    );
    const items = rows.map(({ total: _t, ...r }) => ({
      ...r,
      updated_at: new Date(r.updated_at).toISOString(),
      connectors: connectors.get(r.deployment_id) ?? [],
    }));
    return { items, total, next_offset: f.offset + items.length < total ? f.offset + items.length : null };
  }

  async summary(orgId: string): Promise<FleetSummary> {
    const { rows } = await this.db.query<{ stage: string; outcome: string; n: string }>(
      `SELECT stage, outcome, count(*) AS n FROM evc_deployments WHERE organization_id = $1 GROUP BY stage, outcome`,
      [orgId],
    );
    const out: FleetSummary = { total: 0, stages: {}, outcomes: {} };
    for (const r of rows) {
      const n = Number(r.n);
      out.total += n;
      out.stages[r.stage] = (out.stages[r.stage] ?? 0) + n;
      out.outcomes[r.outcome] = (out.outcomes[r.outcome] ?? 0) + n;
    }
    return out;
  }

  /**
   * The connectors of a page's deployments in one query, read from the stored snapshots (so any
   * node answers, as the charger's detail does); only the connectors' part of each snapshot travels.
   */
  async #connectors(orgId: string, ids: string[]): Promise<Map<string, FleetConnector[]>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.db.query<{ id: string; connectors: unknown }>(
      `SELECT id::text AS id, snapshot -> 'context' -> 'connectors' AS connectors
       FROM evc_deployments WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
      [orgId, ids],
    );
    return new Map(rows.map((r) => [r.id, connectorsOf(r.connectors)]));
  }

  /** An offset past the last page: how many match, for the pager. */
  async #count(orgId: string, f: FleetQuery): Promise<number> {
    if (f.offset === 0) return 0;
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM evc_deployments
       WHERE organization_id = $1
         AND ($2::text IS NULL OR identity ILIKE $2 OR model ILIKE $2)
         AND ($3::text IS NULL OR stage = $3)
         AND ($4::text IS NULL OR outcome = $4)
         AND ($5::text IS NULL OR location_id::text = $5)`,
      [orgId, f.q ? likeText(f.q) : null, f.stage ?? null, f.outcome ?? null, f.location_id ?? null],
    );
    return Number(rows[0].n);
  }
}

/** The connectors of a stored context; anything unreadable is left out rather than guessed. */
function connectorsOf(stored: unknown): FleetConnector[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((c: { id?: unknown; status?: unknown; powerW?: unknown }) =>
    typeof c?.id === 'number' && typeof c.status === 'string'
      ? [
          {
            connector_id: c.id,
            status: c.status,
            power_w: typeof c.powerW === 'number' ? Math.round(c.powerW) : 0,
          },
        ]
      : [],
  );
}

/** The stored snapshot's state value of an organization's deployment; undefined when it has none. */
export async function storedStateValue(
  db: Queryable,
  orgId: string,
  deploymentId: string,
): Promise<{ value: unknown } | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(deploymentId)) return undefined;
  const { rows } = await db.query<{ value: unknown }>(
    `SELECT snapshot -> 'value' AS value FROM evc_deployments WHERE organization_id = $1 AND id = $2`,
    [orgId, deploymentId],
  );
  return rows[0] ? { value: rows[0].value ?? null } : undefined;
}
