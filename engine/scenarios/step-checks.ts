// The waits and expectations answered from a charger's frames: a status reached, a frame of a
// sender / type / action / payload (saving fields into variables), a meter value within bounds.
// Each looks at the frames since the charger's mark and waits up to its time limit through the
// run's `each`, which records the proving frames or fails the step with the closest ones.
import { at, matches, meterValuesOf, statusesOf, type SeenFrame } from './frames.ts';
import type { HostedScenarioCharger } from './scenario-host.ts';
import type { ProofFrame } from './scenario-result.ts';
import { limitOf, type Fields } from './step-fields.ts';

export interface RunCharger {
  group: string;
  hosted: HostedScenarioCharger;
  frames: SeenFrame[];
  /** Index in `frames` of the first frame after this charger's last action. */
  mark: number;
  /** What `save` kept from this charger's own frames: read before the run's variables. */
  vars: Map<string, unknown>;
}

export class StepFailure extends Error {
  constructor(
    message: string,
    readonly frames: ProofFrame[] = [],
  ) {
    super(message);
  }
}

export type StepOutcome = { message: string | null; frames: ProofFrame[] };

/** What a check needs of its run. */
export interface CheckRun {
  /** Every target must produce its proof within `s` seconds; the first that does not fails the step. */
  each(
    targets: RunCharger[],
    s: number,
    check: (c: RunCharger) => SeenFrame[] | undefined,
    failure: (c: RunCharger) => [string, SeenFrame[]],
  ): Promise<StepOutcome>;
  /** What `check` finds, re-checked on every new frame, or undefined after `s` seconds. */
  until<T>(check: () => T | undefined, s: number): Promise<T | undefined>;
  /** Saves a variable from the frames of each charger of a step: each keeps its own value. */
  save(name: string, values: Map<RunCharger, unknown>): void;
}

/** A step's fields for one of its chargers (its `${variables}` replaced with that charger's). */
export type BodyOf = (c: RunCharger) => Fields;

/** wait_for_status, expect_status: the connector reported the status since the mark, or holds it now. */
export function checkStatus(run: CheckRun, targets: RunCharger[], bodyOf: BodyOf): Promise<StepOutcome> {
  return run.each(
    targets,
    limitOf(bodyOf(targets[0])),
    (c) => {
      const b = bodyOf(c);
      const connector = b.connector;
      const sinceMark = c.frames
        .slice(c.mark)
        .find((f) => statusesOf(f).some(([n, s]) => n === connector && s === b.status));
      if (sinceMark) return [sinceMark];
      const now = latestStatuses(c.frames, connector);
      const holding = now.find(([, s]) => s === b.status);
      return holding ? [holding[0]] : undefined;
    },
    (c) => {
      const b = bodyOf(c);
      const connector = b.connector;
      const now = latestStatuses(c.frames, connector);
      const told = now.length ? now.map(([, s]) => s).join(' / ') : 'none reported';
      return [
        `connector ${connector} of ${c.hosted.identity} is ${told}, not ${b.status}`,
        now.map(([f]) => f),
      ];
    },
  );
}

