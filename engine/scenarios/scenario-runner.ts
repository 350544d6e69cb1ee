// Runs one scenario: deploys its chargers on the host, waits until each is accepted, then carries
// out the steps in order. Actions become commands; waits and expectations are answered from the
// frames of the message log, read live (never from the database): each expectation looks at the
// frames since the last action on its chargers, waits up to its time limit, and records the frames
// that proved it, or the closest ones when it failed. The first failed step ends the run.
import { randomUUID } from 'node:crypto';
import type { OcppVersion } from '../../actors/charger/charger-ports.ts';
import { ChargerSecurity, securityProblems } from '../deployments/charger-security.ts';
import { matches, seen, type SeenFrame } from './frames.ts';
import type { ScenarioHost } from './scenario-host.ts';
import type { ProofFrame, RunEvent, RunResult, StepResult } from './scenario-result.ts';
import {
  EXPECTATION_KINDS,
  kindOf,
  type ChargerGroup,
  type Scenario,
  type Step,
  type StepBody,
} from './scenario-schema.ts';
import { seededRandom, substitute } from './scenario-vars.ts';
import {
  checkFrame,
  checkMeter,
  checkNoCall,
  checkStatus,
  StepFailure,
  type BodyOf,
  type CheckRun,
  type RunCharger,
  type StepOutcome,
} from './step-checks.ts';
import { actionOf, type ActionRun } from './step-commands.ts';
import { describe, type Fields } from './step-fields.ts';
import { roundsNotReached, stepsNotReached } from './step-skips.ts';

export interface RunInput {
  orgId: string;
  scenario: Scenario;
  runId?: string;
  /** The external central system's base URL; absent: the built-in one. */
  wsUrl?: string;
  /** POSTed `{identity, action, payload}` for each csms_call against an external central system. */
  csmsHook?: string;
  /** Replaces the groups' own security (the CLI's --security-profile ...). */
  security?: ChargerSecurity;
  variables?: Record<string, string>;
  seed?: number;
  /** Time for each charger to be accepted (default 60 s). */
  bootTimeoutS?: number;
  /** Leave the chargers deployed after the run. */
  keep?: boolean;
  onEvent?: (e: RunEvent) => void;
  /** Stops the run: waits end at once, the run ends as `error` (its chargers are removed). */
  signal?: AbortSignal;
  /** Called at once with the result being filled in (the same object, updated as the run goes). */
  onStart?: (result: RunResult) => void;
}

export async function runScenario(host: ScenarioHost, input: RunInput): Promise<RunResult> {
  return new ScenarioRun(host, input).run();
}

class ScenarioRun {
  readonly result: RunResult;
  readonly #chargers: RunCharger[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #unsubscribe: Array<() => void> = [];
  readonly #vars: Map<string, unknown>;
  readonly #random: () => number;
  /** The action steps (step-commands.ts) reach the host through this. */
  readonly #actions: ActionRun;

  constructor(
    private readonly host: ScenarioHost,
    private readonly input: RunInput,
  ) {
    const seed = input.seed ?? input.scenario.seed ?? Math.floor(Math.random() * 2 ** 31);
    const runId = input.runId ?? randomUUID();
    this.#random = seededRandom(seed);
    this.#actions = {
      host,
      orgId: input.orgId,
      wsUrl: input.wsUrl,
      csmsHook: input.csmsHook,
      nextSeed: () => Math.floor(this.#random() * 2 ** 32),
    };
    this.#vars = new Map(Object.entries({ ...input.scenario.variables, ...input.variables, run_id: runId }));
    this.result = {
      run_id: runId,
      scenario: input.scenario.name,
      status: 'running',
      seed,
      started_at: new Date().toISOString(),
      finished_at: null,
      chargers: [],
      steps: [],
      expectations: { passed: 0, failed: 0 },
      warnings: 0,
      error: null,
    };
  }

