// Transactions and meter values: a session from the cable to the last meter reading. OCPP 1.6
// Core Start/StopTransaction and MeterValues; 2.0.1 block E (E02/E03 start cable or token first,
// E04/E08/E12 offline transactions, E05/E13 a start the CSMS refuses, E06/E07/E09 stop options)
// and block J (J01 meter values outside, J02 inside a transaction). The EV's own actions (plug in,
// unplug, stop drawing energy) start and end sessions here too.
import type { CallMeta, Connector } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import type { Answer, ChangeCause, StartCause, StopCause } from '../core/wire.ts';
import type { CommandOf } from '../core/events.ts';
import { integrate, powerW } from '../core/power.ts';
import { DEFAULT_MIN_SOC } from '../core/ev-battery.ts';
import { intSetting } from '../core/settings.ts';
import { moveConnector, pending, usable, type ConnectorEvent } from '../core/connector-status.ts';
import { bumpSeq, hasTransaction } from '../core/transaction.ts';
import { scheduleReboot } from './provisioning.ts';
import { reservationUsed } from './reservation.ts';
import { scheduleEndSamples, schedulePowerChange } from './metering.ts';
import { tariffAtStart, tariffEnded, tariffTick } from './tariffs.ts';

/** The connector running the transaction the charger named `id` (2.0.1 transactionId). */
export function connectorByTxId(s: Step, id: string): Connector | undefined {
  return s.ctx.connectors.find((c) => c.tx && c.tx.id === id);
}

/** The connector running the transaction the CSMS numbered `id` (1.6 transactionId). */
export function connectorByCsmsId(s: Step, id: number): Connector | undefined {
  return s.ctx.connectors.find((c) => c.tx && s.ctx.txIds[c.tx.ref] === id);
}

/**
 * E14 GetTransactionStatus: whether transaction messages wait in the queue (offline, or not yet
 * delivered) and whether the transaction is ongoing. `ref` is the local transaction asked about
 * (null: one the charger does not know; undefined: none asked, the whole queue counts).
 */
export function transactionStatus(
  s: Step,
  ref: number | null | undefined,
): { ongoing?: boolean; queued: boolean } {
  if (ref === undefined) return { queued: s.ctx.outbox.length > 0 };
  if (ref === null) return { ongoing: false, queued: false };
  return {
    ongoing: s.ctx.connectors.some((c) => c.tx?.ref === ref),
    queued: s.ctx.outbox.some((x) => x.tx === ref),
  };
}

/** Whether energy flows, the EV paused, or the charger limits the session to nothing. */
function chargingState(s: Step, c: Connector): ConnectorEvent & ChangeCause {
  // Energy flowing either way is charging (a V2X discharge is negative power).
  const p = powerW(s.ctx, c, s.now);
  if (c.evStopped || (c.soc !== undefined && c.soc >= 100 && p >= 0)) return 'suspended_ev';
  return p !== 0 ? 'charging' : 'suspended_evse';
}

function scheduleMeter(s: Step): void {
  if (s.ctx.timers.meter === undefined)
    s.setTimer('meter', s.now + Math.max(1, intSetting(s.ctx, 'MeterValueSampleInterval')) * 1000);
}

export function startTransaction(s: Step, id: number, idTag: string, cause: StartCause): void {
  const reservationId = reservationUsed(s, id, idTag);
  const c0 = s.connector(id);
  if (!c0 || c0.tx) return;
  const ref = s.ctx.nextTxRef;
  const txId = s.wire.transactionId(s.ctx, ref, s.now);
  const tx = {
    ref,
    idTag,
    startWh: Math.floor(c0.meterWh),
    startedAt: s.now,
    seq: 0,
    ...(txId !== undefined ? { id: txId } : {}),
    ...(c0.remoteStartId !== undefined ? { remoteStartId: c0.remoteStartId } : {}),
    ...(c0.authorizedType ? { idType: c0.authorizedType } : {}),
    ...(reservationId !== undefined ? { reservationId } : {}),
    ...tariffAtStart(s, id, idTag),
  };
  // A TxProfile sent with the remote start waits for this transaction.
  const profiles = s.ctx.profiles.map((p) =>
    p.purpose === 'Tx' && p.txRef === undefined && p.connectorId === id ? { ...p, txRef: ref } : p,
  );
  s.patch({ nextTxRef: ref + 1, profiles });
  let c: Connector = {
    ...c0,
    tx,
    authorized: undefined,
    authorizedType: undefined,
    remoteStartId: undefined,
    driverTariff: undefined,
    meterAt: s.now,
  };
  c = { ...c, powerW: powerW(s.ctx, c, s.now) };
  s.putConnector(c);
  s.call(s.wire.txStarted(s.ctx, c, cause, s.now), { tx: ref });
  bumpSeq(s, id);
  // The start says the state before energy flows; the change follows at once (2.0.1 E02).
  const state = chargingState(s, c);
  moveConnector(s, id, [state]);
  reportChange(s, id, state);
  scheduleMeter(s);
  scheduleEndSamples(s);
  // The other connectors share the charger with this one now.
  refreshAllCharging(s);
}

