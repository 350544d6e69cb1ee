// Request shapes of the scenario runs (POST /scenario-runs ...). The scenario document itself is
// the engine's schema (engine/scenarios/scenario-schema.ts), checked after this body: a document
// may come as an object or as its YAML / JSON text.
import { z } from 'zod';
import { MAX_SCENARIO_BYTES, checkScenario, loadScenario } from '../../engine/scenarios/load-scenario.ts';
import { preflight } from '../../engine/scenarios/scenario-preflight.ts';
import { securityProblems } from '../../engine/deployments/charger-security.ts';
import type { StartRun } from '../../engine/scenarios/scenario-runs.ts';
import { ValidationError } from '../http/errors.ts';
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

/**
 * The run a parsed body asks for, its document checked: a 422 naming the place in the body (the
 * security rules, the document's schema, then what can be known wrong before deploying: a
 * variable, a status, a hook). The API's route and the MCP tool both start runs through this.
 */
export function runOf(body: z.infer<typeof startRunBody>): StartRun {
  const security = securityProblems({ ws_url: body.ws_url, security: body.security }, ['body']);
  if (security.length > 0)
    throw new ValidationError(
      security.map((p) => ({ loc: p.loc, msg: p.msg, type: 'value_error', input: p.input })),
    );
  const checked =
    typeof body.scenario === 'string' ? loadScenario(body.scenario) : checkScenario(body.scenario);
  const loaded =
    'problems' in checked
      ? checked
      : (() => {
          const problems = preflight(checked.scenario, {
            wsUrl: body.ws_url,
            csmsHook: body.csms_hook,
            variables: body.variables,
          });
          return problems.length > 0 ? { problems } : checked;
        })();
  if ('problems' in loaded)
    throw new ValidationError(
      loaded.problems.map((p) => ({
        loc: ['body', 'scenario', ...p.path],
        msg: p.message,
        type: 'value_error',
      })),
    );
  return {
    scenario: loaded.scenario,
    wsUrl: body.ws_url,
    csmsHook: body.csms_hook,
    security: body.security,
    variables: body.variables,
    seed: body.seed,
    keep: body.keep,
  };
}
