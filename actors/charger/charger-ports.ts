// The injection points of the charger machine: what goes in (input, events), what the engine must
// provide (the `link` actor, the environment), and what comes out (emitted events).
// The machine imports no socket, database or broker: the engine glue is written against this file.
//
// Usage (engine):
//   const machine = createChargerMachine({ now: Date.now, random: Math.random })
//     .provide({ actors: { link: fromCallback<LinkCommand, LinkInput>(openLink) } });
//   const actor = createActor(machine, { input });            // or { snapshot } to rehydrate
//   actor.on('stage', (e) => ...); actor.on('command.result', (r) => ...);
//   actor.subscribe({ error: (err) => ... });                 // every root needs an error observer
//   actor.start(); actor.send({ type: 'DEPLOY' });            // or, after a restore, { type: 'RESUME' }

/** Bump when the context or the state tree changes shape; stored snapshots of another version are discarded. */
export const SNAPSHOT_VERSION = 1;

export type ChargerOcppVersion = 'ocpp1.6' | 'ocpp2.0.1';

export type Stage =
  | 'not_deployed'
  | 'queued'
  | 'scheduling'
  | 'pulling'
  | 'starting'
  | 'connecting'
  | 'registering'
  | 'online'
  | 'offline'
  | 'stopped';

export type StageOutcome = 'in_progress' | 'succeeded' | 'failed' | 'stuck' | 'recovered';

/** One deployment stage event (spec: "Deployment stage event"); `at` is ISO 8601. */
export interface StageEvent {
  identity: string;
  attempt: number;
  stage: Stage;
  outcome: StageOutcome;
  at: string;
  code?: string;
  hint?: string;
}

/** The catalog model the charger simulates. */
export interface ChargerModel {
  boot_vendor: string;
  boot_model: string;
  firmware_version?: string;
  connector_count: number;
  max_power_kw: number;
  current_type: 'AC' | 'DC';
  connector_types?: string[];
}

/** Tunable durations (ms unless named otherwise). Defaults in DEFAULT_TIMINGS. */
export interface ChargerTimings {
  /** Each simulated provisioning step (queued, scheduling, pulling, starting). */
  provisioningStepMs: number;
  /** A stage still current after this long is reported `stuck` (once). */
  connectingDeadlineMs: number;
  registeringDeadlineMs: number;
  offlineDeadlineMs: number;
  /** Reconnect backoff: min(max, base * 2^failures), then jittered to [50%, 100%]. */
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  /** Boot retry when the CSMS answers Pending/Rejected with interval 0, or the call fails. */
  bootRetryDefaultSec: number;
  /** Grace between answering Reset and dropping the connection (lets the CALLRESULT leave). */
  rebootDelayMs: number;
}

export const DEFAULT_TIMINGS: ChargerTimings = {
  provisioningStepMs: 0,
  connectingDeadlineMs: 30_000,
  registeringDeadlineMs: 120_000,
  offlineDeadlineMs: 300_000,
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 60_000,
  bootRetryDefaultSec: 30,
  rebootDelayMs: 200,
};

export interface ChargerInput {
  identity: string;
  version: ChargerOcppVersion;
  model: ChargerModel;
  /** Full WebSocket URL of the CSMS endpoint for this charger; the link decides when absent. */
  url?: string;
  serialNumber?: string;
  /** Deployment attempt (1 on first deploy); RESTART increments it. */
  attempt?: number;
  timings?: Partial<ChargerTimings>;
  /** Initial configuration overrides by 1.6 key name (e.g. { HeartbeatInterval: '120' }). */
  config?: Record<string, string>;
}

/**
 * Environment of the machine: reading the clock and randomness. Given to createChargerMachine()
 * once per process (tests: `now: () => clock.now()` with xstate's SimulatedClock, fixed random).
 * Timers themselves are XState delays, so they run on the actor's clock.
 */
export interface ChargerEnv {
  now(): number;
  random(): number;
}

// ---------------------------------------------------------------------------------------------
// The `link` actor (provided by the engine): one OCPP-J connection to the CSMS.
// Invoked with id LINK_ID while the charger is in connecting / registering / online. It opens the
// socket when started and closes it (gracefully) when stopped. Credentials and TLS options are the
// engine's business (looked up by identity), so they never enter the persisted snapshot.

export const LINK_ID = 'link';

export interface LinkInput {
  identity: string;
  version: ChargerOcppVersion;
  url?: string;
  /** The charger's WebSocketPingInterval (seconds, 0 = no pings); read when the link opens. */
  pingIntervalSec?: number;
}

