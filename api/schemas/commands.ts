// Request shapes of the command endpoints (E11-E15 and the EV-session commands): a target plus the
// command's payload, as declared once in engine/commands/command-kinds.ts (defaults filled in:
// what the 202 answer and E16 show).
import { z } from 'zod';
import { COMMAND_KINDS, EVENT_TYPES, type EventType } from '../../engine/commands/command-kinds.ts';
import { maskCommand } from '../../engine/commands/command-secrets.ts';
import { SECRET_MASK } from '../../protocols/ocpp/secret-values.ts';
import { ValidationError, type ValidationIssue } from '../http/errors.ts';
import { parse } from '../http/validation.ts';

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

/** The body, or a 422 whose `input`s show a secret of the payload masked, as reads do. */
export function parseCommandBody(schema: z.ZodType, input: unknown): unknown {
  try {
    return parse(schema, input, 'body');
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const shown = maskCommand(input);
    if (shown === input) throw err;
    // A secret is masked either inside the input, or as the input itself (its name is a level up).
    const safe = (i: ValidationIssue): unknown =>
      i.input !== null && typeof i.input === 'object'
        ? maskCommand(i.input)
        : valueAt(shown, i.loc.slice(1)) === SECRET_MASK
          ? SECRET_MASK
          : i.input;
    throw new ValidationError(err.issues.map((i) => ('input' in i ? { ...i, input: safe(i) } : i)));
  }
}

function valueAt(root: unknown, path: Array<string | number>): unknown {
  let v = root;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}
