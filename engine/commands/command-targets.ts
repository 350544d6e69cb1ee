// Which chargers a command goes to (spec "Command target"), shared by every command endpoint:
// deployment_id or identity names one charger, location_id (optionally narrowed by charger_ids)
// names many. Only the caller's organization is searched: another organization's charger is not found.
import type { OcppVersion } from '../../actors/charger/charger-ports.ts';
import type { Queryable } from '../platform/db/database.ts';
import { isUuid } from '../deployments/deployment-store.ts';

export interface CommandTarget {
  deployment_id?: string;
  identity?: string;
  location_id?: string;
  charger_ids?: string[];
}

export interface TargetCharger {
  id: string;
  identity: string;
  ocpp_version: OcppVersion;
  /** Its model's connectors (numbered 1..n), when the stored model says. */
  connector_count?: number | null;
  /** The live node holding the charger's lease (its commands go to that node), if any. */
  node_id?: string | null;
}

export interface TargetFailure {
  error: string;
  identity?: string;
}

export type Resolution =
  /** 400: the target itself is malformed. */
  | { kind: 'invalid'; detail: string }
  /** 404 */
  | { kind: 'not_found'; detail: string }
  | { kind: 'resolved'; chargers: TargetCharger[]; failed: TargetFailure[] };

// The node holding the charger: its lease lives as long as the node's presence (lease-store.ts).
const COLUMNS = `id::text AS id, identity, ocpp_version,
  (charger_model->>'connector_count')::int AS connector_count, (SELECT l.node_id FROM evc_charger_leases l
  JOIN evc_nodes n ON n.node_id = l.node_id AND n.expires_at > now()
  WHERE l.deployment_id = evc_deployments.id) AS node_id`;

export async function resolveTarget(db: Queryable, orgId: string, t: CommandTarget): Promise<Resolution> {
  const one = t.deployment_id !== undefined || t.identity !== undefined;
  if (one && t.location_id !== undefined)
    return {
      kind: 'invalid',
      detail:
        'Invalid command target: deployment_id and identity name one charger, location_id names a location; send one or the other',
    };
  if (!one && t.location_id === undefined)
    return {
      kind: 'invalid',
      detail: 'Invalid command target: give deployment_id, identity or location_id',
    };
  if (t.charger_ids !== undefined && t.location_id === undefined)
    return { kind: 'invalid', detail: 'Invalid command target: charger_ids narrows a location_id target' };
  return one ? resolveOne(db, orgId, t) : resolveLocation(db, orgId, t.location_id!, t.charger_ids);
}

async function resolveOne(db: Queryable, orgId: string, t: CommandTarget): Promise<Resolution> {
  let row: TargetCharger | undefined;
  if (t.deployment_id !== undefined) {
    if (isUuid(t.deployment_id))
      row = (
        await db.query<TargetCharger>(
          `SELECT ${COLUMNS} FROM evc_deployments WHERE organization_id = $1 AND id = $2`,
          [orgId, t.deployment_id],
        )
      ).rows[0];
    if (!row) return { kind: 'not_found', detail: `Charger '${t.deployment_id}' not found` };
    if (t.identity !== undefined && t.identity !== row.identity)
      return {
        kind: 'invalid',
        detail: `Invalid command target: deployment_id '${t.deployment_id}' is not the charger '${t.identity}'`,
      };
  } else {
    row = (
      await db.query<TargetCharger>(
        `SELECT ${COLUMNS} FROM evc_deployments WHERE organization_id = $1 AND identity = $2`,
        [orgId, t.identity],
      )
    ).rows[0];
    if (!row) return { kind: 'not_found', detail: `Charger '${t.identity}' not found` };
  }
  return { kind: 'resolved', chargers: [row], failed: [] };
}

async function resolveLocation(
  db: Queryable,
  orgId: string,
  locationId: string,
  chargerIds: string[] | undefined,
): Promise<Resolution> {
  const notFound: Resolution = { kind: 'not_found', detail: `Location '${locationId}' not found` };
  if (!isUuid(locationId)) return notFound;
  const { rows: loc } = await db.query('SELECT 1 FROM evc_locations WHERE organization_id = $1 AND id = $2', [
    orgId,
    locationId,
  ]);
  if (loc.length === 0) return notFound;
  const { rows } = await db.query<TargetCharger>(
    `SELECT ${COLUMNS} FROM evc_deployments WHERE organization_id = $1 AND location_id = $2 ORDER BY created_at, id`,
    [orgId, locationId],
  );
  if (chargerIds === undefined) {
    if (rows.length === 0)
      return { kind: 'not_found', detail: `Location '${locationId}' has no deployed chargers` };
    return { kind: 'resolved', chargers: rows, failed: [] };
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const chargers: TargetCharger[] = [];
  const failed: TargetFailure[] = [];
  for (const id of new Set(chargerIds)) {
    const row = byId.get(id.toLowerCase());
    if (row) chargers.push(row);
    else failed.push({ error: `Charger '${id}' not found in location '${locationId}'` });
  }
  return { kind: 'resolved', chargers, failed };
}
