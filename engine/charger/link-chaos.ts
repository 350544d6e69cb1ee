// Fleet chaos on one charger's link (docs/faults.md, "Fleet chaos runs"): an outage of its power or
// of its network, and a watch that tells a chaos run what the charger saw (connections opened or
// refused, the answers to its CALLs). Kept by the runtime per actor, beside its link conditions,
// and read by the link when a connection starts; gone with the actor.
import type { CallOutcome } from '../../protocols/ocpp/index.ts';

/**
 * `power`: the charger is dark: its socket is gone at once without a close frame, and it opens no
 * connection until the power is back. `network`: its connection carries nothing either way and
 * answers no ping (the charger finds out by its own pings or call timeouts), and every connection
 * it tries fails as unreachable until the network is back.
 */
export type Outage = 'power' | 'network';

/** What a chaos run hears of one charger's link. */
export interface LinkWatch {
  /** A connection opened (the WebSocket upgrade succeeded). */
  connected(): void;
  /** A connection attempt failed (refused, unreachable, dark). */
  connectFailed(code: string): void;
  /** One of the charger's CALLs was answered, answered with a CALLERROR, or not in its timeout. */
  answered(action: string, outcome: CallOutcome, answer: unknown): void;
}

/** A charger's chaos: its outage and its watch, either of them null. */
export interface LinkChaos {
  outage: Outage | null;
  watch: LinkWatch | null;
}

/** The event the runtime sends the running link when an outage starts or ends. */
export const CHAOS_EVENT = 'link.chaos';
export interface ChaosCommand {
  type: typeof CHAOS_EVENT;
  outage: Outage | null;
}

/** Why a connection is not even tried during an outage (the stage event's code and hint). */
export const OUTAGE_FAILURE: Record<Outage, { code: string; hint: string }> = {
  power: {
    code: 'POWER_OFF',
    hint: 'the charger has no power (a chaos run): no connection until it is back',
  },
  network: {
    code: 'NETWORK_UNREACHABLE',
    hint: 'the central system is unreachable (a chaos run partitions the network)',
  },
};
