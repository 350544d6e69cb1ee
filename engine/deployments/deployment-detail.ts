// GET /evcharger/deployments/{deployment_id}: the deployment row and the charger's persisted
// snapshot, read from PostgreSQL (never from a live actor), so every node answers the same.
import {
  chargerView,
  EMPTY_VIEW,
  type ChargerView,
  type ViewedContext,
} from '../../actors/charger/charger-view.ts';
import { SNAPSHOT_VERSION } from '../../actors/charger/charger-ports.ts';
import type { Queryable } from '../platform/db/database.ts';
import { isUuid } from './deployment-store.ts';

/** What reads show of a charger's security settings; secrets themselves never. */
export interface SecuritySummary {
  profile: 0 | 1 | 2 | 3;
  has_password: boolean;
  has_client_cert: boolean;
}

export interface DeploymentDetail extends ChargerView {
  deployment_id: string;
  identity: string;
  ocpp_version: string;
  model: string;
  location_id: string | null;
  stage: string;
  outcome: string;
  security: SecuritySummary;
  updated_at: string;
}

interface DetailRow {
  deployment_id: string;
  identity: string;
  ocpp_version: string;
  model: string;
  location_id: string | null;
  stage: string;
  outcome: string;
  snapshot: { context?: ViewedContext } | null;
  snapshot_version: number | null;
  updated_at: Date;
}

/**
 * The security summary of a deployment row. Profile 0 and no secrets until the security settings
 * of E5/E7 are stored (the security work fills this in from its own columns).
 */
export function securitySummary(_row: unknown): SecuritySummary {
  return { profile: 0, has_password: false, has_client_cert: false };
}

export async function readDeploymentDetail(
  db: Queryable,
  orgId: string,
  deploymentId: string,
): Promise<DeploymentDetail | undefined> {
  if (!isUuid(deploymentId)) return undefined;
  const { rows } = await db.query<DetailRow>(
    `SELECT id::text AS deployment_id, identity, ocpp_version, model, location_id::text AS location_id, stage,
            outcome, snapshot, snapshot_version, updated_at
     FROM evc_deployments WHERE organization_id = $1 AND id = $2`,
    [orgId, deploymentId],
  );
  const row = rows[0];
  if (!row) return undefined;
  // A snapshot of another machine version may name fields this one does not know: not shown.
  const ctx = row.snapshot_version === SNAPSHOT_VERSION ? row.snapshot?.context : undefined;
  return {
    deployment_id: row.deployment_id,
    identity: row.identity,
    ocpp_version: row.ocpp_version,
    model: row.model,
    location_id: row.location_id,
    stage: row.stage,
    outcome: row.outcome,
    security: securitySummary(row),
    ...(ctx ? chargerView(ctx) : EMPTY_VIEW),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
