// The scenario runs of one process, per organization: started by the API, followed live (the
// run's step events), read back with their results. Runs live in memory: a run is a short test,
// its chargers and their frames stay in the deployments and the message log.
import { randomUUID } from 'node:crypto';
import { dropOldestEnded } from '../platform/keep-newest.ts';
import type { ChargerSecurity } from '../deployments/charger-security.ts';
import { createServiceHost, type ScenarioHost, type ServiceHostDeps } from './scenario-host.ts';
import type { RunEvent, RunResult } from './scenario-result.ts';
import { runScenario } from './scenario-runner.ts';
import type { Scenario } from './scenario-schema.ts';

export interface StartRun {
  scenario: Scenario;
  wsUrl?: string;
  csmsHook?: string;
  security?: ChargerSecurity;
  variables?: Record<string, string>;
  seed?: number;
  keep?: boolean;
}

interface Run {
  orgId: string;
  result: RunResult;
  listeners: Set<(e: RunEvent) => void>;
  done: Promise<RunResult>;
  stop: AbortController;
}

/** Finished runs kept per organization (the oldest leave first). */
const KEEP_FINISHED = 100;
/** Runs at once in this process: each deploys chargers. */
export const MAX_RUNNING = 20;

export class ScenarioRuns {
  readonly #runs = new Map<string, Run>();
  #host: Promise<ScenarioHost> | undefined;
  #closed = false;

  constructor(private readonly deps: ServiceHostDeps) {}

  get running(): number {
    let n = 0;
    for (const r of this.#runs.values()) if (r.result.status === 'running') n++;
    return n;
  }

  /** undefined when MAX_RUNNING runs are already running. */
  async start(orgId: string, req: StartRun): Promise<RunResult | undefined> {
    if (this.#closed || this.running >= MAX_RUNNING) return undefined;
    const host = await this.host();
    const runId = randomUUID();
    const listeners = new Set<(e: RunEvent) => void>();
    const stop = new AbortController();
    const run: Run = {
      orgId,
      result: undefined as unknown as RunResult,
      listeners,
      done: undefined as never,
      stop,
    };
    run.done = runScenario(host, {
      orgId,
      runId,
      scenario: req.scenario,
      wsUrl: req.wsUrl,
      csmsHook: req.csmsHook,
      security: req.security,
      variables: req.variables,
      seed: req.seed,
      keep: req.keep,
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'end') run.result = e.result;
        for (const l of [...listeners]) l(e);
      },
      onStart: (result) => (run.result = result),
    });
    this.#runs.set(runId, run);
    this.#evict(orgId);
    return run.result;
  }

  /** Where the runs' chargers run (the conformance runs use it too); started on first use. */
  host(): Promise<ScenarioHost> {
    // A host that failed to start (broker away) is tried again by the next run.
    return (this.#host ??= createServiceHost(this.deps).catch((err: unknown) => {
      this.#host = undefined;
      throw err;
    }));
  }

  /** The run, if it is the organization's. */
  get(orgId: string, runId: string): RunResult | undefined {
    const run = this.#runs.get(runId);
    return run && run.orgId === orgId ? run.result : undefined;
  }

  list(orgId: string): RunResult[] {
    return [...this.#runs.values()]
      .filter((r) => r.orgId === orgId)
      .map((r) => r.result)
      .reverse();
  }

  /** Live events of the organization's run; undefined when it has no such run. */
  follow(orgId: string, runId: string, listener: (e: RunEvent) => void): (() => void) | undefined {
    const run = this.#runs.get(runId);
    if (!run || run.orgId !== orgId) return undefined;
    run.listeners.add(listener);
    return () => run.listeners.delete(listener);
  }

  /** Stops the organization's run; false when it has no such run. */
  stop(orgId: string, runId: string): boolean {
    const run = this.#runs.get(runId);
    if (!run || run.orgId !== orgId) return false;
    run.stop.abort();
    return true;
  }

  /** Resolves with the result once the run is over. */
  finished(orgId: string, runId: string): Promise<RunResult> | undefined {
    const run = this.#runs.get(runId);
    return run && run.orgId === orgId ? run.done : undefined;
  }

  /** Waits for running runs to end (their chargers removed), then stops the host. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const r of this.#runs.values()) r.stop.abort();
    await Promise.all([...this.#runs.values()].map((r) => r.done.catch(() => undefined)));
    await (await this.#host?.catch(() => undefined))?.close();
  }

  #evict(orgId: string): void {
    dropOldestEnded(this.#runs, (r) => r.orgId === orgId && r.result.status !== 'running', KEEP_FINISHED);
  }
}
