// The central system's direct (not batched) writes: what a BootNotification says, and one
// session row per transaction.
import type { Queryable } from '../platform/db/database.ts';

export interface KnownChargePoint {
  pk: string;
  charge_point_id: string;
  organization_id: string;
  ocpp_version: string | null;
  password_salt: string | null;
  password_hash: string | null;
  use_status_notification_0: boolean;
  connector_count: number | null;
}

export interface BootInfo {
  vendor: string;
  model: string;
  chargePointSerialNumber?: string;
  chargeBoxSerialNumber?: string;
  firmwareVersion?: string;
  iccid?: string;
  imsi?: string;
  meterType?: string;
  meterSerialNumber?: string;
}

export interface TransactionUpdate {
  transactionId: string;
  ended: boolean;
  evseId?: number;
  connectorId?: number;
  idTag?: string;
  meterWh?: number;
  at: Date;
  stopReason?: string;
}

export class CsmsStore {
  constructor(private readonly db: Queryable) {}

  async boot(pk: string, version: string, info: BootInfo): Promise<void> {
    await this.db.query(
      `UPDATE cpo_charge_points SET ocpp_version = $2, charge_point_vendor = $3, charge_point_model = $4,
         charge_point_serial_number = coalesce($5, charge_point_serial_number),
         charge_box_serial_number = coalesce($6, charge_box_serial_number),
         firmware_version = coalesce($7, firmware_version), iccid = coalesce($8, iccid), imsi = coalesce($9, imsi),
         meter_type = coalesce($10, meter_type), meter_serial_number = coalesce($11, meter_serial_number)
       WHERE id = $1`,
      [
        pk,
        version,
        info.vendor,
        info.model,
        info.chargePointSerialNumber ?? null,
        info.chargeBoxSerialNumber ?? null,
        info.firmwareVersion ?? null,
        info.iccid ?? null,
        info.imsi ?? null,
        info.meterType ?? null,
        info.meterSerialNumber ?? null,
      ],
    );
  }

  /** OCPP 1.6 StartTransaction: the central system hands out the (integer) transaction id. */
  async startTransaction(
    pk: string,
    connectorId: number,
    idTag: string,
    meterStartWh: number,
    at: Date,
  ): Promise<number> {
    const { rows } = await this.db.query<{ transaction_id: string }>(
      `INSERT INTO cpo_sessions (charge_point_pk, transaction_id, evse_id, connector_id, id_tag, status,
         meter_start_wh, meter_last_wh, started_at)
       VALUES ($1, nextval('cpo_transaction_ids')::text, $2, $3, $4, 'ACTIVE', $5, $5, $6)
       RETURNING transaction_id`,
      [pk, connectorId, connectorId > 0 ? 1 : 0, idTag, meterStartWh, at],
    );
    return Number(rows[0].transaction_id);
  }

  /** 1.6 StopTransaction, 2.x TransactionEvent, MeterValues: one upsert keeps the session current. */
  async updateTransaction(pk: string, u: TransactionUpdate): Promise<void> {
    await this.db.query(
      `INSERT INTO cpo_sessions AS s (charge_point_pk, transaction_id, evse_id, connector_id, id_tag, status,
         meter_start_wh, meter_last_wh, meter_stop_wh, started_at, stopped_at, stop_reason, updated_at)
       VALUES ($1, $2, $3::int, $4::int, $5::text, CASE WHEN $6::boolean THEN 'COMPLETED' ELSE 'ACTIVE' END,
         $7::double precision, $7::double precision, CASE WHEN $6::boolean THEN $7::double precision END,
         $8::timestamptz, CASE WHEN $6::boolean THEN $8::timestamptz END, $9::text, now())
       ON CONFLICT (charge_point_pk, transaction_id) DO UPDATE SET
         evse_id = coalesce(s.evse_id, EXCLUDED.evse_id),
         connector_id = coalesce(s.connector_id, EXCLUDED.connector_id),
         id_tag = coalesce(s.id_tag, EXCLUDED.id_tag),
         status = CASE WHEN $6::boolean THEN 'COMPLETED' ELSE s.status END,
         meter_start_wh = coalesce(s.meter_start_wh, EXCLUDED.meter_start_wh),
         meter_last_wh = coalesce(EXCLUDED.meter_last_wh, s.meter_last_wh),
         meter_stop_wh = CASE WHEN $6::boolean THEN coalesce(EXCLUDED.meter_last_wh, s.meter_last_wh) ELSE s.meter_stop_wh END,
         stopped_at = CASE WHEN $6::boolean THEN EXCLUDED.started_at ELSE s.stopped_at END,
         stop_reason = coalesce(EXCLUDED.stop_reason, s.stop_reason),
         updated_at = now()`,
      [
        pk,
        u.transactionId,
        u.evseId ?? null,
        u.connectorId ?? null,
        u.idTag ?? null,
        u.ended,
        u.meterWh ?? null,
        u.at,
        u.stopReason ?? null,
      ],
    );
  }

  /** MeterValues of a known transaction; values of unknown transactions are dropped. */
  async meterValue(pk: string, transactionId: string, meterWh: number): Promise<void> {
    await this.db.query(
      `UPDATE cpo_sessions SET meter_last_wh = $3, updated_at = now()
       WHERE charge_point_pk = $1 AND transaction_id = $2`,
      [pk, transactionId, meterWh],
    );
  }
}
