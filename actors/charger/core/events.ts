// What goes in and out of the charger machine: its input, the events it takes (lifecycle, commands,
// the link's), the `link` it invokes, and what it emits. Re-exported by charger-ports.ts, the
// machine's public face; the engine glue is written against that file.
import type { OcppVersion } from '../../../protocols/ocpp/versions.ts';
import type { ChargerModel, ChargerTimings, Stage } from './context.ts';
import type { TransferResult } from './transfers.ts';

export const STAGE_OUTCOMES = ['in_progress', 'succeeded', 'failed', 'stuck', 'recovered'] as const;
export type StageOutcome = (typeof STAGE_OUTCOMES)[number];

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

export interface ChargerInput {
  identity: string;
  /** Must be a version the charger has a wire adapter for (ocpp-wires.ts); any other is an error. */
  version: OcppVersion;
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

// ---------------------------------------------------------------------------------------------
// The `link` actor (provided by the engine): one OCPP-J connection to the CSMS.
// Invoked with id LINK_ID while the charger is in connecting / registering / online. It opens the
// socket when started and closes it (gracefully) when stopped. Credentials and TLS options are the
// engine's business (looked up by identity), so they never enter the persisted snapshot.

export const LINK_ID = 'link';

export interface LinkInput {
  identity: string;
  version: OcppVersion;
  url?: string;
  /** The charger's WebSocketPingInterval (seconds, 0 = no pings); read when the link opens. */
  pingIntervalSec?: number;
}

/** Machine -> link. */
export type LinkCommand =
  /**
   * Send an OCPP CALL; answer with ocpp.result / ocpp.error carrying the same id. raw: send the
   * payload exactly as written and accept whatever result comes back (no schema validation; PROXY_CALL).
   * quiet: the machine wants no answer (core/step.ts, UNHEEDED).
   */
  | { type: 'ocpp.call'; id: string; action: string; payload: object; raw?: true; quiet?: true }
  /** Simulate a network loss: drop the socket without a close handshake, then report link.closed. */
  | { type: 'link.drop' }
  /** The security block asks the engine (keys, certificates, sealed credentials); answered with a SecurityResult. */
  | { type: 'link.security'; request: SecurityRequest };

/** Link -> machine. */
export type LinkEvent =
  /** security: what the connection authenticated with (no secret), when the engine knows it. */
  | { type: 'link.open'; security?: LinkSecurity }
  /** The engine's answer to a security request (link.security). */
  | SecurityResult
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
  /**
   * After createActor(machine, { snapshot }): re-enter the current stage (timers, link, entries).
   * nextAttempt: the charger comes back as a new attempt of its deployment (a process restart).
   */
  | { type: 'RESUME'; nextAttempt?: true };

/** SendLocalList as an operator command, in neither version's words (the adapter writes it). */
export interface LocalListCommand {
  version: number;
  updateType: 'Full' | 'Differential';
  /** status: as the operator wrote it (an adapter refuses the ones its version lacks); none removes the entry. */
  entries: { idTag: string; status?: string; expiryDate?: string; parentIdTag?: string }[];
}

/**
 * Commands: EV/user actions and operator commands. Every command may carry a commandId; when it
 * does, exactly one `command.result` is emitted for it (see CommandResult). Each type has its
 * handler in dispatch.ts (COMMANDS, checked by the compiler) and its API kind in
 * engine/commands/command-kinds.ts.
 */
export type CommandEvent = { commandId?: string } & (
  | {
      type: 'PLUG_IN';
      connectorId: number;
      evMaxPowerKw?: number;
      socPercent?: number;
      batteryKwh?: number;
      /** V2X: the EV can discharge, at most maxDischargeKw, never below minSocPercent. */
      bidirectional?: boolean;
      maxDischargeKw?: number;
      minSocPercent?: number;
    }
  | { type: 'PRESENT_TOKEN'; connectorId: number; idTag: string }
  | { type: 'UNPLUG'; connectorId: number }
  | { type: 'EV_STOPS_ENERGY'; connectorId: number }
  | { type: 'FAULT'; connectorId: number; errorCode?: string }
  | { type: 'CLEAR_FAULT'; connectorId: number }
  /** K11-K13: an external limit (W) on a connector (0: the charger), or its release (null). */
  | {
      type: 'EXTERNAL_LIMIT';
      connectorId: number;
      source: 'EMS' | 'SO' | 'Other';
      limitW: number | null;
      gridCritical?: boolean;
    }
  /** V2X: the grid's frequency (Hz) that the frequency operation modes follow. */
  | { type: 'GRID_FREQUENCY'; hz: number }
  /** 2.1 DER: a grid event (GridEventFaultEnumType) begins, or ends (ended). */
  | { type: 'GRID_EVENT'; fault: string; ended: boolean; extraInfo?: string }
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
  | { type: 'SEND_LOCAL_LIST'; list: LocalListCommand }
  /** Send one raw OCPP CALL to the CSMS; the result is the CSMS's answer. */
  | { type: 'PROXY_CALL'; action: string; payload?: object }
);

export type CommandType = CommandEvent['type'];
export type CommandOf<K extends CommandType> = Extract<CommandEvent, { type: K }>;

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

// Security (blocks/security.ts): what the charger cannot do in a pure machine (seal secrets, make
// keys, read certificates) it asks the engine for through its link (never persisted; no listener
// per charger). A change whose first connection fails is undone by the engine on that failure.

/** How the open connection authenticated: its security profile and what the charger holds. */
export interface LinkSecurity {
  profile: number;
  password: boolean;
  clientCert: boolean;
  /** What the certificate revocation lists the charger holds revoke (firmware signers are checked against it). */
  revoked?: readonly RevokedCertificate[];
}

/**
 * A certificate a held CRL revokes: its issuer's name and serial number as @peculiar/x509 writes
 * them (the serial in hex; compared case-insensitively, without leading zeros).
 */
export interface RevokedCertificate {
  issuer: string;
  serial: string;
}

/** What the security block asks of the engine. */
export type SecurityRequest = { identity: string } &
  /** New credentials or profile (and URL), for the next connection; the previous ones are kept until it opens. */
  (
    | { op: 'apply'; profile: number; password?: string; url?: string }
    /** The connection with the new ones opened: they stay (else its failure undoes them). */
    | { op: 'confirm' }
    /** A new key pair and a certificate signing request for it (answered with security.csr). */
    | { op: 'csr' }
    /** The certificate the CSMS signed for that key (answered with security.certificate). */
    | { op: 'certificate'; pem: string }
    /** Install (answered with security.installed) or delete a CA certificate the charger trusts. */
    | { op: 'install'; certificateType: string; pem: string }
    | { op: 'delete'; hashData: CertificateHashData }
  );

export interface CertificateHashData {
  /** OCPP's names (1.6 security extension and 2.x alike). */
  hashAlgorithm: 'SHA256' | 'SHA384' | 'SHA512';
  issuerNameHash: string;
  issuerKeyHash: string;
  serialNumber: string;
}

/** The engine's answers to security requests. */
export type SecurityResult =
  | { type: 'security.csr'; csr: string }
  | { type: 'security.certificate'; ok: boolean; reason?: string }
  | { type: 'security.installed'; certificateType: string; hashData?: CertificateHashData; reason?: string };

/** Raised by the machine to itself. */
export type InternalEvent =
  /** The earliest deadline of ctx.timers is due (a delayed raise, armed by charger-actions.ts). */
  | { type: 'timers.due' }
  /** The reboot timer of an accepted Reset is due. */
  | { type: 'internal.reboot' };

export type ChargerEvent =
  | LifecycleEvent
  | CommandEvent
  | LinkEvent
  | InternalEvent
  // firmware / diagnostics: the transfers port (core/transfers.ts)
  | TransferResult;
