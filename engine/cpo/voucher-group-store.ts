// Voucher groups and their vouchers. Deleting a group deletes every voucher in one transaction,
// or nothing when the group holds more than the configured maximum.
import type { Database } from '../platform/db/database.ts';

export interface VoucherGroup {
  id: number;
  name: string;
  voucher_count: number;
}

export type DeleteOutcome = 'deleted' | 'not_found' | 'too_many';

export class VoucherGroupStore {
  constructor(
    private readonly db: Database,
    private readonly deleteMax: number,
  ) {}

  async create(orgId: string, name: string, voucherCount: number): Promise<VoucherGroup> {
    return this.db.tx(async (q) => {
      const { rows } = await q.query<{ id: number }>(
        'INSERT INTO cpo_voucher_groups (organization_id, name) VALUES ($1, $2) RETURNING id',
        [orgId, name],
      );
      const id = rows[0].id;
      // One statement for all vouchers: each gets a random 16-hex-digit code.
      if (voucherCount > 0)
        await q.query(
          `INSERT INTO cpo_vouchers (group_id, code)
           SELECT $1, upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)) FROM generate_series(1, $2)`,
          [id, voucherCount],
        );
      return { id, name, voucher_count: voucherCount };
    });
  }

  async remove(orgId: string, groupId: number): Promise<DeleteOutcome> {
    return this.db.tx(async (q) => {
      // Locks the group so vouchers cannot be counted, then added, then deleted past the limit.
      const { rows } = await q.query(
        'SELECT id FROM cpo_voucher_groups WHERE id = $1 AND organization_id = $2 FOR UPDATE',
        [groupId, orgId],
      );
      if (rows.length === 0) return 'not_found';
      const { rows: counted } = await q.query<{ n: number }>(
        'SELECT count(*) AS n FROM cpo_vouchers WHERE group_id = $1',
        [groupId],
      );
      if (counted[0].n > this.deleteMax) return 'too_many';
      await q.query('DELETE FROM cpo_vouchers WHERE group_id = $1', [groupId]);
      await q.query('DELETE FROM cpo_voucher_groups WHERE id = $1', [groupId]);
      return 'deleted';
    });
  }
}
