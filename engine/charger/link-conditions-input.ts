// The fields that set link conditions (docs/faults.md), as the API's PUT .../link and the scenario
// `link` step take them: a value per direction may be one number for both directions, and what is
// left out is no fault (0, false). One schema and one filling-in for both, so a scenario sets
// exactly what the API would.
import { z } from 'zod';
import type { LinkConditions } from './link-conditions.ts';

export const probability = z.number().min(0).max(1);
/** A minute at most: a frame held longer is a lost connection, which `half_open` and `drop` say better. */
export const millis = z.number().min(0).max(60_000);

/** `{to_csms, from_csms}` (either may be left out: 0) or one number for both. */
function perDirection(value: z.ZodNumber) {
  return z.union([value, z.strictObject({ to_csms: value.optional(), from_csms: value.optional() })]);
}

export const linkConditionsFields = {
  latency_ms: perDirection(millis).optional(),
  jitter_ms: perDirection(millis).optional(),
  drop: perDirection(probability).optional(),
  duplicate: perDirection(probability).optional(),
  reorder_window_ms: millis.optional(),
  unanswered: probability.optional(),
  half_open: z.boolean().optional(),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
};

export const linkConditionsInput = z.strictObject(linkConditionsFields);
export type LinkConditionsInput = z.infer<typeof linkConditionsInput>;

type PerDirectionInput = number | { to_csms?: number; from_csms?: number } | undefined;

const both = (v: PerDirectionInput) =>
  typeof v === 'number'
    ? { to_csms: v, from_csms: v }
    : { to_csms: v?.to_csms ?? 0, from_csms: v?.from_csms ?? 0 };

/** The conditions in force for an input: every field filled in, `seed` when the input has none. */
export function fillConditions(input: LinkConditionsInput, seed: number): LinkConditions {
  return {
    latency_ms: both(input.latency_ms),
    jitter_ms: both(input.jitter_ms),
    drop: both(input.drop),
    duplicate: both(input.duplicate),
    reorder_window_ms: input.reorder_window_ms ?? 0,
    unanswered: input.unanswered ?? 0,
    half_open: input.half_open ?? false,
    seed: input.seed ?? seed,
  };
}
