// The steps a failed run did not reach, reported `skipped` in the document's order (the JUnit
// report lists them as <skipped message="not reached"/>).
import type { StepResult } from './scenario-result.ts';
import { EXPECTATION_KINDS, kindOf, type Step, type StepBody } from './scenario-schema.ts';
import { describe, type Fields } from './step-fields.ts';

function skipped(path: string, kind: string, name: string, expectation: boolean): StepResult {
  const at = new Date().toISOString();
  return {
    path,
    kind,
    name,
    expectation,
    status: 'skipped',
    started_at: at,
    finished_at: at,
    message: 'not reached',
    frames: [],
  };
}

/** The rounds `first`..`last` of the repeat at `path`: one entry for them all. */
export function roundsNotReached(path: string, first: number, last: number): StepResult {
  const name = first === last ? `round ${first}` : `rounds ${first}-${last}`;
  return skipped(`${path}.${first}`, 'repeat', name, false);
}

/** `steps` from index `from` on; a repeat or choose as one entry, `set` steps left out. */
export function stepsNotReached(steps: Step[], prefix: string, from: number): StepResult[] {
  const out: StepResult[] = [];
  for (let i = from; i < steps.length; i++) {
    const kind = kindOf(steps[i]);
    if (kind === 'set') continue; // reported by no step when it runs either
    const raw = (steps[i] as Record<string, unknown>)[kind];
    const name =
      steps[i].name ??
      (kind === 'repeat'
        ? `repeat ${(raw as StepBody<'repeat'>).times} times`
        : kind === 'choose'
          ? 'choose'
          : describe(kind, raw as Fields));
    out.push(skipped(`${prefix}${i + 1}`, kind, name, EXPECTATION_KINDS.includes(kind)));
  }
  return out;
}
