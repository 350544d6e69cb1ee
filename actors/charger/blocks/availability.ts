// Availability: the charger says it is alive and what state each connector is in, and the CSMS
// takes connectors in and out of service. OCPP 1.6 Core Heartbeat, StatusNotification and
// ChangeAvailability; 2.0.1 block G: G01 status notification, G02 heartbeat, G03/G04 change
// availability of an EVSE or the whole station, and an operator's FAULT / CLEAR_FAULT (a connector
// error, reported as G01 Faulted). Statuses move by core/connector-status.ts's table.
import type { CommandOf } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import { moveConnector, nextStatus, pending, setStatus } from '../core/connector-status.ts';
import { intSetting } from '../core/settings.ts';
import { stopTransaction } from './transactions.ts';
import { reservationLost } from './reservation.ts';

/**
 * G03/G04: connectorId 0 is the whole charger. A connector with a transaction changes once the
 * transaction ends (Scheduled).
 */
export function changeAvailability(
  s: Step,
  connectorId: number,
  operative: boolean,
): 'Accepted' | 'Scheduled' | 'Rejected' {
  if (connectorId !== 0 && !s.connector(connectorId)) return 'Rejected';
  const ids = connectorId === 0 ? s.ctx.connectors.map((c) => c.id) : [connectorId];
  let scheduled = false;
  if (connectorId === 0) {
    const status = operative ? 'Available' : 'Unavailable';
    if (s.ctx.chargerStatus !== status) {
      s.patch({ chargerStatus: status });
      const zero = s.wire.statusNotification(s.ctx, 0, status, undefined, 'NoError', s.now);
      if (zero) s.call(zero);
    }
  }
  for (const id of ids) {
    const c = { ...s.connector(id)!, inoperative: !operative };
    s.putConnector(c);
    if (c.tx) scheduled = scheduled || !operative;
    else moveConnector(s, id, operative ? ['enable', ...pending(c)] : ['disable']);
  }
  // Reservations: a connector (or charger) taken out of service ends its reservations.
  if (!operative) for (const id of connectorId === 0 ? [0] : ids) reservationLost(s, id);
  return scheduled ? 'Scheduled' : 'Accepted';
}

/** An operator's FAULT: the transaction ends, the connector reports Faulted with the error code. */
export function fault(s: Step, e: CommandOf<'FAULT'>): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'FAULT', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.tx) stopTransaction(s, c.id, 'fault');
  moveConnector(s, c.id, ['fault'], e.errorCode ?? 'OtherError');
  reservationLost(s, c.id);
  s.result(e.commandId, 'FAULT', { ok: true, payload: { status: 'Accepted' } });
}

/** CLEAR_FAULT: the connector settles where its cable, token and availability put it, said again. */
export function clearFault(s: Step, e: CommandOf<'CLEAR_FAULT'>): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'CLEAR_FAULT', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.status === 'Faulted')
    setStatus(s, c.id, nextStatus(c.status, 'clear', ...pending(c)), 'NoError', true);
  s.result(e.commandId, 'CLEAR_FAULT', { ok: true, payload: { status: 'Accepted' } });
}

/** G01 on request (TriggerMessage): connector 0 / undefined is the charger and every connector. */
export function sendStatus(s: Step, connectorId?: number): void {
  if (connectorId === undefined || connectorId === 0) {
    const zero = s.wire.statusNotification(s.ctx, 0, s.ctx.chargerStatus, undefined, 'NoError', s.now);
    if (zero) s.send(zero);
  }
  const targets = connectorId ? [s.connector(connectorId)!] : s.ctx.connectors;
  for (const c of targets) {
    const call = s.wire.statusNotification(s.ctx, c.id, c.status, undefined, c.errorCode, s.now);
    if (call) s.send(call);
  }
}

/** G02: the next heartbeat is due one HeartbeatInterval from now (none while it is 0). */
export function scheduleHeartbeat(s: Step): void {
  const interval = intSetting(s.ctx, 'HeartbeatInterval');
  if (interval > 0 && s.online) s.setTimer('heartbeat', s.now + interval * 1000);
  else s.clearTimer('heartbeat');
}

/** Timer `heartbeat`. */
export function heartbeatDue(s: Step): void {
  if (s.online) s.send(s.wire.heartbeat());
  scheduleHeartbeat(s);
}
