// Request shapes of the command endpoints (E11-E15 and the EV-session commands): a target plus the
// command's payload, as declared once in engine/commands/command-kinds.ts (defaults filled in:
// what the 202 answer and E16 show).
import { z } from 'zod';
import { COMMAND_KINDS, EVENT_TYPES, type EventType } from '../../engine/commands/command-kinds.ts';

/** Spec "Command target": the rules between the fields are checked after parsing (400). */
export const commandTarget = z.strictObject({
  deployment_id: z.string().min(1).max(64).optional(),
  identity: z.string().min(1).max(48).optional(),
  location_id: z.string().min(1).max(64).optional(),
  charger_ids: z.array(z.string().min(1).max(64)).max(10_000).optional(),
});

const body = <P extends z.ZodType>(payload: P) => z.strictObject({ target: commandTarget, payload });

/** The request body of each command. */
export const commandBodies = {} as Record<EventType, z.ZodType>;
for (const type of EVENT_TYPES) commandBodies[type] = body(COMMAND_KINDS[type].payload as z.ZodType);

export const commandIdPath = z.object({ command_id: z.string().max(64) });
