// What generated traffic for a location is made of: a time-of-day profile of EV arrivals per
// connector, dwell times and energy needs from distributions, EV battery models, a token pool with
// a share of unknown and blocked tokens, fault and connection-drop rates, and the seed that makes
// a run repeatable. One zod schema for the API and the engine.
import { z } from 'zod';

const idTag = z.string().min(1).max(36);
const distribution = (mean: number, sd: number, min: number, max: number) =>
  z
    .strictObject({
      mean: z.number().positive().max(max).default(mean),
      sd: z.number().min(0).max(max).default(sd),
      min: z.number().min(0).max(max).default(min),
    })
    .prefault({});

/** Arrivals per connector and hour, 00:00 to 23:00: a commuter's day (mornings, evenings). */
export const DEFAULT_ARRIVALS = [
  0.02, 0.01, 0.01, 0.01, 0.02, 0.05, 0.15, 0.35, 0.45, 0.3, 0.2, 0.2, 0.25, 0.25, 0.2, 0.2, 0.25, 0.4, 0.45,
  0.3, 0.2, 0.12, 0.08, 0.04,
];

export const DEFAULT_EV_MODELS = [
  { name: 'compact', battery_kwh: 40, ac_max_kw: 7.4, dc_max_kw: 50, soc_min: 10, soc_max: 60, weight: 3 },
  { name: 'family', battery_kwh: 64, ac_max_kw: 11, dc_max_kw: 100, soc_min: 15, soc_max: 70, weight: 4 },
  { name: 'premium', battery_kwh: 90, ac_max_kw: 22, dc_max_kw: 250, soc_min: 20, soc_max: 80, weight: 2 },
];

export const trafficConfig = z.strictObject({
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .default(1),
  /** Simulated seconds per real second (60: an hour of traffic per real minute). */
  speed: z.number().min(1).max(3600).default(1),
  /** Hour of the day the run's simulated clock starts at. */
  start_hour: z.number().min(0).max(23.99).default(8),
  /** EV arrivals per connector and hour, 24 values. */
  arrivals_per_hour: z.array(z.number().min(0).max(60)).length(24).default(DEFAULT_ARRIVALS),
  dwell_minutes: distribution(90, 60, 5, 24 * 60),
  energy_kwh: distribution(18, 10, 1, 200),
  ev_models: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(50),
        battery_kwh: z.number().positive().max(300),
        ac_max_kw: z.number().positive().max(43),
        dc_max_kw: z.number().positive().max(500),
        soc_min: z.number().min(0).max(100),
        soc_max: z.number().min(0).max(100),
        weight: z.number().positive().max(1000).default(1),
        // V2X: the model can discharge (docs/v2x.md), at most max_discharge_kw, never below min_soc_percent.
        bidirectional: z.boolean().optional(),
        max_discharge_kw: z.number().positive().max(500).optional(),
        min_soc_percent: z.number().min(0).max(100).optional(),
      }),
    )
    .min(1)
    .max(50)
    .default(DEFAULT_EV_MODELS),
  tokens: z
    .strictObject({
      pool: z.array(idTag).min(1).max(10_000).default(['TRAFFIC-0001', 'TRAFFIC-0002', 'TRAFFIC-0003']),
      unknown_share: z.number().min(0).max(1).default(0.05),
      blocked: z.array(idTag).max(1000).default(['TRAFFIC-BLOCKED']),
      blocked_share: z.number().min(0).max(1).default(0.02),
    })
    .prefault({}),
  /** Per charger and hour. */
  fault_rate_per_hour: z.number().min(0).max(10).default(0.01),
  fault_minutes: distribution(20, 10, 1, 24 * 60),
  drop_rate_per_hour: z.number().min(0).max(10).default(0.02),
  /**
   * Start in the steady state instead of with every connector free: the sessions of the simulated
   * day before the start are drawn (silently, same seed), and those still in progress at the start
   * plug in during its first simulated minute.
   */
  warm_start: z.boolean().default(false),
});

export type TrafficConfig = z.output<typeof trafficConfig>;

/** A change of a running traffic run (PATCH): any field but the seed and the start. */
export const trafficChange = trafficConfig.omit({ seed: true, warm_start: true }).partial();
export type TrafficChange = z.output<typeof trafficChange>;
