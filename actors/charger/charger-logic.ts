// The charger's behaviour on connectors and transactions, written once for both OCPP versions:
// each function updates a Step; the adapter decides how a change is said on the wire.
import type { Connector, ConnectorStatus } from './charger-context.ts';
import type { StartCause, StopCause } from './ocpp-adapter.ts';
import type { Step } from './charger-step.ts';
import { integrate, powerW } from './charger-power.ts';
import { localAuthorization } from './charger-auth.ts';
import { boolSetting, intSetting } from './charger-settings.ts';

export function newConnector(id: number): Connector {
  return {
    id,
    status: 'Available',
    errorCode: 'NoError',
    plugged: false,
    inoperative: false,
    evStopped: false,
    evMaxW: 0,
    meterWh: 0,
    meterAt: 0,
    powerW: 0,
  };
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
  const call = s.adapter.statusNotification(s.ctx, id, status, force ? undefined : prev, errorCode, s.now);
  if (call) s.call(call);
}

/** StatusNotification for the charger (1.6 connector 0) and every connector, as after a boot. */
export function sendAllStatus(s: Step): void {
  const zero = s.adapter.statusNotification(s.ctx, 0, s.ctx.chargerStatus, undefined, 'NoError', s.now);
  if (zero) s.call(zero);
  for (const c of s.ctx.connectors) {
    const call = s.adapter.statusNotification(s.ctx, c.id, c.status, undefined, c.errorCode, s.now);
    if (call) s.call(call);
  }
}

/** The status a connector without a transaction rests in. */
function idleStatus(c: Connector): ConnectorStatus {
  if (c.status === 'Faulted') return 'Faulted';
  if (c.inoperative) return 'Unavailable';
  if (c.plugged)
    return c.tx
      ? 'Charging'
      : c.authorized
        ? 'Preparing'
        : c.status === 'Finishing'
          ? 'Finishing'
          : 'Preparing';
  return c.authorized ? 'Preparing' : 'Available';
}

function chargingStatus(s: Step, c: Connector): ConnectorStatus {
  if (c.evStopped || (c.soc !== undefined && c.soc >= 100)) return 'SuspendedEV';
  return powerW(s.ctx, c, s.now) > 0 ? 'Charging' : 'SuspendedEVSE';
}

export function hasTransaction(s: Step): boolean {
  return s.ctx.connectors.some((c) => c.tx);
}

function scheduleMeter(s: Step): void {
  if (s.ctx.meterAt === 0)
    s.patch({ meterAt: s.now + Math.max(1, intSetting(s.ctx, 'MeterValueSampleInterval')) * 1000 });
}

export function startTransaction(s: Step, id: number, idTag: string, cause: StartCause): void {
  const c0 = s.connector(id);
  if (!c0 || c0.tx) return;
  const ref = s.ctx.nextTxRef;
  const tx = {
    ref,
    idTag,
    startWh: Math.floor(c0.meterWh),
    startedAt: s.now,
    seq: 0,
    ...(s.ctx.version === 'ocpp2.0.1'
      ? { id: `${s.ctx.identity.slice(0, 20)}-${ref}-${s.now.toString(36)}`.slice(-36) }
      : {}),
    ...(c0.remoteStartId !== undefined ? { remoteStartId: c0.remoteStartId } : {}),
    ...(c0.authorizedType ? { idType: c0.authorizedType } : {}),
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
    meterAt: s.now,
  };
  c = { ...c, powerW: powerW(s.ctx, c, s.now) };
  s.putConnector(c);
  s.call(s.adapter.txStarted(s.ctx, c, cause, s.now), { tx: ref });
  bumpSeq(s, id);
  setStatus(s, id, chargingStatus(s, c));
  scheduleMeter(s);
}

