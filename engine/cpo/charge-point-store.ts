// Charge points registered in the CPO area (E22), their Basic-auth credentials for the built-in
// central system, and what the central system recorded about them (connectors, sessions).
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../platform/db/database.ts';
import { hashPassword } from '../platform/secrets/password-hash.ts';

export interface ChargePointInput {
  charge_point_id: string;
  ocpp_version?: string;
  charge_point_vendor?: string;
  charge_point_model?: string;
  location_id?: number;
  coordinates?: string;
  floor_level?: string;
  parking_restrictions?: string[];
  capabilities?: string[];
  max_power_kw?: number;
  connector_type?: string;
  connector_count?: number;
  accessibility?: string;
  use_status_notification_0?: boolean;
  image_url?: string;
  is_roaming?: boolean;
}

export interface ChargePoint {
  id: string;
  organization_id: string;
  charge_point_id: string;
  is_online: boolean;
  is_roaming: boolean;
  use_status_notification_0: boolean;
  revision: number;
  ocpp_version: string | null;
  charge_point_vendor: string | null;
  charge_point_model: string | null;
  charge_point_serial_number: string | null;
  charge_box_serial_number: string | null;
  firmware_version: string | null;
  last_heartbeat: string | null;
  iccid: string | null;
  imsi: string | null;
  meter_type: string | null;
  meter_serial_number: string | null;
  coordinates: string | null;
  floor_level: string | null;
  parking_restrictions: string[] | null;
  capabilities: string[] | null;
  max_power_kw: number | null;
  connector_type: string | null;
  connector_count: number | null;
  accessibility: string | null;
  location_id: number | null;
  image_url: string | null;
  proxy_urls: Record<string, unknown> | null;
  responded_at: string | null;
  has_credentials: boolean;
  created_at: string;
  updated_at: string;
}

export interface ConnectorStatus {
  evse_id: number;
  connector_id: number;
  status: string;
  error_code: string | null;
  updated_at: string;
}

export interface Session {
  transaction_id: string;
  evse_id: number | null;
  connector_id: number | null;
  id_tag: string | null;
  status: string;
  meter_start_wh: number | null;
  meter_last_wh: number | null;
  meter_stop_wh: number | null;
  started_at: string | null;
  stopped_at: string | null;
  stop_reason: string | null;
}

const COLUMNS = `id::text AS id, organization_id, charge_point_id, is_online, is_roaming, use_status_notification_0,
  revision, ocpp_version, charge_point_vendor, charge_point_model, charge_point_serial_number,
  charge_box_serial_number, firmware_version, last_heartbeat, iccid, imsi, meter_type, meter_serial_number,
  coordinates, floor_level, parking_restrictions, capabilities, max_power_kw, connector_type, connector_count,
  accessibility, location_id, image_url, proxy_urls, responded_at, password_hash IS NOT NULL AS has_credentials,
  created_at, updated_at`;

const INPUT_FIELDS = [
  'charge_point_id',
  'ocpp_version',
  'charge_point_vendor',
  'charge_point_model',
  'location_id',
  'coordinates',
  'floor_level',
  'parking_restrictions',
  'capabilities',
  'max_power_kw',
  'connector_type',
  'connector_count',
  'accessibility',
  'use_status_notification_0',
  'image_url',
  'is_roaming',
] as const;
const JSON_FIELDS: ReadonlySet<string> = new Set(['parking_restrictions', 'capabilities']);

/**
 * How an issued password reaches the virtual charger of its charge point (the deployments engine
 * provides it): sealed for the charger, written in the same statement as the hash, so a re-issue
 * keeps the charger connecting and no crash can leave the two apart.
 */
export interface CredentialsHandOver {
  seal(orgId: string, chargePointId: string, password: string): string;
  /** The deployments that got the password (after the statement). */
  handedOver(orgId: string, chargePointId: string, sealed: string, deploymentIds: string[]): void;
}

function isoDates<T>(row: Record<string, unknown>): T {
  for (const [k, v] of Object.entries(row)) if (v instanceof Date) row[k] = v.toISOString();
  return row as T;
}

export class ChargePointStore {
  #handOver: CredentialsHandOver | undefined;

  constructor(private readonly db: Queryable) {}

  handOverCredentials(to: CredentialsHandOver): void {
    this.#handOver = to;
  }