/** wait_for_frame, expect_call, expect_answer: a matching frame since the mark; `save` keeps fields. */
export async function checkFrame(
  run: CheckRun,
  kind: string,
  targets: RunCharger[],
  bodyOf: BodyOf,
): Promise<StepOutcome> {
  const b = bodyOf(targets[0]);
  const from = kind === 'expect_answer' ? 'csms' : (b.from ?? 'csms');
  const type = b.type ?? (kind === 'expect_answer' ? 'CALLRESULT' : 'CALL');
  const direction = from === 'csms' ? 'in' : 'out';
  const candidates = (c: RunCharger) =>
    c.frames
      .slice(c.mark)
      .filter(
        (f) =>
          f.direction === direction &&
          f.action === bodyOf(c).action &&
          (kind !== 'expect_answer' || f.type !== 'CALL'),
      );
  /** The frame each charger matched: what `save` reads. */
  const found = new Map<RunCharger, SeenFrame>();
  const out = await run.each(
    targets,
    limitOf(b),
    (c) => {
      const payload = bodyOf(c).payload;
      const f = candidates(c).find(
        (f) => f.type === type && (payload === undefined || matches(f.payload, payload)),
      );
      if (!f) return undefined;
      found.set(c, f);
      // An answer is shown with the call it answers.
      const call =
        type !== 'CALL' ? c.frames.find((x) => x.type === 'CALL' && x.messageId === f.messageId) : undefined;
      return call ? [call, f] : [f];
    },
    (c) => {
      const b = bodyOf(c);
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
    // Each charger keeps the value of its own frame (a group of 3 saves 3 transaction ids).
    for (const [name, path] of Object.entries(b.save)) {
      const values = new Map<RunCharger, unknown>();
      for (const c of targets) {
        const v = at(found.get(c)?.payload, path);
        if (v === undefined)
          throw new StepFailure(`save ${name}: the frame of ${c.hosted.identity} has no ${path}`, out.frames);
        values.set(c, v);
      }
      run.save(name, values);
    }
  }
  return out;
}

/** expect_no_call: no CALL of the action (with these fields) from the central system for `within_s` from now. */
export async function checkNoCall(
  run: CheckRun,
  targets: RunCharger[],
  bodyOf: BodyOf,
): Promise<StepOutcome> {
  // From now: the call a prompt made the central system send before is not held against it.
  const from = new Map(targets.map((c) => [c, c.frames.length]));
  const sent = () => {
    for (const c of targets) {
      const b = bodyOf(c);
      const f = c.frames
        .slice(from.get(c))
        .find(
          (f) =>
            f.direction === 'in' &&
            f.type === 'CALL' &&
            f.action === b.action &&
            (b.payload === undefined || matches(f.payload, b.payload)),
        );
      if (f) return [c, f] as const;
    }
    return undefined;
  };
  const b = bodyOf(targets[0]);
  const found = await run.until(sent, limitOf(b));
  if (found) {
    const [c, f] = found;
    throw new StepFailure(
      `${c.hosted.identity}: the central system sent ${b.action} ${JSON.stringify(f.payload)}`,
      [{ charger: c.hosted.identity, item: JSON.parse(f.item) as unknown }],
    );
  }
  return { message: `no ${b.action} within ${limitOf(b)} s`, frames: [] };
}

/** expect_meter: a meter value of the measurand within the bounds since the mark. */
export function checkMeter(run: CheckRun, targets: RunCharger[], bodyOf: BodyOf): Promise<StepOutcome> {
  return run.each(
    targets,
    limitOf(bodyOf(targets[0])),
    (c) => {
      const b = bodyOf(c);
      const connector = b.connector;
      const ok = (v: number) =>
        (b.at_least === undefined || v >= b.at_least) && (b.at_most === undefined || v <= b.at_most);
      const f = c.frames.slice(c.mark).find((f) => meterValuesOf(f, connector, b.measurand).some(ok));
      return f ? [f] : undefined;
    },
    (c) => {
      const b = bodyOf(c);
      const connector = b.connector;
      const last = c.frames.filter((f) => meterValuesOf(f, connector, b.measurand).length > 0).slice(-3);
      const values = last.flatMap((f) => meterValuesOf(f, connector, b.measurand));
      return [
        `${c.hosted.identity}: ${b.measurand} on connector ${connector} never ${bounds(b)} (last values: ${values.length ? values.join(', ') : 'none'})`,
        last,
      ];
    },
  );
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

function bounds(b: { at_least?: number; at_most?: number }): string {
  const parts = [];
  if (b.at_least !== undefined) parts.push(`>= ${b.at_least}`);
  if (b.at_most !== undefined) parts.push(`<= ${b.at_most}`);
  return parts.length ? `reached ${parts.join(' and ')}` : 'reported';
}