export function stopTransaction(s: Step, id: number, cause: StopCause): void {
  const c0 = s.connector(id);
  if (!c0?.tx) return;
  const c = integrate(s.ctx, c0, s.now);
  s.call(s.adapter.txEnded(s.ctx, c, cause, s.now), { tx: c.tx!.ref });
  const ref = c.tx!.ref;
  const ended: Connector = { ...c, tx: undefined, powerW: 0, evStopped: false };
  s.putConnector(ended);
  s.patch({ profiles: s.ctx.profiles.filter((p) => p.txRef !== ref) });
  const next: ConnectorStatus =
    ended.status === 'Faulted'
      ? 'Faulted'
      : ended.inoperative
        ? 'Unavailable'
        : ended.plugged
          ? 'Finishing'
          : 'Available';
  setStatus(s, id, next, ended.errorCode);
  if (s.ctx.reset === 'idle' && !hasTransaction(s)) s.patch({ reset: 'now' });
}

/** Periodic sample: integrate energy and report every running transaction. */
export function sampleMeters(s: Step): void {
  for (const c0 of s.ctx.connectors) {
    if (!c0.tx) continue;
    const c = integrate(s.ctx, c0, s.now);
    s.putConnector(c);
    const call = s.adapter.txUpdated(s.ctx, c, 'meter', s.now);
    if (call) {
      s.call(call, { tx: c.tx!.ref });
      bumpSeq(s, c.id);
    }
    if (c.tx && c.status !== 'Finishing') refreshChargingState(s, c.id);
  }
  s.patch({
    meterAt: hasTransaction(s)
      ? s.now + Math.max(1, intSetting(s.ctx, 'MeterValueSampleInterval')) * 1000
      : 0,
  });
}

/** After a change of limits: integrate at the old power, take the new one, report a state change. */
export function refreshChargingState(s: Step, id: number): void {
  const c0 = s.connector(id);
  if (!c0?.tx) return;
  const c = integrate(s.ctx, c0, s.now);
  s.putConnector(c);
  const status = chargingStatus(s, c);
  if (status === c.status) return;
  setStatus(s, id, status);
  const cause =
    status === 'Charging' ? 'charging' : status === 'SuspendedEV' ? 'suspended_ev' : 'suspended_evse';
  const call = s.adapter.txUpdated(s.ctx, s.connector(id)!, cause, s.now);
  if (call) {
    s.call(call, { tx: c.tx!.ref });
    bumpSeq(s, id);
  }
}

/** 2.0.1 numbers every TransactionEvent of a transaction: the next one gets the next seqNo. */
export function bumpSeq(s: Step, id: number): void {
  const c = s.connector(id);
  if (c?.tx) s.putConnector({ ...c, tx: { ...c.tx, seq: c.tx.seq + 1 } });
}

export function refreshAllCharging(s: Step): void {
  for (const c of s.ctx.connectors) if (c.tx) refreshChargingState(s, c.id);
}

/** A token was accepted for a connector: start now if plugged in, else wait for the cable. */
export function tokenAccepted(s: Step, id: number, idTag: string, cause: StartCause, idType?: string): void {
  const c = s.connector(id);
  if (!c || c.tx) return;
  s.putConnector({ ...c, authorized: idTag, authorizedType: idType });
  if (c.plugged) startTransaction(s, id, idTag, cause);
  else {
    setStatus(s, id, 'Preparing');
  }
}

function usable(c: Connector | undefined): boolean {
  return !!c && !c.inoperative && c.status !== 'Faulted' && c.status !== 'Unavailable';
}

export function plugIn(
  s: Step,
  e: {
    connectorId: number;
    evMaxPowerKw?: number;
    socPercent?: number;
    batteryKwh?: number;
    commandId?: string;
  },
): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'PLUG_IN', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.plugged) return s.fail(e.commandId, 'PLUG_IN', 'INVALID_STATE', 'a cable is already plugged in');
  const dc = s.ctx.model.current_type === 'DC';
  s.putConnector({
    ...c,
    plugged: true,
    evStopped: false,
    evMaxW: (e.evMaxPowerKw ?? 0) * 1000,
    soc: dc ? (e.socPercent ?? 20) : undefined,
    batteryWh: dc ? (e.batteryKwh ?? 60) * 1000 : undefined,
  });
  if (c.authorized && usable(c)) startTransaction(s, c.id, c.authorized, 'plugged');
  else if (usable(c)) setStatus(s, c.id, 'Preparing');
  s.result(e.commandId, 'PLUG_IN', { ok: true, payload: { status: 'Accepted' } });
}

