// The charger machine's public face: what goes in (input, events), what the engine must provide
// (the `link` actor, a clock), and what comes out (emitted events). The machine imports no
// socket, database or broker: the engine glue is written against this file.
//
// Usage (engine; engine/charger/charger-runtime.ts does this):
//   const machine = chargerMachine.provide({ actors: { link: fromCallback<LinkCommand, LinkInput>(openLink) } });
//   const actor = createActor(machine, { input, clock: REAL_CLOCK });   // or { snapshot } to rehydrate
//   actor.on('stage', (e) => ...); actor.on('command.result', (r) => ...);
//   actor.subscribe({ error: (err) => ... });                 // every root needs an error observer
//   actor.start(); actor.send({ type: 'DEPLOY' });            // or, after a restore, { type: 'RESUME' }
//
// Time: the machine reads the clock of its actor (REAL_CLOCK, or xstate's SimulatedClock in tests),
// so timers and timestamps follow the same clock.
export type { OcppVersion } from '../../protocols/ocpp/versions.ts';
export type { ChargerContext, ChargerModel, ChargerTimings, Stage } from './core/context.ts';
export { STAGES } from './core/context.ts';
export { STAGE_OUTCOMES } from './core/events.ts';
export { DEFAULT_TIMINGS } from './core/context.ts';
export type {
  ChargerEmitted,
  ChargerEvent,
  ChargerInput,
  CommandEvent,
  CommandOf,
  CommandResult,
  CommandType,
  InternalEvent,
  LifecycleEvent,
  LinkCommand,
  LinkEvent,
  LinkInput,
  LinkSecurity,
  RevokedCertificate,
  SecurityRequest,
  SecurityResult,
  CertificateHashData,
  LocalListCommand,
  StageEvent,
  StageOutcome,
} from './core/events.ts';
export { LINK_ID } from './core/events.ts';
export { callsSent } from './core/step.ts';
export type { ChargerClock } from './core/clock.ts';
export { REAL_CLOCK } from './core/clock.ts';
export { SNAPSHOT_VERSION } from './charger-snapshot.ts';