  async run(): Promise<RunResult> {
    this.input.onStart?.(this.result);
    try {
      try {
        await this.#deployAll();
      } catch (err) {
        this.result.steps.push(...stepsNotReached(this.input.scenario.steps, '', 0));
        throw err;
      }
      await this.#steps(this.input.scenario.steps, '');
      this.result.status = 'passed';
    } catch (err) {
      if (err instanceof StepFailure) this.result.status = 'failed';
      else {
        this.result.status = 'error';
        this.result.error = (err as Error).message;
      }
    } finally {
      for (const off of this.#unsubscribe) off();
      if (!this.input.keep)
        await Promise.all(
          this.#chargers.map((c) => this.host.remove(this.input.orgId, c.hosted).catch(() => undefined)),
        );
      this.result.finished_at = new Date().toISOString();
      this.input.onEvent?.({ type: 'end', result: this.result });
    }
    return this.result;
  }

  // ---- chargers ----

  async #deployAll(): Promise<void> {
    const short = this.result.run_id.replace(/-/g, '').slice(0, 8);
    for (const group of this.input.scenario.chargers)
      for (let index = 1; index <= group.count; index++) {
        const identity = substitute(group.identity ?? `S${short}-${group.id}-\${index}`, this.#vars, {
          index: String(index),
        });
        await this.#deploy(group, identity);
      }
    await this.#step(
      { name: 'every charger is accepted', kind: 'boot', expectation: true, precondition: true },
      '0',
      async () => {
        const limit = (this.input.bootTimeoutS ?? 60) * 1000;
        const proofs: ProofFrame[] = [];
        for (const c of this.#chargers) {
          const found = await this.#waitFor(
            () =>
              c.frames.find(
                (f) =>
                  f.direction === 'in' &&
                  f.type === 'CALLRESULT' &&
                  f.action === 'BootNotification' &&
                  matches(f.payload, { status: 'Accepted' }),
              ),
            limit,
          );
          if (!found)
            throw new StepFailure(
              `${c.hosted.identity} was not accepted by the central system within ${limit / 1000} s`,
              this.#proofs(c, c.frames.filter((f) => f.action === 'BootNotification').slice(-3)),
            );
          // The mark stays at the start: until a first action, expectations see the boot too.
          proofs.push(...this.#proofs(c, [found]));
        }
        return { message: null, frames: proofs };
      },
    );
  }

  async #deploy(group: ChargerGroup, identity: string): Promise<void> {
    const given = this.input.security ?? group.security;
    const security =
      given === undefined || given instanceof ChargerSecurity
        ? given
        : new ChargerSecurity(given.profile as ChargerSecurity['profile'], {
            ...(given.password !== undefined && { password: given.password }),
            ...(given.ca_pem !== undefined && { ca_pem: given.ca_pem }),
            ...(given.crl_pem !== undefined && { crl_pem: given.crl_pem }),
            ...(given.client_cert_pem !== undefined && { client_cert_pem: given.client_cert_pem }),
            ...(given.client_key_pem !== undefined && { client_key_pem: given.client_key_pem }),
          });
    const problems = securityProblems({ ws_url: this.input.wsUrl, security }, []);
    if (problems.length > 0)
      throw new Error(`charger group '${group.id}': ${problems.map((p) => p.msg).join('; ')}`);
    const out = await this.host.deploy(this.input.orgId, {
      identity,
      model: group.model,
      version: group.ocpp_version as OcppVersion,
      ...(this.input.wsUrl ? { wsUrl: this.input.wsUrl } : {}),
      ...(security ? { security } : {}),
    });
    if ('problem' in out) throw new Error(`charger ${identity} of group '${group.id}': ${out.problem}`);
    const c: RunCharger = { group: group.id, hosted: out, frames: [], mark: 0, vars: new Map() };
    this.#chargers.push(c);
    const ids = new Set<number>();
    this.#unsubscribe.push(
      this.host.frames(out.key, (entry) => {
        if (ids.has(entry.id)) return;
        ids.add(entry.id);
        const f = seen(entry);
        // An answer the log could not name (to a CALL the charger wrote as raw text, misbehaving
        // on purpose) takes the action of the CALL it answers.
        if (!f.action && f.type !== 'CALL' && f.type !== 'OTHER')
          f.action =
            c.frames.find((x) => x.type === 'CALL' && x.messageId === f.messageId)?.action ?? f.action;
        c.frames.push(f);
        for (const w of [...this.#waiters]) w();
      }),
    );
    const info = {
      group: group.id,
      identity: out.identity,
      deployment_id: out.key,
      ocpp_version: out.version,
    };
    this.result.chargers.push(info);
    this.input.onEvent?.({ type: 'charger', charger: info });
  }

  #targets(group: string | undefined): RunCharger[] {
    const list = group === undefined ? this.#chargers : this.#chargers.filter((c) => c.group === group);
    if (list.length === 0) throw new Error(`no charger group '${group}'`);
    return list;
  }

  /** The variables a step on this charger reads: what it saved itself, then the run's. */
  #varsOf(c: RunCharger): Map<string, unknown> {
    return c.vars.size === 0 ? this.#vars : new Map([...this.#vars, ...c.vars]);
  }

  #proofs(c: RunCharger, frames: SeenFrame[]): ProofFrame[] {
    return frames.map((f) => ({ charger: c.hosted.identity, item: JSON.parse(f.item) as unknown }));
  }

  /** Resolves with what `check` finds, re-checked on every new frame, or undefined after `ms`. */
  #waitFor<T>(check: () => T | undefined, ms: number): Promise<T | undefined> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve) => {
      const signal = this.input.signal;
      // One listener per wait, removed when the wait ends: a long run waits thousands of times on
      // the same signal, and listeners left behind would pile up on it.
      const aborted = () => done(undefined);
      const done = (v: T | undefined) => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        signal?.removeEventListener('abort', aborted);
        resolve(v);
      };
      const waiter = () => {
        const v = check();
        if (v !== undefined) done(v);
      };
      const timer = setTimeout(() => done(undefined), ms);
      this.#waiters.add(waiter);
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }

  // ---- steps ----

  async #steps(steps: Step[], prefix: string): Promise<void> {
    let i = 0;
    try {
      for (; i < steps.length; i++) await this.#one(steps[i], `${prefix}${i + 1}`);
    } catch (err) {
      // The run ends here: the steps after this one at this level were not reached (the levels
      // above add theirs as the failure goes up, so they come in the document's order).
      this.result.steps.push(...stepsNotReached(steps, prefix, i + 1));
      throw err;
    }
  }

  async #one(step: Step, path: string): Promise<void> {
    if (this.input.signal?.aborted) throw new Error('the run was stopped');
    const kind = kindOf(step);
    const raw = (step as Record<string, unknown>)[kind];
    if (kind === 'repeat') {
      const r = raw as StepBody<'repeat'>;
      for (let round = 1; round <= r.times; round++) {
        this.#vars.set('round', String(round));
        try {
          await this.#steps(r.steps, `${path}.${round}.`);
        } catch (err) {
          if (round < r.times) this.result.steps.push(roundsNotReached(path, round + 1, r.times));
          throw err;
        }
      }
      return;
    }
    if (kind === 'choose') {
      const options = (raw as StepBody<'choose'>).options;
      let pick = this.#random() * options.reduce((sum, o) => sum + o.weight, 0);
      const chosen = options.findIndex((o) => (pick -= o.weight) < 0);
      const index = chosen < 0 ? options.length - 1 : chosen;
      await this.#steps(options[index].steps, `${path}.${index + 1}.`);
      return;
    }
    if (kind === 'set') {
      for (const [name, value] of Object.entries(raw as StepBody<'set'>)) {
        const v =
          typeof value === 'string'
            ? value
            : 'one_of' in value
              ? value.one_of[Math.floor(this.#random() * value.one_of.length)]
              : // A date-time from now: reservations' expiry, firmware's retrieve date.
                new Date(Date.now() + value.time_in_s * 1000).toISOString();
        this.#vars.set(name, substitute(v, this.#vars));
        // A `set` is for every charger: it replaces what each had saved under the name.
        for (const c of this.#chargers) c.vars.delete(name);
      }
      return;
    }
    // Each charger reads its own saved variables, so each gets its own body.
    const group = (raw as { charger?: string }).charger;
    const targets =
      kind === 'wait' ? [] : this.#targets(group === undefined ? undefined : substitute(group, this.#vars));
    const bodies = new Map(targets.map((c) => [c, substitute(raw, this.#varsOf(c)) as Fields]));
    const body = targets.length > 0 ? bodies.get(targets[0])! : (substitute(raw, this.#vars) as Fields);
    const expectation = EXPECTATION_KINDS.includes(kind);
    const name = step.name ?? describe(kind, body);
    const meta = {
      name,
      kind,
      expectation,
      precondition: step.precondition,
      warning: step.severity === 'warning',
    };
    await this.#step(meta, path, () => this.#carryOut(kind, body, targets, (c) => bodies.get(c)!));
  }

  async #step(
    meta: { name: string; kind: string; expectation: boolean; precondition?: boolean; warning?: boolean },
    path: string,
    work: () => Promise<StepOutcome>,
  ): Promise<void> {
    const step: StepResult = {
      path,
      name: meta.name,
      kind: meta.kind,
      expectation: meta.expectation,
      ...(meta.precondition && { precondition: true }),
      status: 'running',
      started_at: new Date().toISOString(),
      finished_at: null,
      message: null,
      frames: [],
    };
    this.result.steps.push(step);
    this.input.onEvent?.({ type: 'step', step: { ...step } });
    try {
      const out = await work();
      step.status = meta.expectation ? 'passed' : 'done';
      step.message = out.message;
      step.frames = out.frames;
      if (meta.expectation) this.result.expectations.passed++;
    } catch (err) {
      step.message = (err as Error).message;
      if (err instanceof StepFailure) step.frames = err.frames;
      if (meta.warning && err instanceof StepFailure && !this.input.signal?.aborted) {
        // A compatibility warning: reported apart from failures, and the run goes on.
        step.status = 'warning';
        this.result.warnings++;
        return;
      }
      step.status = 'failed';
      if (meta.expectation) this.result.expectations.failed++;
      throw err instanceof StepFailure ? err : new StepFailure(step.message);
    } finally {
      step.finished_at = new Date().toISOString();
      this.input.onEvent?.({ type: 'step', step: { ...step } });
    }
  }

  async #carryOut(kind: string, b: Fields, targets: RunCharger[], bodyOf: BodyOf): Promise<StepOutcome> {
    const none = { message: null, frames: [] };
    const action = actionOf(kind, this.#actions);
    if (action) {
      for (const c of targets) {
        c.mark = c.frames.length;
        const problem = await action(c.hosted, bodyOf(c));
        if (problem) throw new StepFailure(`${c.hosted.identity}: ${problem}`);
      }
      return none;
    }
    switch (kind) {
      case 'wait':
        await this.#waitFor(() => (this.input.signal?.aborted ? true : undefined), b.seconds * 1000);
        return none;
      case 'wait_for_status':
      case 'expect_status':
        return checkStatus(this.#checks, targets, bodyOf);
      case 'expect_call':
        for (const c of targets) this.#prompt(c, bodyOf(c));
        return checkFrame(this.#checks, kind, targets, bodyOf);
      case 'expect_no_call':
        return checkNoCall(this.#checks, targets, bodyOf);
      case 'wait_for_frame':
      case 'expect_answer':
        return checkFrame(this.#checks, kind, targets, bodyOf);
      case 'expect_meter':
        return checkMeter(this.#checks, targets, bodyOf);
    }
    throw new Error(`step '${kind}' is not carried out by this runner`);
  }

  /**
   * An expect_call's prompt: the built-in central system sends `send` itself, an external one's
   * hook gets the prompt with it, a person reads it. Not awaited: the expectation's time runs.
   */
  #prompt(c: RunCharger, b: Fields): void {
    if (b.prompt === undefined && b.send === undefined) return;
    c.mark = c.frames.length;
    const prompt = b.prompt ?? `make the central system send ${b.action}`;
    if (this.input.wsUrl && !this.input.csmsHook) {
      this.input.onEvent?.({ type: 'prompt', charger: c.hosted.identity, prompt });
      return;
    }
    void this.host
      .csmsCall(c.hosted, b.action, b.send ?? {}, {
        wsUrl: this.input.wsUrl,
        hookUrl: this.input.csmsHook,
        prompt,
      })
      .catch(() => undefined);
  }

  /** The waits and expectations (step-checks.ts) reach the run through this. */
  readonly #checks: CheckRun = {
    until: (check, s) => this.#waitFor(check, s * 1000),
    each: (targets, s, check, failure) => this.#each(targets, s, check, failure),
    save: (name, values) => {
      for (const [c, v] of values) c.vars.set(name, v);
      // Saved on one charger: the run's too, so steps on other groups can use it; saved on several:
      // no run-wide value, so another group's step names the variable as unknown rather than
      // reading a stale or arbitrary charger's value.
      if (values.size === 1) this.#vars.set(name, [...values.values()][0]);
      else this.#vars.delete(name);
    },
  };

  /** Every target must produce its proof within `s` seconds; the first that does not fails the step. */
  async #each(
    targets: RunCharger[],
    s: number,
    check: (c: RunCharger) => SeenFrame[] | undefined,
    failure: (c: RunCharger) => [string, SeenFrame[]],
  ): Promise<StepOutcome> {
    const deadline = Date.now() + s * 1000;
    const frames: ProofFrame[] = [];
    for (const c of targets) {
      const found = await this.#waitFor(() => check(c), Math.max(0, deadline - Date.now()));
      if (this.input.signal?.aborted) throw new Error('the run was stopped');
      if (!found) {
        const [message, near] = failure(c);
        throw new StepFailure(message, this.#proofs(c, near));
      }
      frames.push(...this.#proofs(c, found));
    }
    return { message: null, frames };
  }
}
