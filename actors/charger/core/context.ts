// The charger machine's context: plain JSON, small (it is persisted for thousands of chargers).
// Absolute times are epoch milliseconds; 0 means "not set". A change of shape bumps
// SNAPSHOT_VERSION and adds a step to the migrate chain (charger-snapshot.ts).
import type { OcppVersion } from '../../../protocols/ocpp/versions.ts';

/** The deployment stages in their order (spec: "Deployment stage event"). */
export const STAGES = [
  'not_deployed',
  'queued',
  'scheduling',
  'pulling',
  'starting',
  'connecting',
  'registering',
  'online',
  'offline',
  'stopped',
] as const;
export type Stage = (typeof STAGES)[number];

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

export type ConnectorStatus =
  | 'Available'
  | 'Preparing'
  | 'Charging'
  | 'SuspendedEV'
  | 'SuspendedEVSE'
  | 'Finishing'
  | 'Faulted'
  | 'Unavailable'
  | 'Reserved';

/** The 1.6 AuthorizationStatus values; 2.0.1 statuses are mapped onto them by the adapter. */
export type AuthStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx';

export interface Transaction {
  /** Local reference, unique per charger. */
  ref: number;
  /** The charger's own transaction id when its version names transactions (2.0.1); else the CSMS's, in ctx.txIds. */
  id?: string;
  idTag: string;
  /** 2.0.1 IdTokenEnumType of idTag (ISO14443 when presented at the charger). */
  idType?: string;
  startWh: number;
  startedAt: number;
  /** 2.0.1 TransactionEvent seqNo of the next event. */
  seq: number;
  remoteStartId?: number;
}

export interface Connector {
  id: number;
  status: ConnectorStatus;
  errorCode: string;
  plugged: boolean;
  /** ChangeAvailability Inoperative was asked (applies once the transaction ends). */
  inoperative: boolean;
  /** EV no longer draws energy (EV_STOPS_ENERGY). */
  evStopped: boolean;
  /** EV's own limit in W; 0 = none. */
  evMaxW: number;
  soc?: number;
  batteryWh?: number;
  /** Energy register (Wh, lifetime) and when it was last integrated. */
  meterWh: number;
  meterAt: number;
  /** Power drawn at meterAt (W). */
  powerW: number;
  /** A token authorized before the cable was plugged in. */
  authorized?: string;
  authorizedType?: string;
  remoteStartId?: number;
  tx?: Transaction;
}

export interface ChargingProfile {
  id: number;
  /** 0 = charger-wide. */
  connectorId: number;
  stackLevel: number;
  purpose: 'Max' | 'TxDefault' | 'Tx';
  unit: 'W' | 'A';
  periods: ({ startPeriod: number; limit: number; numberPhases?: number } & V2xPeriod)[];
  /** Absolute start of the schedule (ms); 0 = relative to the transaction start. */
  startAt: number;
  duration?: number;
  txRef?: number;
  /** Raw 1.6 transactionId / 2.0.1 transactionId the profile was given for. */
  transactionId?: string | number;
  validTo?: number;
  /**
   * An external limit (K11-K13: a local EMS, the grid operator, another source), set through the
   * API, not by the CSMS; absent: the CSMS's own profile (CSO). External limits all apply at once
   * (the lowest wins) and the CSMS cannot clear them.
   */
  source?: ExternalLimitSource;
}

export type ExternalLimitSource = 'EMS' | 'SO' | 'Other';

/** 2.1 OperationModeEnumType: what a period asks of a bidirectional EV (absent: ChargingOnly). */
export type OperationMode =
  | 'ChargingOnly'
  | 'CentralSetpoint'
  | 'ExternalSetpoint'
  | 'ExternalLimits'
  | 'CentralFrequency'
  | 'LocalFrequency'
  | 'LocalLoadBalancing'
  | 'Idle';

/**
 * The V2X fields of a 2.1 schedule period, in the profile's unit (core/power.ts applies them):
 * a signed setpoint (negative: discharge), a discharge limit (<= 0) and a frequency-watt curve
 * on a baseline (W) for the frequency modes.
 */