/** Reports a change during a transaction, when the version reports it as a transaction message. */
function reportChange(s: Step, id: number, cause: ChangeCause): void {
  tariffTick(s, id);
  const c = s.connector(id)!;
  const call = s.wire.txUpdated(s.ctx, c, cause, s.now);
  if (call) {
    s.call(call, { tx: c.tx!.ref });
    bumpSeq(s, id);
  }
}

export function stopTransaction(s: Step, id: number, cause: StopCause): void {
  const c0 = s.connector(id);
  if (!c0?.tx) return;
  const c = integrate(s.ctx, c0, s.now);
  s.call(s.wire.txEnded(s.ctx, c, cause, s.now), { tx: c.tx!.ref });
  tariffEnded(s, c);
  const ref = c.tx!.ref;
  const ended: Connector = { ...c, tx: undefined, powerW: 0, evStopped: false };
  s.putConnector(ended);
  s.patch({ profiles: s.ctx.profiles.filter((p) => p.txRef !== ref) });
  moveConnector(s, id, ['tx_ended', ...pending(ended)], ended.errorCode);
  // What this connector drew goes to the others.
  refreshAllCharging(s);
  scheduleEndSamples(s);
  if (hasTransaction(s)) return;
  s.clearTimer('meter');
  if (s.ctx.reset === 'idle') {
    s.patch({ reset: 'now' });
    scheduleReboot(s);
  }
}

/** Timer `meter`: integrate energy and report every running transaction. */
export function sampleMeters(s: Step): void {
  for (const c0 of s.ctx.connectors) {
    if (!c0.tx) continue;
    const c = integrate(s.ctx, c0, s.now);
    s.putConnector(c);
    reportChange(s, c.id, 'meter');
    if (c.tx && c.status !== 'Finishing') refreshChargingState(s, c.id, false);
  }
  schedulePowerChange(s);
  if (hasTransaction(s))
    s.setTimer('meter', s.now + Math.max(1, intSetting(s.ctx, 'MeterValueSampleInterval')) * 1000);
  else s.clearTimer('meter');
}

/**
 * After a change of limits: integrate at the old power, take the new one, report a change of the
 * charging state at once, or (`rate`: a limit changed, not the battery) of the rate.
 */
export function refreshChargingState(s: Step, id: number, rate = true): void {
  const c0 = s.connector(id);
  if (!c0?.tx) return;
  const c = integrate(s.ctx, c0, s.now);
  s.putConnector(c);
  const state = chargingState(s, c);
  const before = c.status;
  moveConnector(s, id, [state]);
  if (s.connector(id)!.status !== before) reportChange(s, id, state);
  else if (rate && Math.round(c.powerW) !== Math.round(c0.powerW)) reportChange(s, id, 'rate');
}

/**
 * Every transaction after a change of limits or of sharing; then the next change nothing announces.
 * Also timer `powerChange`: the limit or the battery changed the power by itself.
 */
export function refreshAllCharging(s: Step): void {
  for (const c of s.ctx.connectors) if (c.tx) refreshChargingState(s, c.id);
  schedulePowerChange(s);
}

/** A token was accepted for a connector: start now if plugged in, else wait for the cable. */
export function tokenAccepted(s: Step, id: number, idTag: string, cause: StartCause, idType?: string): void {
  const c = s.connector(id);
  if (!c || c.tx) return;
  s.putConnector({ ...c, authorized: idTag, authorizedType: idType });
  if (c.plugged) startTransaction(s, id, idTag, cause);
  else moveConnector(s, id, ['token_ok']);
}

