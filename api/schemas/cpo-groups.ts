// Request bodies and parameters of token groups (E20) and voucher groups (E24). Every string,
// number and list is bounded (docs/operations.md).
import { z } from 'zod';
import { intString } from '../http/validation.ts';

export const createTokenGroupBody = z.strictObject({
  name: z.string().min(1).max(255),
  location_ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(10_000).default([]),
});
export type CreateTokenGroupBody = z.infer<typeof createTokenGroupBody>;

export const createVoucherGroupBody = z.strictObject({
  name: z.string().min(1).max(255),
  voucher_count: z.number().int().min(0).max(100_000).default(0),
});
export type CreateVoucherGroupBody = z.infer<typeof createVoucherGroupBody>;

export const groupPath = z.object({ id: intString(z.number().min(1).max(2_147_483_647)) });

/** Past any real list; keeps OFFSET a small number for the database. */
export const OFFSET_MAX = 1_000_000_000;

export const groupLocationsQuery = z.object({
  offset: intString(z.number().min(0).max(OFFSET_MAX)).optional().default(0),
  limit: intString(z.number().min(1).max(200)).optional().default(50),
});
