// A connector's status as a declared transition table: status x event -> status. The blocks say
// what happened to a connector (a cable came in, a transaction ended, ...); the table says what
// that makes its status. An event a status has no row for leaves it as it is. A new status
// (Reserved, with the reservation block) is one more row and its column entries here.
import type { Connector, ConnectorStatus } from './context.ts';
import type { Step } from './step.ts';

export type ConnectorEvent =
  /** A cable was plugged in and nothing starts yet. */
  | 'cable_in'
  /** The cable was taken out (after any transaction on it ended). */
  | 'cable_out'
  /** A token was accepted before the cable was plugged in. */
  | 'token_ok'
  /** Energy flows / the EV paused / the charger limits to nothing (start of, or during, a transaction). */
  | 'charging'
  | 'suspended_ev'
  | 'suspended_evse'
  /** The transaction ended (the cable may still be in). */
  | 'tx_ended'
  | 'fault'
  /** The fault was cleared. */
  | 'clear'
  /** Inoperative (ChangeAvailability); a transaction in progress runs to its end first. */
  | 'disable'
  /** Operative again. */
  | 'enable'
  // Reservations (blocks/reservation.ts): the connector is held for one token, or no longer.
  | 'reserved'
  | 'unreserved';

type Row = Partial<Record<ConnectorEvent, ConnectorStatus>>;

const IN_TRANSACTION: Row = {
  charging: 'Charging',
  suspended_ev: 'SuspendedEV',
  suspended_evse: 'SuspendedEVSE',
  tx_ended: 'Finishing',
  fault: 'Faulted',
};

export const CONNECTOR_TRANSITIONS: Record<ConnectorStatus, Row> = {
  Available: {
    cable_in: 'Preparing',
    token_ok: 'Preparing',
    charging: 'Charging',
    suspended_ev: 'SuspendedEV',
    suspended_evse: 'SuspendedEVSE',
    fault: 'Faulted',
    disable: 'Unavailable',
    reserved: 'Reserved',
  },
  Preparing: {
    cable_out: 'Available',
    charging: 'Charging',
    suspended_ev: 'SuspendedEV',
    suspended_evse: 'SuspendedEVSE',
    fault: 'Faulted',
    disable: 'Unavailable',
  },
  Charging: IN_TRANSACTION,
  SuspendedEV: IN_TRANSACTION,
  SuspendedEVSE: IN_TRANSACTION,
  Finishing: {
    cable_out: 'Available',
    charging: 'Charging',
    suspended_ev: 'SuspendedEV',
    suspended_evse: 'SuspendedEVSE',
    fault: 'Faulted',
    disable: 'Unavailable',
  },
  Faulted: { clear: 'Available' },
  Unavailable: { fault: 'Faulted', enable: 'Available' },
  // Only the holder's token reaches a reserved connector (blocks/reservation.ts); a cable alone changes nothing.
  Reserved: {
    fault: 'Faulted',
    unreserved: 'Available',
    token_ok: 'Preparing',
    charging: 'Charging',
    suspended_ev: 'SuspendedEV',
    suspended_evse: 'SuspendedEVSE',
    disable: 'Unavailable',
  },
};

/** The status after these events, in order. */
export function nextStatus(status: ConnectorStatus, ...events: ConnectorEvent[]): ConnectorStatus {
  let s = status;
  for (const e of events) s = CONNECTOR_TRANSITIONS[s][e] ?? s;
  return s;
}

/**
 * What a connector at rest still has going on, as events: the cable in, a token waiting, an
 * availability change waiting for the transaction to end. Applied after a change that re-settles
 * it (the end of a transaction, a cleared fault, operative again).
 */
export function pending(c: Connector): ConnectorEvent[] {
  const events: ConnectorEvent[] = [c.plugged ? 'cable_in' : 'cable_out'];
  if (c.authorized) events.push('token_ok');
  // Inoperative, or held by a waiting firmware install (blocks/firmware.ts).
  if (c.inoperative || c.firmwareHold) events.push('disable');
  // Reservations: a connector still held goes back to Reserved first.
  if (c.reservationId !== undefined) events.unshift('reserved');
  return events;
}

/** A connector a driver can start on: in service, neither faulted nor unavailable. */
export function usable(c: Connector | undefined): boolean {
  return !!c && !c.inoperative && !c.firmwareHold && c.status !== 'Faulted' && c.status !== 'Unavailable';
}

/** A connector a remote start may take: usable, no transaction, and not in the middle of one. */
export function startable(c: Connector | undefined): boolean {
  return (
    !!c &&
    !c.tx &&
    !c.inoperative &&
    (c.status === 'Available' ||
      c.status === 'Preparing' ||
      c.status === 'Finishing' ||
      // Reservations: whether this token may take it is blocks/reservation.ts's question.
      c.status === 'Reserved')
  );
}

/** Sets a connector's status and tells the CSMS when it changed (or when forced). */
export function setStatus(
  s: Step,
  id: number,
  status: ConnectorStatus,
  errorCode = 'NoError',
  force = false,
): void {
  const c = s.connector(id);
  if (!c) return;
  const prev = c.status;
  if (prev === status && c.errorCode === errorCode && !force) return;
  s.putConnector({ ...c, status, errorCode });
  const call = s.wire.statusNotification(s.ctx, id, status, force ? undefined : prev, errorCode, s.now);
  if (call) s.call(call);
}

/** Moves a connector through the table on these events and reports where it ends up. */
export function moveConnector(s: Step, id: number, events: ConnectorEvent[], errorCode = 'NoError'): void {
  const c = s.connector(id);
  if (c) setStatus(s, id, nextStatus(c.status, ...events), errorCode);
}

/** StatusNotification for the charger (1.6 connector 0) and every connector, as after a boot. */
export function sendAllStatus(s: Step): void {
  const zero = s.wire.statusNotification(s.ctx, 0, s.ctx.chargerStatus, undefined, 'NoError', s.now);
  if (zero) s.call(zero);
  for (const c of s.ctx.connectors) {
    const call = s.wire.statusNotification(s.ctx, c.id, c.status, undefined, c.errorCode, s.now);
    if (call) s.call(call);
  }
}
