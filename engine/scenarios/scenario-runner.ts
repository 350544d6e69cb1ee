// Runs one scenario: deploys its chargers on the host, waits until each is accepted, then carries
// out the steps in order. Actions become commands; waits and expectations are answered from the
// frames of the message log, read live (never from the database): each expectation looks at the
// frames since the last action on its chargers, waits up to its time limit, and records the frames
// that proved it, or the closest ones when it failed. The first failed step ends the run.
import { randomUUID } from 'node:crypto';
import type { OcppVersion } from '../../actors/charger/charger-ports.ts';
import { ChargerSecurity, securityProblems } from '../deployments/charger-security.ts';
import type { EventType } from '../commands/command-kinds.ts';
import { at, matches, meterValuesOf, seen, statusesOf, type SeenFrame } from './frames.ts';
import type { HostedScenarioCharger, ScenarioHost } from './scenario-host.ts';
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

interface RunCharger {
  group: string;
  hosted: HostedScenarioCharger;
  frames: SeenFrame[];
  /** Index in `frames` of the first frame after this charger's last action. */
  mark: number;
}

/** Any step's fields, loosely: each kind reads its own (the schema checked them). */
interface Fields {
  charger?: string;
  connector: number;
  action: string;
  payload?: Record<string, unknown>;
  status: string;
  seconds: number;
  timeout_s?: number;
  within_s?: number;
  from?: 'csms' | 'charger';
  type?: string;
  save?: Record<string, string>;
  measurand: string;
  at_least?: number;
  at_most?: number;
  id_tag: string;
  error_code?: string;
  key?: string;
  component?: string;
  variable?: string;
  value: unknown;
  ev_max_power_kw?: number;
  soc_percent?: number;
  battery_kwh?: number;
}

class StepFailure extends Error {
  constructor(
    message: string,
    readonly frames: ProofFrame[] = [],
  ) {
    super(message);
  }
}

