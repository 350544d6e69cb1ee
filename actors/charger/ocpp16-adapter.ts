// OCPP 1.6J: payloads as the official 1.6 JSON schemas write them, and the CSMS's calls as handlers.
/* eslint-disable @typescript-eslint/no-explicit-any -- CSMS payloads reach the handlers validated against the official schemas */
import type { AuthStatus, ChargerContext, ChargingProfile, Connector } from './charger-context.ts';
import type { CsmsHandler, OcppAdapter, OutboundCall, StopCause } from './ocpp-adapter.ts';
import { SETTINGS, SETTING_KEYS, getSetting } from './charger-settings.ts';
import { purposeFrom } from './ocpp-adapter.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const call = (action: string, payload: Record<string, unknown>): OutboundCall => ({ action, payload });

const STOP_REASON: Record<StopCause, string> = {
  local: 'Local',
  remote: 'Remote',
  ev_disconnected: 'EVDisconnected',
  deauthorized: 'DeAuthorized',
  hard_reset: 'HardReset',
  soft_reset: 'SoftReset',
  unlock: 'UnlockCommand',
  fault: 'Other',
  reboot: 'Reboot',
};

const ERROR_CODES = new Set([
  'ConnectorLockFailure',
  'EVCommunicationError',
  'GroundFailure',
  'HighTemperature',
  'InternalError',
  'LocalListConflict',
  'NoError',
  'OtherError',
  'OverCurrentFailure',
  'PowerMeterFailure',
  'PowerSwitchFailure',
  'ReaderFailure',
  'ResetFailure',
  'UnderVoltage',
  'OverVoltage',
  'WeakSignal',
]);

/** 1.6 limits identifiers to 20 characters (CiString20Type). */
const ci20 = (s: string) => s.slice(0, 20);

/** The sampled values of a connector, as configured by MeterValuesSampledData. */
function sampledValues(
  ctx: ChargerContext,
  c: Connector,
  context: string,
  measurands = getSetting(ctx, 'MeterValuesSampledData') ?? '',
) {
  const wanted = new Set(measurands.split(',').map((x) => x.trim()));
  const out: Record<string, unknown>[] = [];
  if (wanted.has('Energy.Active.Import.Register'))
    out.push({
      value: String(Math.floor(c.meterWh)),
      context,
      measurand: 'Energy.Active.Import.Register',
      unit: 'Wh',
    });
  if (wanted.has('Power.Active.Import'))
    out.push({ value: String(Math.round(c.powerW)), context, measurand: 'Power.Active.Import', unit: 'W' });
  if (wanted.has('SoC') && c.soc !== undefined)
    out.push({
      value: String(Math.floor(c.soc)),
      context,
      measurand: 'SoC',
      unit: 'Percent',
      location: 'EV',
    });
  if (out.length === 0)
    out.push({
      value: String(Math.floor(c.meterWh)),
      context,
      measurand: 'Energy.Active.Import.Register',
      unit: 'Wh',
    });
  return out;
}

function meterValue(ctx: ChargerContext, c: Connector, at: number, context: string, measurands?: string) {
  return [{ timestamp: iso(at), sampledValue: sampledValues(ctx, c, context, measurands) }];
}

function authStatus(x: unknown): AuthStatus {
  return x === 'Accepted' || x === 'Blocked' || x === 'Expired' || x === 'ConcurrentTx' ? x : 'Invalid';
}

function toProfile(connectorId: number, p: any, now: number): ChargingProfile {
  const sched = p.chargingSchedule;
  return {
    id: p.chargingProfileId,
    connectorId,
    stackLevel: p.stackLevel,
    purpose:
      p.chargingProfilePurpose === 'ChargePointMaxProfile'
        ? 'Max'
        : p.chargingProfilePurpose === 'TxDefaultProfile'
          ? 'TxDefault'
          : 'Tx',
    unit: sched.chargingRateUnit,
    periods: sched.chargingSchedulePeriod.map((x: any) => ({
      startPeriod: x.startPeriod,
      limit: x.limit,
      ...(x.numberPhases ? { numberPhases: x.numberPhases } : {}),
    })),
    startAt:
      p.chargingProfileKind === 'Relative' ? 0 : sched.startSchedule ? Date.parse(sched.startSchedule) : now,
    ...(sched.duration !== undefined ? { duration: sched.duration } : {}),
    ...(p.validTo ? { validTo: Date.parse(p.validTo) } : {}),
    ...(p.transactionId !== undefined ? { transactionId: p.transactionId } : {}),
  };
}

