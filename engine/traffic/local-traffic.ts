// Generated traffic over charger actors held in this process, without a command bus: each command
// of the run becomes its machine event (chargerEvent, as the command consumer makes it) sent straight
// to the actor. The in-process load test uses it; the service's traffic goes through the command bus
// (traffic-service.ts). It counts the transactions the chargers carried: one open on a connector
// when its EV left.
import type { ChargerActor } from '../charger/charger-runtime.ts';
import { chargerEvent } from '../commands/command-kinds.ts';
import type { TrafficConfig } from './traffic-config.ts';
import { TrafficRun, type TrafficCharger, type TrafficStatus } from './traffic-run.ts';

export interface LocalTraffic {
  run: TrafficRun;
  /** Transactions open on a connector when its EV left (or at the stop): the sessions carried. */
  sessions(): number;
  /** Commands the chargers' versions could not take (a payload problem). */
  problems(): number;
  status(): TrafficStatus;
}

export function startLocalTraffic(
  config: TrafficConfig,
  actors: ChargerActor[],
  identities: string[],
  connectors: number,
  /** The fleet index of `identities[0]`, when this process runs one slice of a fleet. */
  firstIndex = 0,
): LocalTraffic {
  let sessions = 0;
  let problems = 0;
  const chargers: TrafficCharger[] = identities.map((identity, i) => ({
    key: String(i),
    identity,
    connectors,
    index: firstIndex + i,
  }));
  const run = new TrafficRun(config, chargers, async (charger, type, payload) => {
    const actor = actors[Number(charger.key)];
    const ctx = actor.getSnapshot().context;
    const built = chargerEvent(type, payload, ctx.version);
    if ('problem' in built) {
      problems++;
      throw new Error(built.problem);
    }
    const event = built.event;
    if (type === 'unplug' && 'connectorId' in event) {
      if (ctx.connectors.find((c) => c.id === event.connectorId)?.tx) sessions++;
    }
    actor.send(event);
  });
  return {
    run,
    sessions: () => sessions,
    problems: () => problems,
    status: () => run.status(),
  };
}
