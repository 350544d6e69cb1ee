// One chaos run: its plan played on time (ONE timer, armed for the next action, as traffic runs
// do), the chargers it touches watched from the start until they are back or the run settles, and
// the report of what they saw. Where an action goes (an actor here, the node holding a charger) is
// the `apply` it is given; the steps due at once go together, one call per kind of step.
import type { ChaosConfig } from './chaos-config.ts';
import type { ChaosStep } from './chaos-actions.ts';
import { FAULTS, RESTORING, UNDO, planChaos, type ChaosAction, type ChaosPlan } from './chaos-plan.ts';
import { ChaosRecorder, type ChaosReport, type Observation } from './chaos-report.ts';

export interface ChaosCharger {
  key: string;
  identity: string;
}

/** Does one step to these chargers. */
export type ApplyChaos = (step: ChaosStep, chargers: ChaosCharger[]) => void;

export type ChaosStatus = 'running' | 'finished' | 'stopped';

/** One action as it was done: the sequence the seed decides. */
export interface DoneAction {
  at_ms: number;
  identity: string;
  action: ChaosAction;
}

/** Checks whether the chargers are back, once the last action is done. */
const SETTLE_CHECK_MS = 250;
/** Actions kept for reading back (a run over 10,000 chargers does 20,000). */
const KEEP_DONE = 100_000;

export class ChaosRun {
  readonly plan: ChaosPlan;
  readonly recorder: ChaosRecorder;
  readonly done: DoneAction[] = [];
  readonly startedAt: number;
  endedAt: number | null = null;
  #status: ChaosStatus = 'running';
  #next = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #settleBy = Infinity;
  /** The fault still going on each charger (for a stop), by place. */
  readonly #open = new Map<number, ChaosAction>();
  readonly #place: Map<string, number>;

  constructor(
    readonly config: ChaosConfig,
    readonly chargers: ChaosCharger[],
    private readonly apply: ApplyChaos,
    private readonly now: () => number = Date.now,
    private readonly onEnd?: (run: ChaosRun) => void,
  ) {
    this.startedAt = now();
    this.plan = planChaos(config, chargers.length);
    this.#place = new Map(chargers.map((c, i) => [c.key, i]));
    this.recorder = new ChaosRecorder(
      chargers.map((c) => c.identity),
      this.plan.chosen.length,
    );
    if (this.plan.chosen.length > 0)
      this.apply(
        'watch',
        this.plan.chosen.map((i) => chargers[i]),
      );
    this.#tick();
  }

  get status(): ChaosStatus {
    return this.#status;
  }

  /** What a watched charger saw (`at` in ms since the epoch); chargers not in the run are ignored. */
  observe(key: string, o: Observation): void {
    const i = this.#place.get(key);
    if (i === undefined || this.#status !== 'running') return;
    this.recorder.observe(i, { ...o, at: o.at - this.startedAt });
  }

  report(): ChaosReport {
    return this.recorder.report();
  }

  /** Ends the run now: faults still going end (power and network back, EVs leave), watching stops. */
  stop(): void {
    if (this.#status !== 'running') return;
    clearTimeout(this.#timer);
    const at = this.now() - this.startedAt;
    const undo = new Map<ChaosAction, number[]>();
    for (const [i, fault] of this.#open) {
      const action = UNDO[fault]!;
      undo.set(action, [...(undo.get(action) ?? []), i]);
    }
    this.#open.clear();
    for (const [action, places] of undo) {
      for (const i of places) this.#record(at, i, action);
      this.#do(action, places, at);
    }
    this.#end('stopped');
  }

  #tick = (): void => {
    this.#timer = undefined;
    if (this.#status !== 'running') return;
    const at = this.now() - this.startedAt;
    const { actions } = this.plan;
    // What is due now, grouped by action in the order the plan gives.
    const groups = new Map<ChaosAction, number[]>();
    while (this.#next < actions.length && actions[this.#next].at_ms <= at) {
      const a = actions[this.#next++];
      this.#record(a.at_ms, a.charger, a.action);
      const g = groups.get(a.action);
      if (g) g.push(a.charger);
      else groups.set(a.action, [a.charger]);
    }
    for (const [action, places] of groups) this.#do(action, places, at);
    if (this.#next < actions.length) return this.#arm(actions[this.#next].at_ms - at);
    if (this.#settleBy === Infinity) this.#settleBy = at + this.config.settle_s * 1000;
    if (this.recorder.allBack() || at >= this.#settleBy) return this.#end('finished');
    this.#arm(SETTLE_CHECK_MS);
  };

  #do(action: ChaosAction, places: number[], at: number): void {
    for (const i of places) {
      if (FAULTS.has(action)) {
        this.recorder.fault(i, at);
        if (UNDO[action]) this.#open.set(i, action);
      } else this.#open.delete(i);
      if (RESTORING.has(action)) this.recorder.restored(i, at);
    }
    this.apply(
      action,
      places.map((i) => this.chargers[i]),
    );
  }

  /** The sequence as planned (the plan's times; a stop's undoing at its own). */
  #record(at_ms: number, i: number, action: ChaosAction): void {
    if (this.done.length < KEEP_DONE) this.done.push({ at_ms, identity: this.chargers[i].identity, action });
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(this.#tick, Math.max(0, ms));
    this.#timer.unref?.();
  }

  #end(status: ChaosStatus): void {
    this.#status = status;
    this.endedAt = this.now();
    if (this.plan.chosen.length > 0)
      this.apply(
        'unwatch',
        this.plan.chosen.map((i) => this.chargers[i]),
      );
    this.onEnd?.(this);
  }
}