/** Commands of the actions, by step kind. */
const COMMANDS: Partial<Record<string, EventType>> = {
  plug_in: 'plug-in',
  present_token: 'present-token',
  unplug: 'unplug',
  ev_stops_energy: 'ev-stops-energy',
  fault: 'fault',
  clear_fault: 'clear-fault',
  disconnect: 'disconnect',
  configure: 'configuration',
  clear_cache: 'cache-reset',
  send: 'proxy-message',
};

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

  constructor(
    private readonly host: ScenarioHost,
    private readonly input: RunInput,
  ) {
    const seed = input.seed ?? input.scenario.seed ?? Math.floor(Math.random() * 2 ** 31);
    const runId = input.runId ?? randomUUID();
    this.#random = seededRandom(seed);
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
      error: null,
    };
  }

  async run(): Promise<RunResult> {
    this.input.onStart?.(this.result);
    try {
      await this.#deployAll();
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
      { name: 'every charger is accepted', kind: 'boot', expectation: true },
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
    const c: RunCharger = { group: group.id, hosted: out, frames: [], mark: 0 };
    this.#chargers.push(c);
    const ids = new Set<number>();
    this.#unsubscribe.push(
      this.host.frames(out.key, (entry) => {
        if (ids.has(entry.id)) return;
        ids.add(entry.id);
        c.frames.push(seen(entry));
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
    if (list.length === 0) throw new StepFailure(`no charger group '${group}'`);
    return list;
  }

  #proofs(c: RunCharger, frames: SeenFrame[]): ProofFrame[] {
    return frames.map((f) => ({ charger: c.hosted.identity, item: JSON.parse(f.item) as unknown }));
  }

  /** Resolves with what `check` finds, re-checked on every new frame, or undefined after `ms`. */
  #waitFor<T>(check: () => T | undefined, ms: number): Promise<T | undefined> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (v: T | undefined) => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        resolve(v);
      };
      const waiter = () => {
        const v = check();
        if (v !== undefined) done(v);
      };
      const timer = setTimeout(() => done(undefined), ms);
      this.#waiters.add(waiter);
      this.input.signal?.addEventListener('abort', () => done(undefined), { once: true });
    });
  }

  // ---- steps ----

  async #steps(steps: Step[], prefix: string): Promise<void> {
    for (let i = 0; i < steps.length; i++) await this.#one(steps[i], `${prefix}${i + 1}`);
  }

  async #one(step: Step, path: string): Promise<void> {
    if (this.input.signal?.aborted) throw new Error('the run was stopped');
    const kind = kindOf(step);
    const raw = (step as Record<string, unknown>)[kind];
    if (kind === 'repeat') {
      const r = raw as StepBody<'repeat'>;
      for (let round = 1; round <= r.times; round++) {
        this.#vars.set('round', String(round));
        await this.#steps(r.steps, `${path}.${round}.`);
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
      }
      return;
    }
    const body = substitute(raw, this.#vars) as Fields;
    const expectation = EXPECTATION_KINDS.includes(kind);
    const name = step.name ?? describe(kind, body);
    await this.#step({ name, kind, expectation }, path, () => this.#carryOut(kind, body));
  }

  async #step(
    meta: { name: string; kind: string; expectation: boolean },
    path: string,
    work: () => Promise<{ message: string | null; frames: ProofFrame[] }>,
  ): Promise<void> {
    const step: StepResult = {
      path,
      ...meta,
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
      step.status = 'failed';
      step.message = (err as Error).message;
      if (err instanceof StepFailure) step.frames = err.frames;
      if (meta.expectation) this.result.expectations.failed++;
      throw err instanceof StepFailure ? err : new StepFailure(step.message);
    } finally {
      step.finished_at = new Date().toISOString();
      this.input.onEvent?.({ type: 'step', step: { ...step } });
    }
  }

  async #carryOut(kind: string, b: Fields): Promise<{ message: string | null; frames: ProofFrame[] }> {
    const targets = kind === 'wait' ? [] : this.#targets(b.charger);
    const connector = b.connector as number;
    const none = { message: null, frames: [] };
    const command = COMMANDS[kind];
    if (command) {
      const payload = commandPayload(kind, b);
      for (const c of targets) {
        c.mark = c.frames.length;
        const problem = await this.host.command(this.input.orgId, c.hosted, command, payload);
        if (problem) throw new StepFailure(`${c.hosted.identity}: ${problem}`);
      }
      return none;
    }
    switch (kind) {
      case 'reboot':
        for (const c of targets) {
          c.mark = c.frames.length;
          await this.host.reboot(this.input.orgId, c.hosted);
        }
        return none;
      case 'csms_call':
        for (const c of targets) {
          c.mark = c.frames.length;
          const problem = await this.host.csmsCall(c.hosted, b.action, b.payload, {
            wsUrl: this.input.wsUrl,
            hookUrl: this.input.csmsHook,
          });
          if (problem) throw new StepFailure(`${c.hosted.identity}: ${problem}`);
        }
        return none;
      case 'wait':
        await this.#waitFor(() => (this.input.signal?.aborted ? true : undefined), b.seconds * 1000);
        return none;
      case 'wait_for_status':
      case 'expect_status':
        return this.#each(
          targets,
          limitOf(b),
          (c) => {
            const sinceMark = c.frames
              .slice(c.mark)
              .find((f) => statusesOf(f).some(([n, s]) => n === connector && s === b.status));
            if (sinceMark) return [sinceMark];
            const now = latestStatuses(c.frames, connector);
            const holding = now.find(([, s]) => s === b.status);
            return holding ? [holding[0]] : undefined;
          },
          (c) => {
            const now = latestStatuses(c.frames, connector);
            const told = now.length ? now.map(([, s]) => s).join(' / ') : 'none reported';
            return [
              `connector ${connector} of ${c.hosted.identity} is ${told}, not ${b.status}`,
              now.map(([f]) => f),
            ];
          },
        );
      case 'wait_for_frame':
      case 'expect_call':
      case 'expect_answer': {
        const from = kind === 'expect_answer' ? 'csms' : (b.from ?? 'csms');
        const type = b.type ?? (kind === 'expect_answer' ? 'CALLRESULT' : 'CALL');
        const direction = from === 'csms' ? 'in' : 'out';
        const candidates = (c: RunCharger) =>
          c.frames
            .slice(c.mark)
            .filter(
              (f) =>
                f.direction === direction &&
                f.action === b.action &&
                (kind !== 'expect_answer' || f.type !== 'CALL'),
            );
        const out = await this.#each(
          targets,
          limitOf(b),
          (c) => {
            const f = candidates(c).find(
              (f) => f.type === type && (b.payload === undefined || matches(f.payload, b.payload)),
            );
            if (!f) return undefined;
            // An answer is shown with the call it answers.
            const call =
              type !== 'CALL'
                ? c.frames.find((x) => x.type === 'CALL' && x.messageId === f.messageId)
                : undefined;
            return call ? [call, f] : [f];
          },
          (c) => {
            const seenOnes = candidates(c).slice(-3);
            const what =
              kind === 'expect_answer'
                ? `answer to ${b.action}`
                : `${type} ${b.action} from the ${from === 'csms' ? 'central system' : 'charger'}`;
            const fieldsText = b.payload ? ` with ${JSON.stringify(b.payload)}` : '';
            return [
              seenOnes.length > 0
                ? `${c.hosted.identity}: no ${what}${fieldsText}; got ${seenOnes.map((f) => `${f.type} ${JSON.stringify(f.payload)}`).join(', ')}`
                : `${c.hosted.identity}: no ${what} within ${limitOf(b)} s`,
              seenOnes,
            ];
          },
        );
        if (kind === 'wait_for_frame' && b.save) {
          const first = out.frames[out.frames.length - 1]?.item as { frame?: unknown[] } | undefined;
          const payload = first?.frame ? first.frame[first.frame[0] === 2 ? 3 : 2] : undefined;
          for (const [name, path] of Object.entries(b.save as Record<string, string>)) {
            const v = at(payload, path);
            if (v === undefined) throw new StepFailure(`save ${name}: the frame has no ${path}`, out.frames);
            this.#vars.set(name, v);
          }
        }
        return out;
      }
      case 'expect_meter':
        return this.#each(
          targets,
          limitOf(b),
          (c) => {
            const ok = (v: number) =>
              (b.at_least === undefined || v >= b.at_least) && (b.at_most === undefined || v <= b.at_most);
            const f = c.frames.slice(c.mark).find((f) => meterValuesOf(f, connector, b.measurand).some(ok));
            return f ? [f] : undefined;
          },
          (c) => {
            const last = c.frames
              .filter((f) => meterValuesOf(f, connector, b.measurand).length > 0)
              .slice(-3);
            const values = last.flatMap((f) => meterValuesOf(f, connector, b.measurand));
            return [
              `${c.hosted.identity}: ${b.measurand} on connector ${connector} never ${bounds(b)} (last values: ${values.length ? values.join(', ') : 'none'})`,
              last,
            ];
          },
        );
    }
    throw new Error(`step '${kind}' is not carried out by this runner`);
  }

  /** Every target must produce its proof within `s` seconds; the first that does not fails the step. */
  async #each(
    targets: RunCharger[],
    s: number,
    check: (c: RunCharger) => SeenFrame[] | undefined,
    failure: (c: RunCharger) => [string, SeenFrame[]],
  ): Promise<{ message: string | null; frames: ProofFrame[] }> {
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

/**
 * The newest status of a connector on each of its tracks (the connector's status, and in 2.0.1
 * also the transaction's charging state), with the frame that reported it.
 */
function latestStatuses(frames: SeenFrame[], connector: number): Array<[SeenFrame, string]> {
  const found = new Map<string, [SeenFrame, string]>();
  for (let i = frames.length - 1; i >= 0 && found.size < 2; i--)
    for (const [n, status, track] of statusesOf(frames[i]))
      if (n === connector && !found.has(track)) found.set(track, [frames[i], status]);
  return [...found.values()];
}

/** A wait's or expectation's time limit in seconds (the schema gives each its default). */
const limitOf = (b: Fields): number => b.timeout_s ?? b.within_s ?? 30;

function bounds(b: { at_least?: number; at_most?: number }): string {
  const parts = [];
  if (b.at_least !== undefined) parts.push(`>= ${b.at_least}`);
  if (b.at_most !== undefined) parts.push(`<= ${b.at_most}`);
  return parts.length ? `reached ${parts.join(' and ')}` : 'reported';
}

/** The command payload of an action step (connectors: 1.6 reads connector_id, 2.0.1 evse_id). */
function commandPayload(kind: string, b: Fields): unknown {
  const on = { connector_id: b.connector, evse_id: b.connector };
  switch (kind) {
    case 'plug_in':
      return {
        ...on,
        ev_max_power_kw: b.ev_max_power_kw,
        soc_percent: b.soc_percent,
        battery_kwh: b.battery_kwh,
      };
    case 'present_token':
      return { ...on, id_tag: b.id_tag };
    case 'fault':
      return { ...on, error_code: b.error_code };
    case 'configure':
      return { key: b.key, component: b.component, variable: b.variable, value: b.value };
    case 'send':
      return { action: b.action, payload: b.payload };
    case 'disconnect':
    case 'clear_cache':
      return {};
    default:
      return on;
  }
}

/** A step's default name: its kind and what it names. */
function describe(kind: string, b: Fields): string {
  const parts = [kind];
  for (const key of ['action', 'status', 'id_tag', 'measurand', 'seconds'])
    if ((b as unknown as Record<string, unknown>)[key] !== undefined)
      parts.push(String((b as unknown as Record<string, unknown>)[key]));
  if (b.connector !== undefined) parts.push(`connector ${b.connector}`);
  if (b.charger) parts.push(`on ${b.charger}`);
  return parts.join(' ');
}
