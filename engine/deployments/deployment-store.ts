// Rows of virtual chargers and their locations. Every read the API answers comes from here (and
// from the stage-event log), never from a live actor.
import type { ChargerModel, OcppVersion, Stage, StageOutcome } from '../../actors/charger/charger-ports.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { SealedSecurity } from './charger-security.ts';
import type { Job } from './job-store.ts';

export interface DeploymentRow {
  id: string;
  organization_id: string;
  location_id: string | null;
  identity: string;
  model: string;
  charger_model: ChargerModel;
  ocpp_version: OcppVersion;
  ws_url: string | null;
  desired: 'running' | 'stopped';
  stage: Stage;
  outcome: StageOutcome;
  attempt: number;
  snapshot: unknown;
  snapshot_version: number | null;
}

export interface NewDeployment {
  identity: string;
  model: string;
  charger_model: ChargerModel;
  ocpp_version: OcppVersion;
  ws_url?: string;
  charger_name?: string;
  brand_slug?: string;
  connector_type?: string;
  location_id?: string;
  /** Sealed: this target is stored as JSON in location jobs too. */
  security?: SealedSecurity;
}

/**
 * One row of GET /evcharger/deployments. A location charger that could not be deployed has no
 * deployment: `deployment_id` null, stage `not_deployed`, outcome `failed`, with its code and hint.
 */
export interface DeploymentListItem {
  deployment_id: string | null;
  identity: string;
  ocpp_version: string | null;
  model: string;
  location_id: string | null;
  stage: Stage;
  outcome: StageOutcome;
  /** Of the newest stage event (null when it had none). */
  code: string | null;
  hint: string | null;
  updated_at: string;
}

/** One row of GET /evcharger/locations. */
export interface LocationListItem {
  location_id: string;
  name: string;
  /** Its deployments (a charger that could not be deployed is not one). */
  chargers: number;
  /** Those asked to run (`desired`): the ones a command or traffic run can reach. */
  running: number;
  created_at: string;
}

/** A location charger that could not be deployed, and why. */
export interface LocationFailure {
  identity: string;
  model: string;
  ocpp_version: OcppVersion | null;
  code: string;
  hint: string;
}

export const ROW = `id::text AS id, organization_id, location_id::text AS location_id, identity, model, charger_model,
  ocpp_version, ws_url, desired, stage, outcome, attempt, snapshot, snapshot_version`;

// Ids are uuids; anything else can name no row (and must not reach a uuid cast).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string): boolean => UUID.test(id);

export class DeploymentStore {
  constructor(private readonly db: Queryable) {}

  /**
   * The rows of new deployments, in one statement; an identity that already has a live deployment
   * in the organization gets none. With a lease, the charger's lease for the node that will run it
   * is written in the same statement. created_at keeps the order given (a location lists its
   * chargers oldest first).
   */
  async createMany(
    orgId: string,
    items: Array<{ deployment: NewDeployment; lease?: { nodeId: string } }>,
  ): Promise<DeploymentRow[]> {
    if (items.length === 0) return [];
    const input = items.map(({ deployment: d, lease }, n) => ({
      n,
      identity: d.identity,
      model: d.model,
      charger_model: d.charger_model,
      ocpp_version: d.ocpp_version,
      ws_url: d.ws_url ?? null,
      charger_name: d.charger_name ?? null,
      brand_slug: d.brand_slug ?? null,
      connector_type: d.connector_type ?? null,
      location_id: d.location_id ?? null,
      // Without ws_url: profile 1 with credentials the built-in central system issues.
      security_profile: d.security?.profile ?? (d.ws_url ? 0 : 1),
      security_has_password: d.security?.has_password ?? false,
      security_has_client_cert: d.security?.has_client_cert ?? false,
      security_sealed: d.security?.sealed ?? null,
      node_id: lease?.nodeId ?? null,
    }));
    const { rows } = await this.db.query<DeploymentRow>(
      `WITH i AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(n integer, identity text, model text,
           charger_model jsonb, ocpp_version text, ws_url text, charger_name text, brand_slug text,
           connector_type text, location_id uuid, security_profile smallint, security_has_password boolean,
           security_has_client_cert boolean, security_sealed text, node_id text)
       ), d AS (
         INSERT INTO evc_deployments (organization_id, identity, model, charger_model, ocpp_version, ws_url,
           charger_name, brand_slug, connector_type, location_id, security_profile, security_has_password,
           security_has_client_cert, security_sealed, created_at)
         SELECT $1, identity, model, charger_model, ocpp_version, ws_url, charger_name, brand_slug,
           connector_type, location_id, security_profile, security_has_password, security_has_client_cert,
           security_sealed, now() + n * interval '1 microsecond'
         FROM i ORDER BY n
         ON CONFLICT (organization_id, identity) DO NOTHING
         RETURNING ${ROW}
       ), lease AS (
         INSERT INTO evc_charger_leases (deployment_id, node_id)
         SELECT d.id::uuid, i.node_id
         FROM d JOIN i ON i.identity = d.identity WHERE i.node_id IS NOT NULL
       )
       SELECT * FROM d`,
      [orgId, JSON.stringify(input)],
    );
    return rows;
  }

