// The contract of a wire adapter: everything that differs between OCPP versions, behind one
// interface. The blocks (../blocks) say what happens in the charger's own terms; an adapter
// (../ocpp16, ../ocpp2) writes it as its version's messages, reads its version's answers, and
// dispatches its version's CSMS calls to the blocks (its table of them, typed by core/csms-calls.ts,
// sits beside it in ocpp-wires.ts). No code outside an adapter asks which version a charger speaks.
import type {
  AuthStatus,
  ChargerContext,
  ChargingProfile,
  Connector,
  ConnectorStatus,
  OutboxItem,
} from './context.ts';
import type { CommandEvent, LocalListCommand } from './events.ts';
import type { OcppVersion } from '../../../protocols/ocpp/versions.ts';
import type { OcppRequest, OcppResponse } from '../../../protocols/ocpp/ocpp-types.ts';
import type { Measurand } from './settings.ts';
import type { MonitorEvent } from './monitors.ts';

/**
 * The CSMS's answer to the charger's `A` in version `V` (every version's, for a reader that does not
 * know which): the link validated it against the action's schema before the machine saw it.
 */
export type Answer<A extends string, V extends OcppVersion = OcppVersion> = OcppResponse<V, A>;

export interface OutboundCall {
  action: string;
  payload: Record<string, unknown>;
  /** Sent as written, without schema validation (a raw proxy message). */
  raw?: true;
}

/** Why a transaction starts, changes or ends, independent of the OCPP version. */
export type StartCause = 'authorized' | 'plugged' | 'remote';
export type ChangeCause =
  | 'charging'
  | 'suspended_ev'
  | 'suspended_evse'
  | 'meter'
  | 'trigger'
  // Meter values (metering): a limit changed the rate; a clock-aligned sample.
  | 'rate'
  | 'clock';
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

/** The configuration command as the API takes it: a 1.6 key, or a 2.0.1 component/variable. */
export interface ConfigurationCommand {
  key?: string;
  component?: string;
  variable?: string;
  value: string;
  instance?: string;
  evseId?: number;
}

/**
 * A version's adapter. `V` types the answers it reads as its version's; the machine holds any
 * version's (`OcppWire`), whose answers are every version's.
 */
export interface OcppWire<V extends OcppVersion = OcppVersion> {
  // Provisioning (boot, heartbeat)
  bootNotification(ctx: ChargerContext): OutboundCall;
  bootResult(payload: Answer<'BootNotification', V>): { status: BootStatus; interval: number };
  heartbeat(): OutboundCall;

  // Availability: connectorId 0 is the charger as a whole; undefined when the version has nothing to say.
  statusNotification(
    ctx: ChargerContext,
    connectorId: number,
    status: ConnectorStatus,
    prev: ConnectorStatus | undefined,
    errorCode: string,
    at: number,
  ): OutboundCall | undefined;

  // Authorization
  authorize(idTag: string): OutboundCall;
  authorizeResult(payload: Answer<'Authorize', V>): AuthStatus;

  // Transactions and meter values
  /** The charger's own id for a new transaction, when its version has the charger name them. */
  transactionId(ctx: ChargerContext, ref: number, now: number): string | undefined;
  txStarted(ctx: ChargerContext, c: Connector, cause: StartCause, at: number): OutboundCall;
  /** A change during the transaction (charging state or a meter sample); undefined if the version reports it otherwise. */
  txUpdated(ctx: ChargerContext, c: Connector, cause: ChangeCause, at: number): OutboundCall | undefined;
  txEnded(ctx: ChargerContext, c: Connector, cause: StopCause, at: number): OutboundCall;
  /** Whether an outbox message is the one that starts its transaction (its answer says whether it may run). */
  isTxStart(item: OutboxItem): boolean;
  /** The answer to txStarted: the CSMS's id for the transaction, if the version has one, and the token's status. */
  txStartResult(payload: Answer<'StartTransaction' | 'TransactionEvent', V>): {
    transactionId?: number;
    status?: AuthStatus;
  };
  /** The outbox head's payload as it leaves now; undefined drops it (nothing left to attach it to). */
  outboxPayload(ctx: ChargerContext, item: OutboxItem): Record<string, unknown> | undefined;
  /** The measurands this version can carry (2.0.1 has no Temperature): a list naming others is Rejected. */
  measurands: readonly Measurand[];
  /** The settings this version has (core/settings.ts keys); another is NotSupported / unknown. */
  settings: readonly string[];
  /** The settings whose intervals pace the end message's samples (blocks/metering.ts). */
  txEndedIntervals: { sampled: string; aligned: string };
  /** A clock-aligned sample of the charger's main meter (1.6 connector 0, 2.0.1 evseId 0). */
  mainMeterValues(ctx: ChargerContext, at: number): OutboundCall;
  /**
   * A MeterValues request of a connector (TriggerMessage MeterValues, F06: in a transaction too, naming
   * it where the version does; a clock-aligned sample outside a transaction with 'clock').
   */
  meterValues(ctx: ChargerContext, c: Connector, at: number, cause?: 'trigger' | 'clock'): OutboundCall;

