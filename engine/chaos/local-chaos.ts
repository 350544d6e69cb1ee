// A chaos run over charger actors held in this process, without the broker: each step is done to
// the actor at once and its link's watch feeds the run directly. The benchmark and the tests use
// it; the service's runs go through the nodes holding the chargers (chaos-service.ts).
import type { ChargerActor, ChargerRuntime } from '../charger/charger-runtime.ts';
import { doChaos } from './chaos-actions.ts';
import type { ChaosConfig } from './chaos-config.ts';
import { ChaosRun, type ChaosCharger } from './chaos-run.ts';

/** `actors` in any order: the run sorts them by identity, as the service does. */
export function startLocalChaos(
  config: ChaosConfig,
  runtime: ChargerRuntime,
  actors: ChargerActor[],
  onEnd?: (run: ChaosRun) => void,
): ChaosRun {
  const byKey = new Map<string, ChargerActor>();
  const chargers: ChaosCharger[] = actors
    .map((actor) => {
      const identity = actor.getSnapshot().context.identity;
      byKey.set(identity, actor);
      return { key: identity, identity };
    })
    .sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0));
  // The run observes the watches it starts; made before the run, so its constructor may start them.
  const made: { run?: ChaosRun } = {};
  const observers = new Map<string, (o: Parameters<ChaosRun['observe']>[1]) => void>();
  const sinkOf = (key: string) => {
    let sink = observers.get(key);
    if (!sink) observers.set(key, (sink = (o) => made.run?.observe(key, o)));
    return sink;
  };
  made.run = new ChaosRun(
    config,
    chargers,
    (step, targets) => {
      for (const c of targets) doChaos(runtime, byKey.get(c.key)!, step, sinkOf(c.key));
    },
    Date.now,
    onEnd,
  );
  return made.run;
}
