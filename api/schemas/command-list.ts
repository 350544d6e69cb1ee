// Query of GET /evcharger/commands: filters, and offset paging newest first.
import { z } from 'zod';
import { intString } from '../http/validation.ts';
import { COMMAND_STATUSES, type CommandStatus } from '../../engine/commands/command-outcome.ts';
import { OFFSET_MAX } from './cpo-groups.ts';

export const COMMAND_LIST_LIMIT_MAX = 500;

export const commandListQuery = z.object({
  deployment_id: z.string().min(1).max(64).optional(),
  // Every status a command can have, `interrupted` included.
  status: z.enum(COMMAND_STATUSES as readonly [CommandStatus, ...CommandStatus[]]).optional(),
  limit: intString(z.number().min(1).max(COMMAND_LIST_LIMIT_MAX)).optional().default(50),
  offset: intString(z.number().min(0).max(OFFSET_MAX)).optional().default(0),
});
