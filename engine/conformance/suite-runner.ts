// Runs a suite: its cases (scenarios with test-case metadata) as one run, each on its own chargers,
// several at once (bounded), each ending with a verdict: passed, failed, not applicable (the
// central system does not claim the case's profile) or blocked (a precondition failed, or the
// run could not be carried out). Steps of `severity: warning` that failed are counted apart.
import type { ScenarioHost } from '../scenarios/scenario-host.ts';
import type { RunResult } from '../scenarios/scenario-result.ts';
import { runScenario } from '../scenarios/scenario-runner.ts';
import type { Scenario } from '../scenarios/scenario-schema.ts';

export type Verdict = 'passed' | 'failed' | 'not applicable' | 'blocked';

export interface SuiteCase {
  /** Where the case comes from (a file of the suite), for reports. */
  file: string;
  scenario: Scenario;
}

export interface CaseResult {
  id: string;
  title: string;
  profile: string;
  requirements: string[];
  file: string;
  verdict: Verdict | 'pending' | 'running';
  /** Why it failed or was blocked or not applicable; null when it passed. */
  message: string | null;
  /** Compatibility warnings: failed steps of `severity: warning`. */
  warnings: string[];
  run: RunResult | null;
}

export interface SuiteResult {
  name: string;
  status: 'running' | 'finished';
  started_at: string;
  finished_at: string | null;
  cases: CaseResult[];
}

export interface SuiteInput {
  orgId: string;
  name: string;
  cases: SuiteCase[];
  /** The profiles the central system claims; absent: every profile. */
  profiles?: string[];
  wsUrl?: string;
  csmsHook?: string;
  variables?: Record<string, string>;
  /** Cases running at once (default 6). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called when a case starts and when it ends. */
  onCase?: (c: CaseResult) => void;
  /** Called at once with the result being filled in. */
  onStart?: (r: SuiteResult) => void;
}

/** A case's profile when its scenario has no test-case metadata. */
export const NO_PROFILE = 'Other';

const same = (a: string, b: string) => a.replace(/[\s_-]/g, '').toLowerCase() === b.replace(/[\s_-]/g, '').toLowerCase();

/** The verdict of a finished run. */
export function verdictOf(run: RunResult): { verdict: Verdict; message: string | null } {
  if (run.status === 'passed') return { verdict: 'passed', message: null };
  if (run.status === 'error') return { verdict: 'blocked', message: `blocked: ${run.error ?? 'the run could not be carried out'}` };
  const failed = run.steps.find((s) => s.status === 'failed');
  if (!failed) return { verdict: 'failed', message: run.error };
  const text = `step ${failed.path} ${failed.name}: ${failed.message ?? 'failed'}`;
  return failed.precondition
    ? { verdict: 'blocked', message: `blocked: ${text}` }
    : { verdict: 'failed', message: text };
}

export async function runSuite(host: ScenarioHost, input: SuiteInput): Promise<SuiteResult> {
  const result: SuiteResult = {
    name: input.name,
    status: 'running',
    started_at: new Date().toISOString(),
    finished_at: null,
    cases: input.cases.map(({ file, scenario }) => ({
      id: scenario.test_case?.id ?? scenario.name,
      title: scenario.test_case?.title ?? scenario.name,
      profile: scenario.test_case?.profile ?? NO_PROFILE,
      requirements: scenario.test_case?.requirements ?? [],
      file,
      verdict: 'pending',
      message: null,
      warnings: [],
      run: null,
    })),
  };
  input.onStart?.(result);
  const claimed = (c: CaseResult) => !input.profiles || input.profiles.some((p) => same(p, c.profile));
  const queue = result.cases.map((c, i) => [c, input.cases[i].scenario] as const);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [c, scenario] = next;
      if (!claimed(c)) {
        c.verdict = 'not applicable';
        c.message = `not applicable: the central system does not claim the profile ${c.profile}`;
        input.onCase?.(c);
        continue;
      }
      if (input.signal?.aborted) {
        c.verdict = 'blocked';
        c.message = 'blocked: the suite was stopped';
        input.onCase?.(c);
        continue;
      }
      c.verdict = 'running';
      input.onCase?.(c);
      const run = await runScenario(host, {
        orgId: input.orgId,
        scenario,
        wsUrl: input.wsUrl,
        csmsHook: input.csmsHook,
        variables: input.variables,
        signal: input.signal,
        onStart: (r) => (c.run = r),
      });
      c.run = run;
      Object.assign(c, verdictOf(run));
      c.warnings = run.steps
        .filter((s) => s.status === 'warning')
        .map((s) => `step ${s.path} ${s.name}: ${s.message ?? ''}`);
      input.onCase?.(c);
    }
  };
  const n = Math.max(1, Math.min(input.concurrency ?? 6, queue.length));
  await Promise.all(Array.from({ length: n }, worker));
  result.status = 'finished';
  result.finished_at = new Date().toISOString();
  return result;
}
