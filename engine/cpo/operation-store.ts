// Operations sent to charge points (E23 reboot): one row per tracking id, pending until the
// charger answers, fails or times out. The charge point's responded_at follows its answers.
import type { Queryable } from '../platform/db/database.ts';

export type OperationStatus = 'Pending' | 'Failed' | 'TimedOut' | string;

export interface Operation {
  tracking_id: string;
  charge_point_id: string;
  action: string;
  request: unknown;
  status: OperationStatus;
  response: unknown;
  error: string | null;
  created_at: string;
  responded_at: string | null;
}

export class OperationStore {
  constructor(private readonly db: Queryable) {}

  async create(
    orgId: string,
    trackingId: string,
    chargePointPk: string,
    action: string,
    request: unknown,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO cpo_operations (tracking_id, organization_id, charge_point_pk, action, request, status)
       VALUES ($1, $2, $3, $4, $5::jsonb, 'Pending')`,
      [trackingId, orgId, chargePointPk, action, JSON.stringify(request)],
    );
  }

  /** The charger answered: status is the answer's status field (Accepted, Rejected, ...). */
  async answered(
    trackingId: string,
    chargePointPk: string,
    response: Record<string, unknown>,
  ): Promise<void> {
    await this.db.query(
      `WITH op AS (
         UPDATE cpo_operations SET status = $2, response = $3::jsonb, responded_at = now() WHERE tracking_id = $1
       )
       UPDATE cpo_charge_points SET responded_at = now() WHERE id = $4`,
      [trackingId, String(response.status ?? 'Answered'), JSON.stringify(response), chargePointPk],
    );
  }

  async failed(trackingId: string, status: 'Failed' | 'TimedOut', error: string): Promise<void> {
    await this.db.query('UPDATE cpo_operations SET status = $2, error = $3 WHERE tracking_id = $1', [
      trackingId,
      status,
      error,
    ]);
  }

  async get(orgId: string, trackingId: string): Promise<Operation | undefined> {
    const { rows } = await this.db.query<Operation>(
      `SELECT o.tracking_id::text AS tracking_id, c.charge_point_id, o.action, o.request, o.status, o.response, o.error,
              o.created_at, o.responded_at
       FROM cpo_operations o JOIN cpo_charge_points c ON c.id = o.charge_point_pk
       WHERE o.tracking_id = $1 AND o.organization_id = $2`,
      [trackingId, orgId],
    );
    const row = rows[0] as unknown as Record<string, unknown> | undefined;
    if (!row) return undefined;
    for (const k of ['created_at', 'responded_at'])
      if (row[k] instanceof Date) row[k] = (row[k] as Date).toISOString();
    return row as unknown as Operation;
  }
}
