// The conformance runs of one process, per organization (POST /conformance-runs): the ready
// conformance cases of a version (scenarios/conformance/<version>) run as one suite against the
// built-in central system or an external one, the profiles it claims given (the cases of others
// are not applicable). Runs live in memory, like scenario runs, on the scenario runs' host.
import { randomUUID } from 'node:crypto';
import { dropOldestEnded } from '../platform/keep-newest.ts';
import { loadScenario } from '../scenarios/load-scenario.ts';
import { readyScenarios } from '../scenarios/ready-scenarios.ts';
import type { ScenarioRuns } from '../scenarios/scenario-runs.ts';
import type { SuiteCase, SuiteResult } from './suite-result.ts';
import { runSuite } from './suite-runner.ts';

/** The versions with ready conformance cases, and the folder of scenarios/ that holds them. */
export const CONFORMANCE_VERSIONS = {
  'ocpp1.6': 'conformance/ocpp16/',
  'ocpp2.0.1': 'conformance/ocpp201/',
} as const;
export type ConformanceVersion = keyof typeof CONFORMANCE_VERSIONS;

/** The profiles, as the cases name them (2.0.1's cases use the names of the 1.6 ones they match). */
export const PROFILES_16 = [
  'Core',
  'FirmwareManagement',
  'LocalAuthListManagement',
  'Reservation',
  'RemoteTrigger',
  'SmartCharging',
  'Security',
] as const;

export interface StartConformanceRun {
  version: ConformanceVersion;
  profiles: string[];
  wsUrl?: string;
  csmsHook?: string;
}

export interface ConformanceRunView {
  run_id: string;
  version: string;
  profiles: string[];
  status: 'running' | 'finished';
  started_at: string;
  finished_at: string | null;
  cases: Array<{ id: string; title: string; profile: string; verdict: string; message: string | null }>;
}

interface Run {
  orgId: string;
  id: string;
  req: StartConformanceRun;
  result: SuiteResult;
  stop: AbortController;
  done: Promise<unknown>;
}

const KEEP_FINISHED = 20;
/** Conformance runs at once in this process (each runs several cases at once). */
export const MAX_CONFORMANCE_RUNNING = 2;

/** The ready cases of a version. */
export function conformanceCases(version: ConformanceVersion): SuiteCase[] {
  const dir = CONFORMANCE_VERSIONS[version];
  return readyScenarios()
    .filter((r) => r.file.startsWith(dir))
    .flatMap((r) => {
      const loaded = loadScenario(r.text);
      return 'scenario' in loaded ? [{ file: r.file, scenario: loaded.scenario }] : [];
    });
}

export class ConformanceRuns {
  readonly #runs = new Map<string, Run>();

  constructor(private readonly scenarios: ScenarioRuns) {}

  get running(): number {
    return [...this.#runs.values()].filter((r) => r.result.status === 'running').length;
  }

  /** undefined when MAX_CONFORMANCE_RUNNING runs are already running. */
  async start(orgId: string, req: StartConformanceRun): Promise<ConformanceRunView | undefined> {
    if (this.running >= MAX_CONFORMANCE_RUNNING) return undefined;
    const host = await this.scenarios.host();
    const id = randomUUID();
    const stop = new AbortController();
    const run = { orgId, id, req, stop } as Run;
    run.done = runSuite(host, {
      orgId,
      name: `${req.version} conformance`,
      cases: conformanceCases(req.version),
      profiles: req.profiles,
      wsUrl: req.wsUrl,
      csmsHook: req.csmsHook,
      signal: stop.signal,
      onStart: (r) => (run.result = r),
    }).then((r) => (run.result = r));
    this.#runs.set(id, run);
    dropOldestEnded(this.#runs, (r) => r.orgId === orgId && r.result.status !== 'running', KEEP_FINISHED);
    return view(run);
  }

  /** The run, if it is the organization's. */
  get(orgId: string, runId: string): ConformanceRunView | undefined {
    const run = this.#runs.get(runId);
    return run && run.orgId === orgId ? view(run) : undefined;
  }

  async close(): Promise<void> {
    for (const r of this.#runs.values()) r.stop.abort();
    await Promise.all([...this.#runs.values()].map((r) => r.done.catch(() => undefined)));
  }
}

function view(run: Run): ConformanceRunView {
  const r = run.result;
  return {
    run_id: run.id,
    version: run.req.version,
    profiles: run.req.profiles,
    status: r.status,
    started_at: r.started_at,
    finished_at: r.finished_at,
    cases: r.cases.map((c) => ({
      id: c.id,
      title: c.title,
      profile: c.profile,
      verdict: c.verdict,
      message: c.message,
    })),
  };
}
