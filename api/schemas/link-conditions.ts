// Request and answer shapes of the link conditions (docs/faults.md): PUT
// /evcharger/deployments/{deployment_id}/link and /evcharger/locations/{location_id}/link. A value
// per direction may be one number for both directions; what is left out is no fault (0, false); a
// missing seed is drawn here, so the answer always says the seed in force. The body's fields are
// the scenario `link` step's too (engine/charger/link-conditions-input.ts).
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { LinkConditions } from '../../engine/charger/link-conditions.ts';
import {
  fillConditions,
  linkConditionsInput,
  millis,
  probability,
} from '../../engine/charger/link-conditions-input.ts';

export const locationLinkPath = z.object({ location_id: z.string().min(1).max(64) });

export const linkConditionsBody = linkConditionsInput;

/** The conditions in force for a body: every field filled in, the seed drawn when not given. */
export function conditionsOf(body: z.infer<typeof linkConditionsBody>): LinkConditions {
  return fillConditions(body, randomInt(0, 2 ** 32 - 1));
}

/** POST .../link/misbehave: one misbehaviour on purpose (docs/faults.md#misbehaving-on-purpose). */
export const misbehaviourBody = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('raw_text'),
    text: z.string().min(1).max(65_536).describe('Written on the socket now, exactly as given'),
  }),
  z.strictObject({
    kind: z.literal('edit_next_call'),
    action: z.string().min(1).max(100).describe('The next CALL of this action the charger writes'),
    payload: z
      .record(z.string().max(128), z.unknown())
      .describe('Fields of its payload replaced by these (null removes one)'),
  }),
  z.strictObject({
    kind: z.literal('wrong_message_id'),
    message_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("The id the charger's next answer carries (default: its own with -wrong appended)"),
  }),
]);

export const misbehaviourAccepted = z.object({ detail: z.string() });

const directions = (value: z.ZodNumber) => z.object({ to_csms: value, from_csms: value });

/** 200: the conditions in force, and how many running chargers they were sent to. */
export const linkConditionsAnswer = z.object({
  latency_ms: directions(millis),
  jitter_ms: directions(millis),
  drop: directions(probability),
  duplicate: directions(probability),
  reorder_window_ms: millis,
  unanswered: probability,
  half_open: z.boolean(),
  seed: z.number().int(),
  chargers: z.number().int().describe('Running chargers the conditions were sent to'),
});
