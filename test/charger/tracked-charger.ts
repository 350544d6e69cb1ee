// A charger actor from the runtime with what it said recorded: its stage events, its command
// results, and `until(predicate)`, which re-checks the predicate whenever the charger changes
// (so tests wait for what they need without sleeping or polling).
import type { ChargerActor } from '../../engine/charger/charger-runtime.ts';
import type { CommandResult, StageEvent } from '../../actors/charger/charger-ports.ts';

export interface TrackedCharger {
  actor: ChargerActor;
  stages: StageEvent[];
  results: CommandResult[];
  /** `stage:outcome[:code]` of every stage event so far. */
  stageLog(): string[];
  ctx(): ReturnType<ChargerActor['getSnapshot']>['context'];
  until<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  stop(): void;
}

export function track(actor: ChargerActor): TrackedCharger {
  const stages: StageEvent[] = [];
  const results: CommandResult[] = [];
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const check of [...waiters]) check();
  };
  actor.on('stage', ({ type: _type, ...event }) => {
    stages.push(event);
    changed();
  });
  actor.on('command.result', (result) => {
    results.push(result);
    changed();
  });
  actor.subscribe({ next: changed });
  const stageLog = () => stages.map((s) => `${s.stage}:${s.outcome}${s.code ? `:${s.code}` : ''}`);

  return {
    actor,
    stages,
    results,
    stageLog,
    ctx: () => actor.getSnapshot().context,
    until<T>(predicate: () => T | undefined | null | false, timeoutMs = 5000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = (): void => {
          const value = predicate();
          if (value === undefined || value === null || value === false) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`charger: until() timed out after ${timeoutMs} ms; stages: ${stageLog().join(' ')}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop: () => actor.stop(),
  };
}
