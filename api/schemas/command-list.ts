// Query of GET /evcharger/commands: filters, and offset paging newest first.
import { z } from 'zod';
import { intString } from '../http/validation.ts';
import type { CommandStatus } from '../../engine/commands/command-outcome.ts';

export const COMMAND_LIST_LIMIT_MAX = 500;

const STATUSES = [
  'queued',
  'received',
  'sent',
  'completed',
  'rejected',
  'failed',
  'timed_out',
] as const satisfies readonly CommandStatus[];

export const commandListQuery = z.object({
  deployment_id: z.string().min(1).optional(),
  status: z.enum(STATUSES).optional(),
  limit: intString(z.number().min(1).max(COMMAND_LIST_LIMIT_MAX)).optional().default(50),
  offset: intString(z.number().min(0)).optional().default(0),
});