export interface V2xPeriod {
  operationMode?: OperationMode;
  setpoint?: number;
  dischargeLimit?: number;
  v2xBaseline?: number;
  v2xFreqWattCurve?: { frequency: number; power: number }[];
}

/** An outbound transaction-related message waiting for delivery, in order. */
export interface OutboxItem {
  action: string;
  payload: Record<string, unknown>;
  /** Local transaction ref the message belongs to (1.6: its CSMS id fills payload.transactionId when sent). */
  tx?: number;
  attempts: number;
}

/** What an outstanding CALL was for. */
export interface CallMeta {
  action: string;
  connectorId?: number;
  idTag?: string;
  commandId?: string;
  /** The CALL carries the head of the outbox. */
  outbox?: boolean;
  /** The outbox message belongs to this local transaction ref. */
  tx?: number;
  /** An Authorize for a remote start (AuthorizeRemoteTxRequests). */
  remote?: boolean;
}

/**
 * The charger's timers, each an absolute deadline (ms) run by one delayed `timers.due` per charger
 * (charger-actions.ts) and handed to its block when due (dispatch.ts, TIMERS). A block that needs a timer declares it
 * from its own file (`declare module '../core/context.ts' { interface ChargerTimers { x?: number } }`)
 * and adds its line to TIMERS, which the compiler then asks for.
 */
export interface ChargerTimers {
  heartbeat?: number;
  meter?: number;
  reboot?: number;
}

export type TimerName = keyof ChargerTimers;

/**
 * A block that keeps state of its own declares its field here from its own file, optional (a
 * snapshot without it needs no migration): `declare module '../core/context.ts' { interface
 * ChargerContext { reservations?: ... } }`.
 */
export interface ChargerContext {
  snapshotVersion: number;
  identity: string;
  version: OcppVersion;
  url?: string;
  serialNumber?: string;
  model: ChargerModel;
  timings?: Partial<ChargerTimings>;
  attempt: number;

  /** Last stage announced, when, its deadline, and whether `stuck` was already reported. */
  stage: Stage;
  stageAt: number;
  deadlineAt: number;
  stuck: boolean;
  /** Came back from offline (or a restart): announce `recovered` once online and the outbox is empty. */
  recovering: boolean;
  lastError?: { code: string; hint: string };
  reconnects: number;
  reconnectAt: number;
  bootRetryAt: number;
  /** Deadlines of the running timers (absolute, so a restored charger re-arms them on RESUME). */
  timers: ChargerTimers;
  /** Reset accepted: 'idle' waits for the transactions to end, 'now' reboots after a short grace. */
  reset?: 'idle' | 'now';

  nextCallId: number;
  calls: Record<string, CallMeta>;
  outbox: OutboxItem[];
  /** Call id carrying the outbox head, if one is in flight. */
  outboxInFlight?: string;

  connectors: Connector[];
  /** Connector 0 (1.6): the charger as a whole. */
  chargerStatus: 'Available' | 'Unavailable' | 'Faulted';
  /** Configuration values that differ from the defaults, by 1.6 key. */
  settings: Record<string, string>;
  /** `groups`: each token's group (1.6 parentIdTag, 2.x groupIdToken), where the list gives one. */
  localList: { version: number; tags: Record<string, AuthStatus>; groups?: Record<string, string> };
  authCache: Record<string, AuthStatus>;
  profiles: ChargingProfile[];
  nextTxRef: number;
  /** 1.6: CSMS transactionId by local ref, kept until the StopTransaction is delivered. */
  txIds: Record<string, number>;

  // Boot reasons (2.0.1 B01/B11/B12): why the next BootNotification is sent, set by whoever
  // causes the reboot, cleared by provisioning once a boot is accepted; absent means PowerUp.
  bootReason?: BootReason;
}

/** 2.0.1 BootReasonEnumType. */
export type BootReason =
  | 'ApplicationReset'
  | 'FirmwareUpdate'
  | 'LocalReset'
  | 'PowerUp'
  | 'RemoteReset'
  | 'ScheduledReset'
  | 'Triggered'
  | 'Unknown'
  | 'Watchdog';
