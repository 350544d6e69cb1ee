// Request shapes of fleet chaos runs (POST/GET/DELETE /chaos-runs); the run's own fields are the
// engine's schema (engine/chaos/chaos-config.ts).
import { z } from 'zod';
import { chaosConfig } from '../../engine/chaos/chaos-config.ts';

export const startChaosBody = chaosConfig;
export const chaosRunPath = z.object({ run_id: z.string().min(1).max(100) });
/** A chaos run as the engine reports it: its configuration, status and report. */
export const chaosRunView = z.looseObject({
  run_id: z.string(),
  status: z.enum(['running', 'finished', 'stopped']),
  seed: z.number(),
  report: z.looseObject({}),
});
