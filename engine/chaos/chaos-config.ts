// What a fleet chaos run is made of (docs/faults.md, "Fleet chaos runs"): the profile, the share of
// the chargers it touches, how long, and the seed that picks them and their timings. One zod schema
// for the API and the engine.
import { z } from 'zod';

export const CHAOS_PROFILES = ['blackout', 'partition', 'rolling_restart', 'surge'] as const;
export type ChaosProfile = (typeof CHAOS_PROFILES)[number];

export const chaosConfig = z.strictObject({
  /** A location of the organization; left out: every running charger of the organization. */
  location_id: z.string().min(1).max(64).optional(),
  profile: z.enum(CHAOS_PROFILES),
  /** The share of the running chargers the run touches (rounded to a whole number of chargers). */
  share: z.number().min(0).max(1),
  /** How long the power or network is away, the restarts are spread over, the sessions last. */
  duration_s: z.number().positive().max(86_400),
  /** Drawn when left out; the run's view says it. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  /** Beyond the contract: each charger's own offset, drawn from the seed in [0, spread_s] (a boot's time, ...). */
  spread_s: z.number().min(0).max(3600).default(0),
  /** Beyond the contract: how long after its last fault the run waits for the chargers to come back. */
  settle_s: z.number().min(1).max(86_400).default(600),
});

export type ChaosConfigInput = z.input<typeof chaosConfig>;
/** As the run holds it: the seed drawn when it was left out. */
export type ChaosConfig = Omit<z.output<typeof chaosConfig>, 'seed'> & { seed: number };

/** The configuration with its seed: the given one, or one drawn now. */
export function withSeed(c: z.output<typeof chaosConfig>): ChaosConfig {
  return { ...c, seed: c.seed ?? Math.floor(Math.random() * 2 ** 32) };
}