  /** The location of each identity that has a deployment in the organization (null: none). */
  async locationsOf(orgId: string, identities: string[]): Promise<Map<string, string | null>> {
    const { rows } = await this.db.query<{ identity: string; location_id: string | null }>(
      `SELECT identity, location_id::text AS location_id FROM evc_deployments
       WHERE organization_id = $1 AND identity = ANY ($2::text[])`,
      [orgId, identities],
    );
    return new Map(rows.map((r) => [r.identity, r.location_id]));
  }

  /**
   * The connectors of each of these deployments of the organization, and whether it is asked to run
   * (missing ids: not there).
   */
  async connectorCounts(
    orgId: string,
    ids: string[],
  ): Promise<Map<string, { connectors: number | null; running: boolean }>> {
    const { rows } = await this.db.query<{ id: string; n: number | null; running: boolean }>(
      `SELECT id::text AS id, (charger_model->>'connector_count')::int AS n, desired = 'running' AS running
       FROM evc_deployments WHERE organization_id = $1 AND id = ANY ($2::uuid[])`,
      [orgId, ids.filter(isUuid)],
    );
    return new Map(rows.map((r) => [r.id, { connectors: r.n, running: r.running }]));
  }

  async get(orgId: string, id: string): Promise<DeploymentRow | undefined> {
    if (!isUuid(id)) return undefined;
    const { rows } = await this.db.query<DeploymentRow>(
      `SELECT ${ROW} FROM evc_deployments WHERE organization_id = $1 AND id = $2`,
      [orgId, id],
    );
    return rows[0];
  }

