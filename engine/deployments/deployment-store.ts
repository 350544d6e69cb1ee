// Rows of virtual chargers and their locations. Every read the API answers comes from here (and
// from the stage-event log), never from a live actor.
import type {
  ChargerModel,
  ChargerOcppVersion,
  Stage,
  StageOutcome,
} from '../../actors/charger/charger-ports.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { SealedSecurity } from './charger-security.ts';

export interface DeploymentRow {
  id: string;
  organization_id: string;
  location_id: string | null;
  identity: string;
  model: string;
  charger_model: ChargerModel;
  ocpp_version: ChargerOcppVersion;
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
  ocpp_version: ChargerOcppVersion;
  ws_url?: string;
  charger_name?: string;
  brand_slug?: string;
  connector_type?: string;
  location_id?: string;
  /** Sealed: this target is stored as JSON in location jobs too. */
  security?: SealedSecurity;
}

export interface DeploymentListItem {
  deployment_id: string;
  identity: string;
  ocpp_version: string;
  model: string;
  location_id: string | null;
  stage: Stage;
  outcome: StageOutcome;
  updated_at: string;
}

const ROW = `id::text AS id, organization_id, location_id::text AS location_id, identity, model, charger_model,
  ocpp_version, ws_url, desired, stage, outcome, attempt, snapshot, snapshot_version`;

// Ids are uuids; anything else can name no row (and must not reach a uuid cast).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string): boolean => UUID.test(id);

export class DeploymentStore {
  constructor(private readonly db: Queryable) {}

  /** undefined when the identity already has a live deployment in the organization. */
  async create(orgId: string, d: NewDeployment): Promise<DeploymentRow | undefined> {
    const { rows } = await this.db.query<DeploymentRow>(
      `INSERT INTO evc_deployments (organization_id, identity, model, charger_model, ocpp_version, ws_url,
         charger_name, brand_slug, connector_type, location_id, security_profile, security_has_password,
         security_has_client_cert, security_sealed)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (organization_id, identity) DO NOTHING
       RETURNING ${ROW}`,
      [
        orgId,
        d.identity,
        d.model,
        JSON.stringify(d.charger_model),
        d.ocpp_version,
        d.ws_url ?? null,
        d.charger_name ?? null,
        d.brand_slug ?? null,
        d.connector_type ?? null,
        d.location_id ?? null,
        // Without ws_url: profile 1 with credentials the built-in central system issues.
        d.security?.profile ?? (d.ws_url ? 0 : 1),
        d.security?.has_password ?? false,
        d.security?.has_client_cert ?? false,
        d.security?.sealed ?? null,
      ],
    );
    return rows[0];
  }

  async get(orgId: string, id: string): Promise<DeploymentRow | undefined> {
    if (!isUuid(id)) return undefined;
    const { rows } = await this.db.query<DeploymentRow>(
      `SELECT ${ROW} FROM evc_deployments WHERE organization_id = $1 AND id = $2`,
      [orgId, id],
    );
    return rows[0];
  }

  async byIdentity(orgId: string, identity: string): Promise<DeploymentRow | undefined> {
    const { rows } = await this.db.query<DeploymentRow>(
      `SELECT ${ROW} FROM evc_deployments WHERE organization_id = $1 AND identity = $2`,
      [orgId, identity],
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

  async delete(orgId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rowCount } = await this.db.query(
      'DELETE FROM evc_deployments WHERE organization_id = $1 AND id = $2',
      [orgId, id],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Every deployment this process must run after a start, in pages (snapshots can be large). */
  async *running(pageSize = 500): AsyncGenerator<DeploymentRow[]> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.db.query<DeploymentRow>(
        `SELECT ${ROW} FROM evc_deployments WHERE desired = 'running' AND id > $1 ORDER BY id LIMIT $2`,
        [after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }

  async list(
    orgId: string,
    q: { locationId?: string; limit: number; offset: number },
  ): Promise<{ items: DeploymentListItem[]; next_offset: number | null }> {
    const { rows } = await this.db.query<DeploymentListItem & { updated_at: Date }>(
      `SELECT id::text AS deployment_id, identity, ocpp_version, model, location_id::text AS location_id, stage,
              outcome, updated_at
       FROM evc_deployments
       WHERE organization_id = $1 AND ($2::uuid IS NULL OR location_id = $2::uuid)
       ORDER BY created_at, id LIMIT $3 OFFSET $4`,
      [orgId, q.locationId ?? null, q.limit + 1, q.offset],
    );
    const more = rows.length > q.limit;
    const items = rows
      .slice(0, q.limit)
      .map((r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() }));
    return { items, next_offset: more ? q.offset + q.limit : null };
  }

  // ---- locations ----

  async createLocation(orgId: string, name: string, body: unknown): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO evc_locations (organization_id, name, body) VALUES ($1, $2, $3::jsonb) RETURNING id::text AS id`,
      [orgId, name, JSON.stringify(body)],
    );
    return rows[0].id;
  }

  async locationExists(orgId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rows } = await this.db.query(
      'SELECT 1 FROM evc_locations WHERE organization_id = $1 AND id = $2',
      [orgId, id],
    );
    return rows.length > 0;
  }

  /** Hard delete: the location's deployments, their events and its jobs go with it (cascade). */
  async deleteLocation(orgId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rowCount } = await this.db.query(
      'DELETE FROM evc_locations WHERE organization_id = $1 AND id = $2',
      [orgId, id],
    );
    return (rowCount ?? 0) > 0;
  }
}
