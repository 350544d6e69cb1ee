// A suite run by the engine (conformance runs): each case a scenario run on the host.
import type { ScenarioHost } from '../scenarios/scenario-host.ts';
import { runScenario } from '../scenarios/scenario-runner.ts';
import { runCases, type SuiteOptions, type SuiteResult } from './suite-result.ts';

export interface SuiteInput extends SuiteOptions {
  orgId: string;
  wsUrl?: string;
  csmsHook?: string;
  variables?: Record<string, string>;
}

export function runSuite(host: ScenarioHost, input: SuiteInput): Promise<SuiteResult> {
  return runCases(input, (c, started) =>
    runScenario(host, {
      orgId: input.orgId,
      scenario: c.scenario,
      wsUrl: input.wsUrl,
      csmsHook: input.csmsHook,
      variables: input.variables,
      signal: input.signal,
      onStart: started,
    }),
  );
}