export function unplug(s: Step, e: { connectorId: number; commandId?: string }): void {
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
  });
  if (c.tx) stopTransaction(s, c.id, 'ev_disconnected');
  const after = s.connector(c.id)!;
  setStatus(s, c.id, idleStatus(after), after.errorCode);
  s.result(e.commandId, 'UNPLUG', { ok: true, payload: { status: 'Accepted' } });
}

export function evStopsEnergy(s: Step, e: { connectorId: number; commandId?: string }): void {
  const c = s.connector(e.connectorId);
  if (!c?.tx)
    return s.fail(
      e.commandId,
      'EV_STOPS_ENERGY',
      'INVALID_STATE',
      `no transaction on connector ${e.connectorId}`,
    );
  s.putConnector({ ...integrate(s.ctx, c, s.now), evStopped: true });
  refreshChargingState(s, c.id);
  s.result(e.commandId, 'EV_STOPS_ENERGY', { ok: true, payload: { status: 'Accepted' } });
}

export function fault(s: Step, e: { connectorId: number; errorCode?: string; commandId?: string }): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'FAULT', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.tx) stopTransaction(s, c.id, 'fault');
  setStatus(s, c.id, 'Faulted', e.errorCode ?? 'OtherError');
  s.result(e.commandId, 'FAULT', { ok: true, payload: { status: 'Accepted' } });
}

export function clearFault(s: Step, e: { connectorId: number; commandId?: string }): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'CLEAR_FAULT', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.status === 'Faulted') {
    s.putConnector({ ...c, status: 'Available', errorCode: 'NoError' });
    const after = s.connector(c.id)!;
    setStatus(s, c.id, idleStatus(after), 'NoError', true);
  }
  s.result(e.commandId, 'CLEAR_FAULT', { ok: true, payload: { status: 'Accepted' } });
}

/**
 * A token presented at a connector: stops the connector's transaction when it is the same token;
 * otherwise authorizes it from the local list, the cache, or the CSMS (see the 1.6 settings
 * LocalAuthListEnabled, AuthorizationCacheEnabled, LocalPreAuthorize, LocalAuthorizeOffline).
 */
export function presentToken(s: Step, e: { connectorId: number; idTag: string; commandId?: string }): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'PRESENT_TOKEN', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.tx) {
    if (c.tx.idTag !== e.idTag)
      return s.fail(e.commandId, 'PRESENT_TOKEN', 'INVALID_STATE', 'another token runs this transaction');
    stopTransaction(s, c.id, 'local');
    return s.result(e.commandId, 'PRESENT_TOKEN', {
      ok: true,
      payload: { status: 'Accepted', stopped: true },
    });
  }
  if (!usable(c))
    return s.fail(e.commandId, 'PRESENT_TOKEN', 'INVALID_STATE', `connector ${c.id} is ${c.status}`);
  const local = localAuthorization(s.ctx, e.idTag);
  const decide = (status: string, source: string) => {
    if (status === 'Accepted') tokenAccepted(s, c.id, e.idTag, 'authorized');
    s.result(e.commandId, 'PRESENT_TOKEN', {
      ok: status === 'Accepted',
      action: 'Authorize',
      payload: { status, source },
      ...(status === 'Accepted' ? {} : { error: { code: 'NOT_AUTHORIZED', description: `token ${status}` } }),
    });
  };
  if (local && local.source === 'local_list' && local.status !== 'Accepted')
    return decide(local.status, local.source);
  if (s.online) {
    if (local?.status === 'Accepted' && boolSetting(s.ctx, 'LocalPreAuthorize'))
      return decide('Accepted', local.source);
    s.send(s.adapter.authorize(e.idTag), { connectorId: c.id, idTag: e.idTag, commandId: e.commandId });
    return;
  }
  if (local && boolSetting(s.ctx, 'LocalAuthorizeOffline')) return decide(local.status, local.source);
  if (!local && boolSetting(s.ctx, 'AllowOfflineTxForUnknownId')) return decide('Accepted', 'offline');
  decide('Invalid', 'offline');
}
