// What the engine gives the charger link (charger-link.ts): per-charger connection settings, the
// hooks that log, measure and fault its connections. Apart from the link's behaviour, so a reader
// of either finds it at once.
import type { AnyActorRef } from 'xstate';
import type {
  RevokedCertificate,
  SecurityRequest,
  SecurityResult,
} from '../../actors/charger/charger-ports.ts';
import type {
  CallOutcome,
  FrameHooks,
  FrameObserver,
  OcppVersion,
  SchemaErrorReport,
} from '../../protocols/ocpp/index.ts';
import type { LinkFaults } from './link-conditions.ts';
import type { LinkChaos } from './link-chaos.ts';
import type { Logger } from '../platform/log/logger.ts';

/** A charger's actor system (one per root actor). */
export type ChargerSystem = AnyActorRef['system'];

/** Per-charger connection secrets and transport options (security profiles 1-3). */
export interface ChargerConnectionSettings {
  /** The security profile these settings are for (told to the machine when the link opens). */
  profile?: number;
  password?: string;
  tls?: { cert?: string; key?: string; ca?: string; crl?: string; rejectUnauthorized?: boolean };
  localAddress?: string;
  /** What the charger's CRLs revoke (told to the machine when the link opens: firmware signers). */
  revoked?: readonly RevokedCertificate[];
}

/** A lookup may answer now or later (secrets loaded from the database on a cache miss). */
export type SettingsLookup =
  ChargerConnectionSettings | undefined | Promise<ChargerConnectionSettings | undefined>;

export interface ChargerLinkOptions {
  log: Logger;
  /**
   * Read per connection attempt, never kept in the machine (so never in a snapshot). `system` is
   * the charger's actor system, one per root actor: the runtime maps it to the charger's key.
   */
  connectionSettings?: (identity: string, system: ChargerSystem) => SettingsLookup;
  /** A connection attempt failed (after onFailure's hint was logged): e.g. drop cached credentials on HTTP_401. */
  onConnectFailure?: (identity: string, system: ChargerSystem, code: string) => void;
  defaultCsmsUrl?: () => string | undefined;
  callTimeoutMs?: number;
  /** Overrides every charger's WebSocketPingInterval when set. */
  pingIntervalSec?: number;
  onSchemaError?: (identity: string, report: SchemaErrorReport) => void;
  /** Every CALL a charger made, when answered or timed out: round-trip time in ms (load tests). */
  onCallAnswered?: (action: string, ms: number, outcome: CallOutcome) => void;
  /** The charger's security block asks for keys, certificates or sealed credentials; `reply` answers it. */
  onSecurityRequest?: (
    system: ChargerSystem,
    request: SecurityRequest,
    reply: (result: SecurityResult) => void,
  ) => void;
  /** The message log's observer of each connection's frames (undefined: not logged). */
  frameObserver?: (identity: string, system: ChargerSystem) => FrameObserver | undefined;
  /**
   * Measurements of the central system (engine/metrics), asked once per connection: its hooks
   * hear every CALL's answer both ways. Shared by many chargers, so nothing is made per charger.
   */
  meter?: (identity: string, version: OcppVersion, system: ChargerSystem) => CallMeter | undefined;
  /** The charger's link conditions (engine/charger/link-conditions.ts), read when a connection opens. */
  linkFaults?: (system: ChargerSystem) => LinkFaults | undefined;
  /** The charger's chaos (engine/charger/link-chaos.ts): an outage, a chaos run's watch. */
  linkChaos?: (system: ChargerSystem) => LinkChaos | undefined;
}

/**
 * What measures a connection: the answers to the charger's CALLs (in time or late), the charger's
 * answers, and the connection itself: opened, closed other than by the charger stopping (by close
 * code), or failed before opening (by the stage event's code: HTTP_401, TLS_ERROR, ...).
 */
export type CallMeter = Pick<FrameHooks, 'onCallAnswered' | 'onCallReplied' | 'onLateAnswer'> & {
  onConnected?: () => void;
  /** `code` is the WebSocket close code; null when the charger itself closed (stopped). */
  onDisconnected?: (code: number | null) => void;
  onConnectFailed?: (code: string) => void;
};