/** Machine -> link. */
export type LinkCommand =
  /**
   * Send an OCPP CALL; answer with ocpp.result / ocpp.error carrying the same id. raw: send the
   * payload exactly as written and accept whatever result comes back (no schema validation; PROXY_CALL).
   */
  | { type: 'ocpp.call'; id: string; action: string; payload: object; raw?: true }
  /** Simulate a network loss: drop the socket without a close handshake, then report link.closed. */
  | { type: 'link.drop' };

/** Link -> machine. */
export type LinkEvent =
  | { type: 'link.open' }
  | { type: 'link.closed'; code?: number; reason?: string }
  /** The connection could not be established. code: WS_CONNECT_REFUSED, HTTP_401, TLS_ERROR, ... */
  | { type: 'link.failed'; code: string; hint: string }
  | { type: 'ocpp.result'; id: string; payload: unknown }
  /** CALLERROR from the CSMS, a timeout or a validation failure of the call. */
  | { type: 'ocpp.error'; id: string; code: string; description?: string }
  /** A CALL from the CSMS: the machine answers exactly once through respond or reject. */
  | {
      type: 'csms.call';
      action: string;
      payload: unknown;
      respond(result: object): void;
      /** code is an OCPP-J error code (NotImplemented, NotSupported, FormationViolation, ...). */
      reject(code: string, description?: string): void;
    };

// ---------------------------------------------------------------------------------------------
// Events the engine / API sends to the machine.

/** Lifecycle events. */
export type LifecycleEvent =
  | { type: 'DEPLOY' }
  | { type: 'STOP' }
  /** From stopped: deploy again with attempt + 1. */
  | { type: 'START' }
  /** From anywhere: stop and deploy again with attempt + 1. */
  | { type: 'RESTART' }
  /** After createActor(machine, { snapshot }): re-enter the current stage (timers, link, entries). */
  | { type: 'RESUME' };

/**
 * Commands: EV/user actions and operator commands. Every command may carry a commandId; when it
 * does, exactly one `command.result` is emitted for it (see CommandResult).
 */
export type CommandEvent = { commandId?: string } & (
  | { type: 'PLUG_IN'; connectorId: number; evMaxPowerKw?: number; socPercent?: number; batteryKwh?: number }
  | { type: 'PRESENT_TOKEN'; connectorId: number; idTag: string }
  | { type: 'UNPLUG'; connectorId: number }
  | { type: 'EV_STOPS_ENERGY'; connectorId: number }
  | { type: 'FAULT'; connectorId: number; errorCode?: string }
  | { type: 'CLEAR_FAULT'; connectorId: number }
  | { type: 'DISCONNECT' }
  | { type: 'CHANGE_CONFIGURATION'; key: string; value: string }
  | {
      type: 'SET_VARIABLE';
      component: string;
      variable: string;
      value: string;
      instance?: string;
      evseId?: number;
    }
  | { type: 'CLEAR_CACHE' }
  /** payload as the charger's OCPP version writes SendLocalList. */
  | { type: 'SEND_LOCAL_LIST'; payload: object }
  /** Send one raw OCPP CALL to the CSMS; the result is the CSMS's answer. */
  | { type: 'PROXY_CALL'; action: string; payload?: object }
);

export type CommandType = CommandEvent['type'];

/**
 * The OCPP-shaped outcome of a command: `action` and `payload` are what the CSMS answered (PROXY_CALL,
 * Authorize for PRESENT_TOKEN) or what the charger itself answered (e.g. ChangeConfiguration
 * {status: 'Accepted'}). ok is false when the command could not be carried out (error.code:
 * OFFLINE, INVALID_STATE, UNKNOWN_CONNECTOR, or the CSMS's CALLERROR code).
 */
export interface CommandResult {
  type: 'command.result';
  commandId: string;
  identity: string;
  command: CommandType;
  ok: boolean;
  action?: string;
  payload?: object;
  error?: { code: string; description?: string };
}

/** Emitted by the machine: subscribe with actor.on(type, handler). */
export type ChargerEmitted = ({ type: 'stage' } & StageEvent) | CommandResult;

export type ChargerEvent = LifecycleEvent | CommandEvent | LinkEvent | InternalEvent;

/** Raised by the machine to itself. */
export type InternalEvent = { type: 'internal.rearmHeartbeat' } | { type: 'internal.reboot' };