  // Operator commands that stand for a CSMS call: the charger runs its own handler of that call,
  // so the command's answer is exactly what the CSMS would have got.
  clearCacheCall(): OutboundCall;
  configurationCall(key: string, value: string): OutboundCall;
  localListCall(list: LocalListCommand): OutboundCall;

  // API commands, judged by the version before they are queued.
  /** The machine's connector for a command's connector_id / evse_id. */
  connectorOf(p: { connectorId: number; evseId?: number }): number;
  configurationCommand(c: ConfigurationCommand, version: OcppVersion): CommandEvent | { problem: string };
  /** Why the version cannot carry this local list (a status it lacks); undefined when it can. */
  localListProblem(list: LocalListCommand): string | undefined;

  // How the version names things, for a reader of the charger's state (the detail view).
  /** The connector's EVSE in this version, or null when it has none (1.6). */
  evseOf(connectorId: number): number | null;
  /** The transaction's id as the CSMS knows it (1.6: the CSMS's number, once it gave one). */
  transactionIdOf(ctx: ChargerContext, c: Connector): string | number | undefined;
  /** The version's name of a charging profile purpose. */
  profilePurposes: Record<ChargingProfile['purpose'], string>;
  /** A setting's name: the 1.6 key, or 2.x `Component.Variable`. */
  settingName(key: string): string;

  // Reservations (blocks/reservation.ts)
  /** A reservation ended without being used (2.x ReservationStatusUpdate); undefined when the version says nothing. */
  reservationUpdate(reservationId: number, status: 'Expired' | 'Removed'): OutboundCall | undefined;
  /** The group (1.6 parentIdTag, 2.x groupIdToken) an Authorize answer gives the token, if any. */
  authorizeGroup(payload: Answer<'Authorize', V>): string | undefined;
  /** 2.1 I08: the driver's tariff an Authorize answer gives the token; absent where the version has none. */
  authorizeTariff?(
    payload: Answer<'Authorize', V>,
  ): OcppRequest<'ocpp2.1', 'SetDefaultTariff'>['tariff'] | undefined;

  // External charging limits (blocks/smart-charging.ts, K11-K13); undefined when the version says nothing.
  chargingLimitSet(profile: ChargingProfile, gridCritical?: boolean): OutboundCall | undefined;
  chargingLimitCleared(connectorId: number, source: string): OutboundCall | undefined;

  // Monitoring (blocks/monitoring.ts)
  /** Events of monitors (2.x NotifyEvent); undefined when the version has no monitoring. */
  monitorEvents(ctx: ChargerContext, events: MonitorEvent[], at: number): OutboundCall | undefined;

  // Bidirectional charging (core/power.ts, blocks/transactions.ts plugIn; 2.1 block Q)
  /** What a bidirectional EV just plugged in needs (2.1 NotifyEVChargingNeeds); absent or undefined: the version says nothing. */
  evChargingNeeds?(ctx: ChargerContext, c: Connector, at: number): OutboundCall | undefined;

  // DER control (blocks/der.ts; 2.1 block R)
  /** A grid event began or ended (2.1 NotifyDERAlarm); absent: the version has no DER control. */
  derAlarm?(fault: string, ended: boolean, at: number, extraInfo?: string): OutboundCall;
}
