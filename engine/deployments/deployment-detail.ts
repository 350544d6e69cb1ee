// GET /evcharger/deployments/{deployment_id}: the deployment row and the charger's persisted
// snapshot, read from PostgreSQL (never from a live actor), so every node answers the same.
import { chargerView, EMPTY_VIEW, type ChargerView } from '../../actors/charger/charger-view.ts';
import { storedContext } from '../charger/charger-snapshots.ts';
import type { Queryable } from '../platform/db/database.ts';
import { isUuid } from './deployment-store.ts';
import {
  SECURITY_COLUMNS,
  securityView,
  type SecurityColumns,
  type SecurityView,
} from './charger-security.ts';

export interface DeploymentDetail extends ChargerView {
  deployment_id: string;
  identity: string;
  ocpp_version: string;
  model: string;
  location_id: string | null;
  stage: string;
  outcome: string;
  security: SecurityView;
  updated_at: string;
}

interface DetailRow extends SecurityColumns {
  deployment_id: string;
  identity: string;
  ocpp_version: string;
  model: string;
  location_id: string | null;
  stage: string;
  outcome: string;
  snapshot: unknown;
  snapshot_version: number | null;
  updated_at: Date;
}

export async function readDeploymentDetail(
  db: Queryable,
  orgId: string,
  deploymentId: string,
): Promise<DeploymentDetail | undefined> {
  if (!isUuid(deploymentId)) return undefined;
  const { rows } = await db.query<DetailRow>(
    `SELECT id::text AS deployment_id, identity, ocpp_version, model, location_id::text AS location_id, stage,
            outcome, snapshot, snapshot_version, updated_at, ${SECURITY_COLUMNS}
     FROM evc_deployments WHERE organization_id = $1 AND id = $2`,
    [orgId, deploymentId],
  );
  const row = rows[0];
  if (!row) return undefined;
  // A snapshot of an earlier machine version is upgraded first; one it cannot read is not shown.
  const ctx = storedContext(row.snapshot);
  return {
    deployment_id: row.deployment_id,
    identity: row.identity,
    ocpp_version: row.ocpp_version,
    model: row.model,
    location_id: row.location_id,
    stage: row.stage,
    outcome: row.outcome,
    security: securityView(row),
    ...(ctx ? chargerView(ctx) : EMPTY_VIEW),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
