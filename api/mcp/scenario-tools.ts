// Tools to run a scenario (a scripted story of chargers and expectations on what the central
// system answers) and read its verdict: the ready scenarios of the repository, start a run (the
// body of POST /scenario-runs), follow it until it ends.
import { z } from 'zod';
import { ApiError, notFound } from '../http/errors.ts';
import { runOf, runPath, startRunBody } from '../schemas/scenario-runs.ts';
import { readyScenarios } from '../../engine/scenarios/ready-scenarios.ts';
import { MAX_RUNNING } from '../../engine/scenarios/scenario-runs.ts';
import { defineTool, type ToolGroup } from './tool-kit.ts';

/** The longest a get_scenario_run call waits for a run to end. */
const MAX_WAIT_S = 60;

export const scenarioTools: ToolGroup = (server, scope) => {
  const { deps, org } = scope;
  const { scenarios } = deps;

  defineTool(
    server,
    scope,
    'list_ready_scenarios',
    {
      title: 'List ready scenarios',
      description:
        'The ready-made scenarios (boot, authorize, charging session, smart charging, ...): `file`, `name`, `description`, `ocpp_version` and the document `text`, which start_scenario_run takes as `scenario`.',
      input: z.object({}),
      readOnly: true,
    },
    async () => ({ items: readyScenarios() }),
  );

  defineTool(
    server,
    scope,
    'start_scenario_run',
    {
      title: 'Start a scenario run',
      description:
        'Run a scenario (YAML / JSON text or object: see list_ready_scenarios) against the built-in central system or `ws_url`: its chargers are deployed, its steps run, its expectations checked against the frames. Answers the run (`run_id`, `status` running); follow it with get_scenario_run. Chargers are removed afterwards unless `keep`.',
      input: startRunBody,
    },
    async (body) => {
      const run = await scenarios.start(org, runOf(body));
      if (!run)
        throw new ApiError(429, `${MAX_RUNNING} scenario runs are running in this process: retry later`);
      return run;
    },
  );

  defineTool(
    server,
    scope,
    'get_scenario_run',
    {
      title: 'Get a scenario run',
      description: `A scenario run: \`status\` (running, passed, failed, error), its steps with the frames that proved or disproved each expectation, \`expectations\` passed and failed, \`error\`. With \`wait_s\`, waits up to that many seconds (at most ${MAX_WAIT_S}) for a running run to end.`,
      input: runPath.extend({ wait_s: z.number().min(0).max(MAX_WAIT_S).default(0) }),
      readOnly: true,
    },
    async ({ run_id, wait_s }) => {
      const run = scenarios.get(org, run_id);
      if (!run) throw notFound(`Scenario run '${run_id}' not found`);
      if (run.status !== 'running' || wait_s === 0) return run;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait_s * 1000);
        const off = scenarios.follow(org, run_id, (e) => {
          if (e.type === 'end') done();
        });
        function done(): void {
          clearTimeout(timer);
          off?.();
          resolve();
        }
      });
      return scenarios.get(org, run_id) ?? run;
    },
  );

  defineTool(
    server,
    scope,
    'list_scenario_runs',
    {
      title: 'List scenario runs',
      description: "The organization's scenario runs: those running and the last finished.",
      input: z.object({}),
      readOnly: true,
    },
    async () => ({ items: scenarios.list(org) }),
  );
};