/**
 * The CSMS answered (or gave up on) the outbox head. The answer to a transaction's start carries
 * the CSMS's id for it (1.6) and may refuse the token: the transaction then ends, deauthorized.
 */
export function txMessageAnswered(s: Step, meta: CallMeta, ok: boolean, payload: unknown): void {
  const head = s.ctx.outbox[0];
  // isTxStart: the answer is the one to the version's start message.
  const r =
    ok && head && s.wire.isTxStart(head)
      ? s.wire.txStartResult(payload as Answer<'StartTransaction' | 'TransactionEvent'>)
      : undefined;
  if (r?.transactionId !== undefined && meta.tx !== undefined)
    s.patch({ txIds: { ...s.ctx.txIds, [meta.tx]: r.transactionId } });
  s.settleOutbox(ok);
  if (r?.status && r.status !== 'Accepted') {
    const c = s.ctx.connectors.find((x) => x.tx?.ref === meta.tx);
    if (c) stopTransaction(s, c.id, 'deauthorized');
  }
}

// ---------------------------------------------------------------------------------------------
// The EV's commands.

export function plugIn(s: Step, e: CommandOf<'PLUG_IN'>): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'PLUG_IN', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.plugged) return s.fail(e.commandId, 'PLUG_IN', 'INVALID_STATE', 'a cable is already plugged in');
  // The charger knows the battery over DC, or from an ISO 15118-20 (bidirectional) EV over AC too.
  const battery = s.ctx.model.current_type === 'DC' || e.bidirectional === true;
  s.putConnector({
    ...c,
    plugged: true,
    evStopped: false,
    evMaxW: (e.evMaxPowerKw ?? 0) * 1000,
    soc: battery ? (e.socPercent ?? 20) : undefined,
    batteryWh: battery ? (e.batteryKwh ?? 60) * 1000 : undefined,
    ...evV2x(e),
  });
  const needs = s.wire.evChargingNeeds?.(s.ctx, s.connector(c.id)!, s.now);
  if (needs && s.online) s.call(needs);
  if (c.authorized && usable(c)) startTransaction(s, c.id, c.authorized, 'plugged');
  else moveConnector(s, c.id, ['cable_in']);
  s.result(e.commandId, 'PLUG_IN', { ok: true, payload: { status: 'Accepted' } });
}

/** A bidirectional EV's V2X facts (core/ev-battery.ts); nothing for an EV that only charges. */
function evV2x(e: CommandOf<'PLUG_IN'>): Partial<Connector> {
  if (!e.bidirectional)
    return { evBidirectional: undefined, evMaxDischargeW: undefined, evMinSoc: undefined };
  return {
    evBidirectional: true,
    evMaxDischargeW: (e.maxDischargeKw ?? 0) * 1000,
    evMinSoc: e.minSocPercent ?? DEFAULT_MIN_SOC,
  };
}

export function unplug(s: Step, e: CommandOf<'UNPLUG'>): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'UNPLUG', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (!c.plugged) return s.fail(e.commandId, 'UNPLUG', 'INVALID_STATE', 'no cable is plugged in');
  s.putConnector({
    ...c,
    plugged: false,
    authorized: undefined,
    authorizedType: undefined,
    soc: undefined,
    batteryWh: undefined,
    evMaxW: 0,
    evBidirectional: undefined,
    evMaxDischargeW: undefined,
    evMinSoc: undefined,
    allowedTransfer: undefined,
  });
  if (c.tx) stopTransaction(s, c.id, 'ev_disconnected');
  const after = s.connector(c.id)!;
  moveConnector(s, c.id, pending(after), after.errorCode);
  s.result(e.commandId, 'UNPLUG', { ok: true, payload: { status: 'Accepted' } });
}

export function evStopsEnergy(s: Step, e: CommandOf<'EV_STOPS_ENERGY'>): void {
  const c = s.connector(e.connectorId);
  if (!c?.tx)
    return s.fail(
      e.commandId,
      'EV_STOPS_ENERGY',
      'INVALID_STATE',
      `no transaction on connector ${e.connectorId}`,
    );
  s.putConnector({ ...integrate(s.ctx, c, s.now), evStopped: true });
  refreshAllCharging(s);
  s.result(e.commandId, 'EV_STOPS_ENERGY', { ok: true, payload: { status: 'Accepted' } });
}
