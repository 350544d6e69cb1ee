// A suite as one run: its cases (scenarios with test-case metadata), several at once (bounded),
// each ending with a verdict: passed, failed, not applicable (the central system does not claim
// the case's profile) or blocked (a precondition failed, or the case could not be carried out).
// Steps of `severity: warning` that failed are counted apart. Where a case runs is given: the
// engine runs it on its host (conformance runs), the CLI through the API (--suite). No engine here.
import type { RunResult } from '../scenarios/scenario-result.ts';
import type { Scenario } from '../scenarios/scenario-schema.ts';

export type Verdict = 'passed' | 'failed' | 'not applicable' | 'blocked';

export interface SuiteCase {
  /** Where the case comes from (a file of the suite), for reports. */
  file: string;
  scenario: Scenario;
  /** The document as written (what the CLI sends to the API). */
  text?: string;
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

export interface SuiteOptions {
  name: string;
  cases: SuiteCase[];
  /** The profiles the central system claims; absent: every profile. */
  profiles?: string[];
  /** Cases running at once (default 6). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called when a case starts and when it ends. */
  onCase?: (c: CaseResult) => void;
  /** Called at once with the result being filled in. */
  onStart?: (r: SuiteResult) => void;
}

/** Runs one case where the suite runs (a RunResult, or a string: why it could not be run). */
export type RunCase = (c: SuiteCase, started: (run: RunResult) => void) => Promise<RunResult | string>;

/** A case's profile when its scenario has no test-case metadata. */
export const NO_PROFILE = 'Other';

const sameName = (a: string, b: string) =>
  a.replace(/[\s_-]/g, '').toLowerCase() === b.replace(/[\s_-]/g, '').toLowerCase();

/** The verdict of a finished run. */
export function verdictOf(run: RunResult): { verdict: Verdict; message: string | null } {
  if (run.status === 'passed') return { verdict: 'passed', message: null };
  if (run.status === 'error')
    return { verdict: 'blocked', message: `blocked: ${run.error ?? 'the run could not be carried out'}` };
  const failed = run.steps.find((s) => s.status === 'failed');
  if (!failed) return { verdict: 'failed', message: run.error };
  const text = `step ${failed.path} ${failed.name}: ${failed.message ?? 'failed'}`;
  return failed.precondition
    ? { verdict: 'blocked', message: `blocked: ${text}` }
    : { verdict: 'failed', message: text };
}

export async function runCases(o: SuiteOptions, runCase: RunCase): Promise<SuiteResult> {
  const result: SuiteResult = {
    name: o.name,
    status: 'running',
    started_at: new Date().toISOString(),
    finished_at: null,
    cases: o.cases.map(({ file, scenario }) => ({
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
  o.onStart?.(result);
  const claimed = (c: CaseResult) => !o.profiles || o.profiles.some((p) => sameName(p, c.profile));
  const queue = result.cases.map((c, i) => [c, o.cases[i]] as const);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [c, suiteCase] = next;
      if (!claimed(c)) {
        c.verdict = 'not applicable';
        c.message = `not applicable: the central system does not claim the profile ${c.profile}`;
      } else if (o.signal?.aborted) {
        c.verdict = 'blocked';
        c.message = 'blocked: the suite was stopped';
      } else {
        c.verdict = 'running';
        o.onCase?.(c);
        const run = await runCase(suiteCase, (r) => (c.run = r)).catch((err: Error) => err.message);
        if (typeof run === 'string') {
          c.verdict = 'blocked';
          c.message = `blocked: ${run}`;
        } else {
          c.run = run;
          Object.assign(c, verdictOf(run));
          c.warnings = run.steps
            .filter((s) => s.status === 'warning')
            .map((s) => `step ${s.path} ${s.name}: ${s.message ?? ''}`);
        }
      }
      o.onCase?.(c);
    }
  };
  const n = Math.max(1, Math.min(o.concurrency ?? 6, queue.length));
  await Promise.all(Array.from({ length: n }, worker));
  result.status = 'finished';
  result.finished_at = new Date().toISOString();
  return result;
}