const PURPOSE_16: Record<ChargingProfile['purpose'], string> = {
  Max: 'ChargePointMaxProfile',
  TxDefault: 'TxDefaultProfile',
  Tx: 'TxProfile',
};

const handlers: Record<string, CsmsHandler> = {
  // 1.6 has no Scheduled: a soft reset stops the transactions gracefully, then reboots.
  Reset: (p, ops) => {
    ops.reset(p.type === 'Hard' ? 'hard' : 'soft');
    return { status: 'Accepted' };
  },

  ChangeConfiguration: (p, ops) => ({ status: ops.changeSetting(p.key, p.value) }),

  GetConfiguration: (p, ops) => {
    const asked: string[] = Array.isArray(p.key) && p.key.length > 0 ? p.key : SETTING_KEYS;
    const known = asked.filter((k) => SETTINGS[k]);
    const unknown = asked.filter((k) => !SETTINGS[k]);
    return {
      configurationKey: known.map((key) => ({
        key,
        readonly: SETTINGS[key].readonly,
        value: getSetting(ops.ctx, key)!.slice(0, 500),
      })),
      ...(unknown.length ? { unknownKey: unknown } : {}),
    };
  },

  RemoteStartTransaction: (p, ops) => {
    const profile = p.chargingProfile ? toProfile(p.connectorId ?? 0, p.chargingProfile, ops.now) : undefined;
    return { status: ops.remoteStart({ connectorId: p.connectorId, idTag: p.idTag, profile }).status };
  },

  RemoteStopTransaction: (p, ops) => ({ status: ops.remoteStop(ops.connectorByTx(p.transactionId)) }),

  ClearCache: (_p, ops) => ({ status: ops.clearCache() }),

  SendLocalList: (p, ops) => ({
    status: ops.updateLocalList({
      version: p.listVersion,
      full: p.updateType === 'Full',
      entries: (p.localAuthorizationList ?? []).map((e: any) => ({
        idTag: e.idTag,
        status: e.idTagInfo ? authStatus(e.idTagInfo.status) : undefined,
      })),
    }),
  }),

  GetLocalListVersion: (_p, ops) => ({
    listVersion: getSetting(ops.ctx, 'LocalAuthListEnabled') === 'true' ? ops.ctx.localList.version : -1,
  }),

  TriggerMessage: (p, ops) => {
    switch (p.requestedMessage) {
      case 'BootNotification':
      case 'Heartbeat':
      case 'StatusNotification':
      case 'MeterValues':
        return { status: ops.trigger(p.requestedMessage, p.connectorId) };
      case 'DiagnosticsStatusNotification':
        ops.callAfterAnswer(call('DiagnosticsStatusNotification', { status: 'Idle' }));
        return { status: 'Accepted' };
      case 'FirmwareStatusNotification':
        ops.callAfterAnswer(call('FirmwareStatusNotification', { status: 'Idle' }));
        return { status: 'Accepted' };
      default:
        return { status: 'NotImplemented' };
    }
  },

  ChangeAvailability: (p, ops) => ({ status: ops.changeAvailability(p.connectorId, p.type === 'Operative') }),

  UnlockConnector: (p, ops) => ({
    status: ops.unlock(p.connectorId) === 'Unlocked' ? 'Unlocked' : 'UnlockFailed',
  }),

  SetChargingProfile: (p, ops) => ({
    status: ops.setProfile(toProfile(p.connectorId, p.csChargingProfiles, ops.now)),
  }),

  ClearChargingProfile: (p, ops) => {
    const cleared = ops.clearProfiles({
      id: p.id,
      connectorId: p.connectorId,
      purpose: purposeFrom(PURPOSE_16, p.chargingProfilePurpose),
      stackLevel: p.stackLevel,
    });
    return { status: cleared ? 'Accepted' : 'Unknown' };
  },

  GetCompositeSchedule: (p, ops) => {
    const composite = ops.compositeLimit(p.connectorId, p.chargingRateUnit);
    if (!composite) return { status: 'Rejected' };
    const { unit, limit } = composite;
    return {
      status: 'Accepted',
      connectorId: p.connectorId,
      scheduleStart: iso(ops.now),
      chargingSchedule: {
        duration: p.duration,
        startSchedule: iso(ops.now),
        chargingRateUnit: unit,
        chargingSchedulePeriod: [{ startPeriod: 0, limit }],
      },
    };
  },

  // A cooperative simulator: any vendor's data is accepted and echoed.
  DataTransfer: (p) => ({ status: 'Accepted', ...(p.data !== undefined ? { data: String(p.data) } : {}) }),
};

