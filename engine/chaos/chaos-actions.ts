// How each action of a chaos plan is done to a charger actor, wherever the actor runs (this process
// or the node holding it), and the watch that reports what its link saw.
import type { ChargerActor, ChargerRuntime } from '../charger/charger-runtime.ts';
import type { LinkWatch } from '../charger/link-chaos.ts';
import type { Observation } from './chaos-report.ts';
import type { ChaosAction } from './chaos-plan.ts';

/** A watch's start and end travel with the actions. */
export type ChaosStep = ChaosAction | 'watch' | 'unwatch';

/** The token a surge presents: one per charger, within OCPP 1.6's 20 characters. */
export const surgeToken = (identity: string) => `CHAOS-${identity}`.slice(0, 20);

/**
 * Does one step to a charger. Power off: its socket is gone without a close frame, and it stays
 * dark; power on: it boots again as a charger does after a power cut (a new attempt, a
 * BootNotification, its reconnect backoff on failure). Network off / on: its link carries nothing
 * and connects nowhere, then does again. Reboot: a restart (the socket closed, a new boot). Surge:
 * an EV plugs in on connector 1 and its driver presents a token; the EV leaves at the end.
 */
export function doChaos(
  runtime: ChargerRuntime,
  actor: ChargerActor,
  step: ChaosStep,
  watch?: (o: Observation) => void,
): void {
  switch (step) {
    case 'watch':
      if (watch) runtime.watch(actor, linkWatch(watch));
      return;
    case 'unwatch':
      runtime.watch(actor, null);
      return;
    case 'power_off':
      return runtime.setOutage(actor, 'power');
    case 'power_on':
      runtime.setOutage(actor, null);
      actor.send({ type: 'RESTART' });
      return;
    case 'net_off':
      return runtime.setOutage(actor, 'network');
    case 'net_on':
      return runtime.setOutage(actor, null);
    case 'reboot':
      actor.send({ type: 'RESTART' });
      return;
    case 'surge_start': {
      const identity = actor.getSnapshot().context.identity;
      actor.send({ type: 'PLUG_IN', connectorId: 1 });
      actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: surgeToken(identity) });
      return;
    }
    case 'surge_end':
      actor.send({ type: 'UNPLUG', connectorId: 1 });
      return;
  }
}

/** A link watch telling `sink` what it sees, stamped with the wall clock (ms since the epoch). */
export function linkWatch(sink: (o: Observation) => void): LinkWatch {
  return {
    connected: () => sink({ kind: 'connected', at: Date.now() }),
    connectFailed: (code) => sink({ kind: 'connect_failed', at: Date.now(), code }),
    answered(action, outcome, answer) {
      const status =
        outcome === 'error'
          ? String(answer)
          : action === 'BootNotification' && outcome === 'result'
            ? String((answer as { status?: unknown } | undefined)?.status)
            : undefined;
      sink({
        kind: 'answered',
        at: Date.now(),
        action,
        outcome,
        ...(status !== undefined ? { status } : {}),
      });
    },
  };
}
