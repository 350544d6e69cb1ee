// One interface, two OCPP versions: an adapter builds the version's request payloads from the
// charger's version-neutral state, reads the CSMS's answers, and handles the CSMS's calls by
// translating them into ChargerOps (the machine's logic, written once).
import type {
  AuthStatus,
  ChargerContext,
  ChargingProfile,
  Connector,
  ConnectorStatus,
} from './charger-context.ts';
import type { LocalListOutcome, LocalListUpdate } from './charger-auth.ts';
import type { ChangeOutcome } from './charger-settings.ts';

/** A payload the CSMS sent, already validated against the version's schema by the link. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field by the adapters
export type Payload = any;

export interface OutboundCall {
  action: string;
  payload: Record<string, unknown>;
  /** Sent as written, without schema validation (a raw proxy message). */
  raw?: true;
}

/** Why a transaction starts, changes or ends, independent of the OCPP version. */
export type StartCause = 'authorized' | 'plugged' | 'remote';
export type ChangeCause = 'charging' | 'suspended_ev' | 'suspended_evse' | 'meter' | 'trigger';
export type StopCause =
  | 'local'
  | 'remote'
  | 'ev_disconnected'
  | 'deauthorized'
  | 'hard_reset'
  | 'soft_reset'
  | 'unlock'
  | 'fault'
  | 'reboot';

export type BootStatus = 'Accepted' | 'Pending' | 'Rejected';

export type TriggerTarget =
  'BootNotification' | 'Heartbeat' | 'StatusNotification' | 'MeterValues' | 'TransactionEvent';

/** A CSMS call answered with a CALLERROR (code is an OCPP-J error code). */
export class CallRejection extends Error {
  constructor(
    readonly code: string,
    description?: string,
  ) {
    super(description ?? code);
  }
}

/** The charger's behaviour as the CSMS's calls reach it; implemented once in charger-ops.ts. */
export interface ChargerOps {
  readonly ctx: ChargerContext;
  readonly now: number;
  connector(id: number): Connector | undefined;
  /** The connector running the transaction with this id (1.6: the CSMS's integer id). */
  connectorByTx(transactionId: string | number): Connector | undefined;
  changeSetting(key: string, value: string): ChangeOutcome;
  clearCache(): 'Accepted' | 'Rejected';
  updateLocalList(update: LocalListUpdate): LocalListOutcome;
  remoteStart(r: {
    connectorId?: number;
    idTag: string;
    idType?: string;
    remoteStartId?: number;
    profile?: ChargingProfile;
  }): {
    status: 'Accepted' | 'Rejected';
    connectorId?: number;
  };
  remoteStop(c: Connector | undefined): 'Accepted' | 'Rejected';
  /** hard/soft: stop transactions now, then reboot; idle: reboot once no transaction runs. */
  reset(kind: 'hard' | 'soft' | 'idle'): 'Accepted' | 'Scheduled';
  changeAvailability(connectorId: number, operative: boolean): 'Accepted' | 'Scheduled' | 'Rejected';
  unlock(connectorId: number): 'Unlocked' | 'UnknownConnector';
  setProfile(p: ChargingProfile): 'Accepted' | 'Rejected';
  /** Removes the profiles matching every criterion given; true when any was removed. */
  clearProfiles(criteria: ProfileCriteria): boolean;
  /** The composite limit on a connector (0 = charger) now, in the unit asked (W by default); undefined for an unknown connector. */
  compositeLimit(connectorId: number, unit?: string): { unit: 'A' | 'W'; limit: number } | undefined;
  trigger(what: TriggerTarget, connectorId?: number): 'Accepted' | 'Rejected';
  /** Queue an outbound CALL to leave after the current answer (e.g. NotifyReport). */
  callAfterAnswer(call: OutboundCall): void;
}

/** ClearChargingProfile's criteria in the machine's terms; `purpose: null` matches no profile. */
export interface ProfileCriteria {
  id?: number;
  connectorId?: number;
  purpose?: ChargingProfile['purpose'] | null;
  stackLevel?: number;
}

/** The machine's purpose for a version's wire name (`null` when the version's name maps to none). */
export function purposeFrom(
  wireNames: Record<ChargingProfile['purpose'], string>,
  wire: string | undefined,
): ChargingProfile['purpose'] | null | undefined {
  if (wire === undefined) return undefined;
  const found = (Object.keys(wireNames) as ChargingProfile['purpose'][]).find((k) => wireNames[k] === wire);
  return found ?? null;
}

export type CsmsHandler = (payload: Payload, ops: ChargerOps) => object;

export interface OcppAdapter {
  bootNotification(ctx: ChargerContext): OutboundCall;
  bootResult(payload: Payload): { status: BootStatus; interval: number };
  heartbeat(): OutboundCall;
  /** connectorId 0 is the charger as a whole; undefined when the version has nothing to say. */
  statusNotification(
    ctx: ChargerContext,
    connectorId: number,
    status: ConnectorStatus,
    prev: ConnectorStatus | undefined,
    errorCode: string,
    at: number,
  ): OutboundCall | undefined;
  authorize(idTag: string): OutboundCall;
  authorizeResult(payload: Payload): AuthStatus;
  txStarted(ctx: ChargerContext, c: Connector, cause: StartCause, at: number): OutboundCall;
  /** A change during the transaction (charging state or a meter sample); undefined if the version reports it otherwise. */
  txUpdated(ctx: ChargerContext, c: Connector, cause: ChangeCause, at: number): OutboundCall | undefined;
  txEnded(ctx: ChargerContext, c: Connector, cause: StopCause, at: number): OutboundCall;
  /** The answer to txStarted (1.6 StartTransaction / 2.0.1 TransactionEvent). */
  txStartResult(payload: Payload): { transactionId?: number; status?: AuthStatus };
  /** Meter values outside a transaction (TriggerMessage MeterValues). */
  meterValues(ctx: ChargerContext, c: Connector, at: number): OutboundCall;
  handlers: Record<string, CsmsHandler>;
}