  /** The deployment ids of a location, oldest first. */
  async idsOfLocation(locationId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      'SELECT id::text AS id FROM evc_deployments WHERE location_id = $1 ORDER BY created_at, id',
      [locationId],
    );
    return rows.map((r) => r.id);
  }

  async setDesired(id: string, desired: 'running' | 'stopped'): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE evc_deployments SET desired = $2, updated_at = now() WHERE id = $1',
      [id, desired],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The deployment's stage events go with it (no foreign key: 1040_stage_event_retention.sql). */
  async delete(orgId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rows } = await this.db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM evc_deployments WHERE organization_id = $1 AND id = $2 RETURNING id),
            events AS (DELETE FROM evc_stage_events WHERE deployment_id IN (SELECT id FROM gone))
       SELECT count(*)::int AS n FROM gone`,
      [orgId, id],
    );
    return rows[0].n > 0;
  }

  /** Deployments and failed location chargers, oldest first. */
  async list(
    orgId: string,
    q: { locationId?: string; limit: number; offset: number },
  ): Promise<{ items: DeploymentListItem[]; next_offset: number | null }> {
    const { rows } = await this.db.query<DeploymentListItem & { updated_at: Date }>(
      `SELECT deployment_id, identity, ocpp_version, model, location_id, stage, outcome, code, hint, updated_at
       FROM (
         SELECT id::text AS deployment_id, identity, ocpp_version, model, location_id::text AS location_id,
                stage, outcome, code, hint, updated_at, created_at, id::text AS k
         FROM evc_deployments
         WHERE organization_id = $1 AND ($2::uuid IS NULL OR location_id = $2::uuid)
         UNION ALL
         SELECT NULL, identity, ocpp_version, model, location_id::text, 'not_deployed', 'failed', code, hint,
                created_at, created_at, 'failure-' || lpad(id::text, 19, '0')
         FROM evc_location_failures
         WHERE organization_id = $1 AND ($2::uuid IS NULL OR location_id = $2::uuid)
       ) u
       ORDER BY created_at, k LIMIT $3 OFFSET $4`,
      [orgId, q.locationId ?? null, q.limit + 1, q.offset],
    );
    const more = rows.length > q.limit;
    const items = rows
      .slice(0, q.limit)
      .map((r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() }));
    return { items, next_offset: more ? q.offset + q.limit : null };
  }

  /** Records location chargers that could not be deployed (none if the location is gone). */
  async recordFailures(orgId: string, locationId: string, failures: LocationFailure[]): Promise<void> {
    if (failures.length === 0) return;
    await this.db.query(
      `INSERT INTO evc_location_failures (organization_id, location_id, identity, model, ocpp_version, code, hint)
       SELECT $1, $2::uuid, f.identity, f.model, f.ocpp_version, f.code, f.hint
       FROM jsonb_to_recordset($3::jsonb) AS f(identity text, model text, ocpp_version text, code text, hint text)
       WHERE EXISTS (SELECT 1 FROM evc_locations l WHERE l.id = $2::uuid)`,
      [orgId, locationId, JSON.stringify(failures)],
    );
  }

  /**
   * Identities that start with `prefix` and are in use: deployments of the organization, chargers
   * of its location deployments still in progress, and charge points of the built-in central
   * system, registered or being deployed by any organization (the OCPP URL names no organization).
   */
  async identitiesWithPrefix(orgId: string, prefix: string): Promise<string[]> {
    const { rows } = await this.db.query<{ identity: string }>(
      `SELECT identity FROM evc_deployments WHERE organization_id = $1 AND left(identity, length($2)) = $2
       UNION
       SELECT t->>'identity' FROM evc_jobs j CROSS JOIN jsonb_array_elements(j.targets) t
       WHERE j.kind = 'deploy_location' AND j.finished_at IS NULL AND (j.organization_id = $1 OR NOT t ? 'ws_url')
         AND left(t->>'identity', length($2)) = $2
       UNION
       SELECT charge_point_id FROM cpo_charge_points WHERE left(charge_point_id, length($2)) = $2`,
      [orgId, prefix],
    );
    return rows.map((r) => r.identity);
  }

  /**
   * Of `identities`, those that cannot be deployed now: with a deployment in the organization or
   * being deployed by one of its unfinished location jobs (`deployed`), or, of `builtIn` (chargers
   * that connect to the built-in central system), registered there or being deployed there by
   * another organization (`elsewhere`).
   */
  async identityConflicts(
    orgId: string,
    identities: string[],
    builtIn: string[],
  ): Promise<{ deployed: Set<string>; elsewhere: Set<string> }> {
    const deployed = await this.db.query<{ identity: string }>(
      `SELECT identity FROM evc_deployments WHERE organization_id = $1 AND identity = ANY ($2::text[])
       UNION
       SELECT t->>'identity' FROM evc_jobs j CROSS JOIN jsonb_array_elements(j.targets) t
       WHERE j.organization_id = $1 AND j.kind = 'deploy_location' AND j.finished_at IS NULL
         AND t->>'identity' = ANY ($2::text[])`,
      [orgId, identities],
    );
    const elsewhere =
      builtIn.length === 0
        ? { rows: [] }
        : await this.db.query<{ identity: string }>(
            `SELECT charge_point_id AS identity FROM cpo_charge_points
             WHERE charge_point_id = ANY ($2::text[]) AND organization_id <> $1
             UNION
             SELECT t->>'identity' FROM evc_jobs j CROSS JOIN jsonb_array_elements(j.targets) t
             WHERE j.organization_id <> $1 AND j.kind = 'deploy_location' AND j.finished_at IS NULL
               AND NOT t ? 'ws_url' AND t->>'identity' = ANY ($2::text[])`,
            [orgId, builtIn],
          );
    return {
      deployed: new Set(deployed.rows.map((r) => r.identity)),
      elsewhere: new Set(elsewhere.rows.map((r) => r.identity)),
    };
  }

  // ---- locations ----

  /**
   * E7's writes in one statement: the location, the chargers that cannot be deployed, and the
   * background job of the others (a job row as JobStore reads it; none without targets). One round
   * trip matters: while a fleet boots, each one waits behind the chargers' traffic.
   */
  async acceptLocation<T>(
    orgId: string,
    l: { nodeId: string; id: string; name: string; body: unknown; failures: LocationFailure[]; targets: T[] },
  ): Promise<Job<T> | undefined> {
    const { rows } = await this.db.query<Job<T>>(
      `WITH loc AS (
         INSERT INTO evc_locations (id, organization_id, name, body) VALUES ($2::uuid, $1, $3, $4::jsonb)
       ), failed AS (
         INSERT INTO evc_location_failures (organization_id, location_id, identity, model, ocpp_version, code, hint)
         SELECT $1, $2::uuid, f.identity, f.model, f.ocpp_version, f.code, f.hint
         FROM jsonb_to_recordset($5::jsonb) AS f(identity text, model text, ocpp_version text, code text, hint text)
       )
       INSERT INTO evc_jobs (organization_id, kind, location_id, action, targets, node_id)
       SELECT $1, 'deploy_location', $2::uuid, NULL, $6::jsonb, $7 WHERE jsonb_array_length($6::jsonb) > 0
       RETURNING id::text AS id, organization_id, kind, location_id::text AS location_id, action, targets, done`,
      [
        orgId,
        l.id,
        l.name,
        JSON.stringify(l.body),
        JSON.stringify(l.failures),
        JSON.stringify(l.targets),
        l.nodeId,
      ],
    );
    return rows[0];
  }

  /**
   * The organization's locations by name (then id), optionally those whose name contains `name`
   * (case-insensitive), each with its chargers counted: deployed, and asked to run.
   */
  async locations(
    orgId: string,
    q: { name?: string; limit: number; offset: number },
  ): Promise<{ items: LocationListItem[]; next_offset: number | null }> {
    const { rows } = await this.db.query<LocationListItem & { created_at: Date }>(
      `SELECT l.id::text AS location_id, l.name, l.created_at,
              count(d.id)::int AS chargers,
              count(d.id) FILTER (WHERE d.desired = 'running')::int AS running
       FROM evc_locations l LEFT JOIN evc_deployments d ON d.location_id = l.id
       WHERE l.organization_id = $1 AND ($2::text IS NULL OR strpos(lower(l.name), lower($2)) > 0)
       GROUP BY l.id
       ORDER BY l.name, l.id LIMIT $3 OFFSET $4`,
      [orgId, q.name ?? null, q.limit + 1, q.offset],
    );
    const more = rows.length > q.limit;
    const items = rows
      .slice(0, q.limit)
      .map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
    return { items, next_offset: more ? q.offset + q.limit : null };
  }

  async locationExists(orgId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rows } = await this.db.query(
      'SELECT 1 FROM evc_locations WHERE organization_id = $1 AND id = $2',
      [orgId, id],
    );
    return rows.length > 0;
  }

  /**
   * Hard delete: the location's deployments, failures and jobs go with it (cascade), and the stage
   * events of the location and of its deployments in the same statement.
   */
  async deleteLocation(orgId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rows } = await this.db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM evc_locations WHERE organization_id = $1 AND id = $2 RETURNING id),
            located AS (DELETE FROM evc_stage_events e USING gone WHERE e.location_id = gone.id),
            deployed AS (DELETE FROM evc_stage_events e USING gone, evc_deployments d
                         WHERE d.location_id = gone.id AND e.deployment_id = d.id)
       SELECT count(*)::int AS n FROM gone`,
      [orgId, id],
    );
    return rows[0].n > 0;
  }
}