export const ocpp16Adapter: OcppAdapter = {
  bootNotification: (ctx) =>
    call('BootNotification', {
      chargePointVendor: ci20(ctx.model.boot_vendor),
      chargePointModel: ci20(ctx.model.boot_model),
      ...(ctx.serialNumber
        ? {
            chargePointSerialNumber: ctx.serialNumber.slice(0, 25),
            chargeBoxSerialNumber: ctx.serialNumber.slice(0, 25),
          }
        : {}),
      ...(ctx.model.firmware_version ? { firmwareVersion: ctx.model.firmware_version.slice(0, 50) } : {}),
    }),

  bootResult: (p) => ({
    status: p?.status === 'Accepted' || p?.status === 'Pending' ? p.status : 'Rejected',
    interval: Number(p?.interval) || 0,
  }),

  heartbeat: () => call('Heartbeat', {}),

  statusNotification: (_ctx, connectorId, status, _prev, errorCode, at) =>
    call('StatusNotification', {
      connectorId,
      errorCode: ERROR_CODES.has(errorCode) ? errorCode : 'OtherError',
      status,
      timestamp: iso(at),
    }),

  authorize: (idTag) => call('Authorize', { idTag: ci20(idTag) }),

  authorizeResult: (p) => authStatus(p?.idTagInfo?.status),

  txStarted: (ctx, c, _cause, at) =>
    call('StartTransaction', {
      connectorId: c.id,
      idTag: ci20(c.tx!.idTag),
      meterStart: c.tx!.startWh,
      timestamp: iso(at),
    }),

  // 1.6 says charging-state changes with StatusNotification; only meter samples are transaction messages.
  txUpdated: (ctx, c, cause, at) => {
    if (cause !== 'meter' && cause !== 'trigger') return undefined;
    const transactionId = ctx.txIds[c.tx!.ref];
    return call('MeterValues', {
      connectorId: c.id,
      ...(transactionId !== undefined ? { transactionId } : {}),
      meterValue: meterValue(ctx, c, at, cause === 'meter' ? 'Sample.Periodic' : 'Trigger'),
    });
  },

  txEnded: (ctx, c, cause, at) =>
    call('StopTransaction', {
      idTag: ci20(c.tx!.idTag),
      meterStop: Math.floor(c.meterWh),
      timestamp: iso(at),
      reason: STOP_REASON[cause],
      transactionData: meterValue(ctx, c, at, 'Transaction.End', getSetting(ctx, 'StopTxnSampledData')),
    }),

  txStartResult: (p) => ({
    transactionId: Number.isInteger(p?.transactionId) ? p.transactionId : undefined,
    status: authStatus(p?.idTagInfo?.status),
  }),

  meterValues: (ctx, c, at) =>
    call('MeterValues', { connectorId: c.id, meterValue: meterValue(ctx, c, at, 'Trigger') }),

  handlers,
};
