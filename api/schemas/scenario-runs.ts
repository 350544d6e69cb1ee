// Request shapes of the scenario runs (POST /scenario-runs ...). The scenario document itself is
// the engine's schema (engine/scenarios/scenario-schema.ts), checked after this body: a document
// may come as an object or as its YAML / JSON text.
import { z } from 'zod';
import { MAX_SCENARIO_BYTES } from '../../engine/scenarios/load-scenario.ts';
import { chargerSecurity } from './charger-security.ts';
import { wsUrl } from './deployments.ts';

export { scenarioSchema } from '../../engine/scenarios/scenario-schema.ts';

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const startRunBody = z.strictObject({
  scenario: z
    .union([z.string().min(1).max(MAX_SCENARIO_BYTES), z.record(z.string().max(100), z.unknown())])
    .describe('The scenario document, as an object or as YAML / JSON text'),
  ws_url: wsUrl.optional().describe('The central system to run against; default: the built-in one'),
  csms_hook: httpUrl
    .optional()
    .describe(
      'Receives `{identity, action, payload}` for each csms_call step against an external central system',
    ),
  security: chargerSecurity.optional().describe('Replaces the security of every charger group'),
  variables: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .max(100),
      z.string().max(1000),
    )
    .optional(),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .optional(),
  keep: z.boolean().default(false).describe('Leave the chargers deployed after the run'),
});

export const runPath = z.object({ run_id: z.string().min(1).max(100) });
