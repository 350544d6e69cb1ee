// Request shapes of the OCPP message log: a page (newest first, `before` an item id) and a live
// stream (with an optional replay of the newest items).
import { z } from 'zod';
import { intString } from '../http/validation.ts';

export const OCPP_LOG_LIMIT_MAX = 500;
export const OCPP_LOG_REPLAY_MAX = 500;

export const ocppLogQuery = z.object({
  limit: intString(z.number().min(1).max(OCPP_LOG_LIMIT_MAX)).optional().default(100),
  before: intString(z.number().min(1).max(Number.MAX_SAFE_INTEGER)).optional(),
  action: z.string().min(1).max(100).optional(),
  direction: z.enum(['in', 'out']).optional(),
});

export const ocppLogStreamQuery = z.object({
  replay: intString(z.number().min(0).max(OCPP_LOG_REPLAY_MAX)).optional().default(0),
});