  /** The organization that registered an OCPP identity (identities are unique across the service). */
  async ownerOf(chargePointId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ organization_id: string }>(
      'SELECT organization_id FROM cpo_charge_points WHERE charge_point_id = $1',
      [chargePointId],
    );
    return rows[0]?.organization_id;
  }

  /** undefined when the OCPP identity is taken (by any organization). */
  async create(orgId: string, input: ChargePointInput): Promise<ChargePoint | undefined> {
    const names = INPUT_FIELDS.filter((k) => input[k] !== undefined);
    const values = names.map((k) => (JSON_FIELDS.has(k) ? JSON.stringify(input[k]) : input[k]));
    const params = names.map((k, i) => `$${i + 2}${JSON_FIELDS.has(k) ? '::jsonb' : ''}`);
    try {
      const { rows } = await this.db.query(
        `INSERT INTO cpo_charge_points (organization_id, ${names.join(', ')}) VALUES ($1, ${params.join(', ')})
         RETURNING ${COLUMNS}`,
        [orgId, ...values],
      );
      return isoDates<ChargePoint>(rows[0]);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return undefined;
      throw err;
    }
  }

  async get(orgId: string, chargePointId: string): Promise<ChargePoint | undefined> {
    const { rows } = await this.db.query(
      `SELECT ${COLUMNS} FROM cpo_charge_points WHERE organization_id = $1 AND charge_point_id = $2`,
      [orgId, chargePointId],
    );
    return rows[0] && isoDates<ChargePoint>(rows[0]);
  }

  /**
   * A new random password (the previous one stops working); username is the OCPP identity. The
   * hash is stored; the virtual charger of this identity gets the password (sealed).
   */
  async issueCredentials(
    orgId: string,
    chargePointId: string,
  ): Promise<{ username: string; password: string } | undefined> {
    // 24 base64url characters: within OCPP's 16-40 character password rule for every version.
    const password = randomBytes(18).toString('base64url');
    const salt = randomBytes(16).toString('base64url');
    const sealed = this.#handOver?.seal(orgId, chargePointId, password) ?? null;
    // One statement, so atomic without a transaction: the hash for the central system, the sealed
    // password for the organization's virtual charger of this identity (deployed without ws_url).
    const { rows } = await this.db.query<{ found: number; handed: string[] }>(
      `WITH cp AS (
         UPDATE cpo_charge_points SET password_salt = $3, password_hash = $4, revision = revision + 1, updated_at = now()
         WHERE organization_id = $1 AND charge_point_id = $2 RETURNING id),
       d AS (
         UPDATE evc_deployments SET security_profile = 1, security_has_password = true,
           security_has_client_cert = false, security_sealed = $5, updated_at = now()
         WHERE $5::text IS NOT NULL AND organization_id = $1 AND identity = $2 AND ws_url IS NULL
           AND EXISTS (SELECT 1 FROM cp)
         RETURNING id::text AS id)
       SELECT (SELECT count(*) FROM cp)::int AS found, COALESCE((SELECT array_agg(id) FROM d), '{}') AS handed`,
      [orgId, chargePointId, salt, hashPassword(password, salt), sealed],
    );
    if (!rows[0]?.found) return undefined;
    if (sealed && rows[0].handed.length > 0)
      this.#handOver!.handedOver(orgId, chargePointId, sealed, rows[0].handed);
    return { username: chargePointId, password };
  }

  async connectors(orgId: string, chargePointId: string): Promise<ConnectorStatus[] | undefined> {
    const { rows } = await this.db.query(
      `SELECT c.id IS NOT NULL AS found, s.evse_id, s.connector_id, s.status, s.error_code, s.updated_at
       FROM (SELECT id FROM cpo_charge_points WHERE organization_id = $1 AND charge_point_id = $2) c
       LEFT JOIN cpo_connector_status s ON s.charge_point_pk = c.id
       ORDER BY s.evse_id, s.connector_id`,
      [orgId, chargePointId],
    );
    if (rows.length === 0) return undefined;
    return rows.filter((r) => r.status !== null).map(({ found: _f, ...r }) => isoDates<ConnectorStatus>(r));
  }

  async sessions(orgId: string, chargePointId: string): Promise<Session[] | undefined> {
    const { rows } = await this.db.query(
      `SELECT s.transaction_id, s.evse_id, s.connector_id, s.id_tag, s.status, s.meter_start_wh, s.meter_last_wh,
              s.meter_stop_wh, s.started_at, s.stopped_at, s.stop_reason, c.id IS NOT NULL AS found
       FROM (SELECT id FROM cpo_charge_points WHERE organization_id = $1 AND charge_point_id = $2) c
       LEFT JOIN cpo_sessions s ON s.charge_point_pk = c.id
       ORDER BY s.id`,
      [orgId, chargePointId],
    );
    if (rows.length === 0) return undefined;
    return rows.filter((r) => r.transaction_id !== null).map(({ found: _f, ...r }) => isoDates<Session>(r));
  }
}
