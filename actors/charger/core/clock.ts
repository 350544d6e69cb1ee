// The charger's environment is its actor's clock: createActor(machine, { clock }) with a clock
// that also reads the time (and, for the reconnect jitter, draws random numbers). The engine
// passes REAL_CLOCK; tests pass xstate's SimulatedClock (which reads its own time) with a fixed
// random. One clock object serves every charger: nothing is allocated per actor.
import type { ActorOptions, AnyActorLogic } from 'xstate';

/** xstate's Clock (not exported by name) that may also read the time and draw random numbers. */
export type ChargerClock = NonNullable<ActorOptions<AnyActorLogic>['clock']> & {
  now?(): number;
  random?(): number;
};

export const REAL_CLOCK: ChargerClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  now: Date.now,
  random: Math.random,
};

/** The clock of the actor system an action runs in (xstate's own clock when none was given). */
const clockOf = (system: { _clock: unknown }) => system._clock as ChargerClock;

export const nowOf = (system: { _clock: unknown }): number => clockOf(system).now?.() ?? Date.now();

export const randomOf = (system: { _clock: unknown }): number => clockOf(system).random?.() ?? Math.random();
