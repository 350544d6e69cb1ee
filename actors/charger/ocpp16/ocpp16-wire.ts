// OCPP 1.6J: the charger's messages as the official 1.6 JSON schemas write them, and every
// decision that is 1.6's: the CSMS numbers transactions (StartTransaction's answer), settings
// are keys, connectors are numbered from 1 with 0 for the charger itself.
import type { Connector } from '../core/context.ts';
import type { ChangeCause, OcppWire, StopCause } from '../core/wire.ts';
import { READABLE_MEASURANDS, getSetting, settingKeysOf } from '../core/settings.ts';
import { authStatus, bootResult, call, iso } from '../wire/basics.ts';
import {
  endSampleValues,
  mainMeterValue,
  measurandMask,
  meterValue,
  type WriteReading,
} from '../wire/sampled-values.ts';
import { PURPOSE_16 } from './ocpp16-names.ts';

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

/** Statuses a 1.6 IdTagInfo can carry (2.0.1 knows more). */
const AUTH_STATUSES = new Set(['Accepted', 'Blocked', 'Expired', 'Invalid', 'ConcurrentTx']);

/** 1.6 limits identifiers to 20 characters (CiString20Type). */
export const ci20 = (s: string) => s.slice(0, 20);

/** 1.6 SampledValue: the value as a string, `unit` beside it. */
const reading16: WriteReading = (measurand, value, unit, context, phase, location) => {
  const v: Record<string, unknown> = { value: String(value), context, measurand };
  if (phase) v.phase = phase;
  if (location) v.location = location;
  v.unit = unit;
  return v;
};

/** Context and measurands of a meter sample by its cause. */
const SAMPLE: Partial<Record<ChangeCause, { context: string; measurands: string }>> = {
  meter: { context: 'Sample.Periodic', measurands: 'MeterValuesSampledData' },
  trigger: { context: 'Trigger', measurands: 'MeterValuesSampledData' },
  clock: { context: 'Sample.Clock', measurands: 'MeterValuesAlignedData' },
};

const meterValue16 = (
  ctx: Parameters<typeof meterValue>[0],
  c: Connector,
  at: number,
  context: string,
  measurands?: string,
) => meterValue(ctx, c, at, context, reading16, MASK_16, measurands);

/** 1.6 reads every measurand the charger has. */
const MEASURANDS_16 = READABLE_MEASURANDS;
const MASK_16 = measurandMask(MEASURANDS_16);

export const ocpp16Wire: OcppWire<'ocpp1.6'> = {
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

  bootResult,

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

  // The CSMS numbers 1.6 transactions: the id comes with StartTransaction's answer (ctx.txIds).
  transactionId: () => undefined,

  txStarted: (_ctx, c, _cause, at) =>
    call('StartTransaction', {
      connectorId: c.id,
      idTag: ci20(c.tx!.idTag),
      meterStart: c.tx!.startWh,
      timestamp: iso(at),
      ...(c.tx!.reservationId !== undefined ? { reservationId: c.tx!.reservationId } : {}),
    }),

  // 1.6 says charging-state changes with StatusNotification; only meter samples are transaction messages.
  txUpdated: (ctx, c, cause, at) => {
    const sample = SAMPLE[cause];
    if (!sample) return undefined;
    const transactionId = ctx.txIds[c.tx!.ref];
    return call('MeterValues', {
      connectorId: c.id,
      ...(transactionId !== undefined ? { transactionId } : {}),
      meterValue: meterValue16(ctx, c, at, sample.context, getSetting(ctx, sample.measurands)),
    });
  },

  txEnded: (ctx, c, cause, at) =>
    call('StopTransaction', {
      // The token that stopped it (another of the starter's group, C09), else the starter's.
      idTag: ci20(c.tx!.stoppedBy ?? c.tx!.idTag),
      meterStop: Math.floor(c.meterWh),
      timestamp: iso(at),
      reason: STOP_REASON[cause],
      // StopTxnSampledData every MeterValueSampleInterval, StopTxnAlignedData on the clock, then the end.
      transactionData: [
        ...endSampleValues(
          ctx,
          c,
          reading16,
          MASK_16,
          getSetting(ctx, 'StopTxnSampledData') ?? '',
          getSetting(ctx, 'StopTxnAlignedData') ?? '',
        ),
        ...meterValue16(ctx, c, at, 'Transaction.End', getSetting(ctx, 'StopTxnSampledData')),
      ],
    }),

  isTxStart: (item) => item.action === 'StartTransaction',

  txStartResult: (p) => ({
    transactionId: Number.isInteger(p?.transactionId) ? p.transactionId : undefined,
    status: authStatus(p?.idTagInfo?.status),
  }),

  // Messages of a transaction carry the CSMS's id; one that never got an id (its StartTransaction
  // was refused for good) has nothing to attach them to, so they are dropped.
  outboxPayload: (ctx, item) => {
    if (item.tx === undefined || item.action === 'StartTransaction') return item.payload;
    const transactionId = ctx.txIds[item.tx];
    return transactionId === undefined ? undefined : { ...item.payload, transactionId };
  },

  measurands: MEASURANDS_16,
  settings: settingKeysOf('ocpp1.6'),
  txEndedIntervals: { sampled: 'MeterValueSampleInterval', aligned: 'ClockAlignedDataInterval' },

  // Connector 0 is the main meter: its clock-aligned readings go with the connectors'.
  mainMeterValues: (ctx, at) =>
    call('MeterValues', { connectorId: 0, meterValue: mainMeterValue(ctx, at, reading16, MASK_16) }),

  // A triggered sample of a connector in a transaction names it (1.6 MeterValues.transactionId).
  meterValues: (ctx, c, at, cause = 'trigger') => {
    const sample = SAMPLE[cause]!;
    const transactionId = c.tx ? ctx.txIds[c.tx.ref] : undefined;
    return call('MeterValues', {
      connectorId: c.id,
      ...(transactionId !== undefined ? { transactionId } : {}),
      meterValue: meterValue16(ctx, c, at, sample.context, getSetting(ctx, sample.measurands)),
    });
  },

  clearCacheCall: () => call('ClearCache', {}),

  configurationCall: (key, value) => call('ChangeConfiguration', { key, value }),

  localListCall: (list) =>
    call('SendLocalList', {
      listVersion: list.version,
      updateType: list.updateType,
      localAuthorizationList: list.entries.map((e) => ({
        idTag: e.idTag,
        ...(e.status
          ? {
              idTagInfo: {
                status: e.status,
                ...(e.expiryDate ? { expiryDate: e.expiryDate } : {}),
                ...(e.parentIdTag ? { parentIdTag: e.parentIdTag } : {}),
              },
            }
          : {}),
      })),
    }),

  connectorOf: (p) => p.connectorId,

  configurationCommand: (c) => {
    if (c.key === undefined || c.component !== undefined || c.variable !== undefined)
      return { problem: 'an OCPP 1.6 charger takes {key, value}' };
    return { type: 'CHANGE_CONFIGURATION', key: c.key, value: c.value };
  },

  localListProblem: (list) => {
    const bad = list.entries.find((e) => e.status !== undefined && !AUTH_STATUSES.has(e.status));
    return bad ? `status '${bad.status}' does not exist in OCPP 1.6` : undefined;
  },

  evseOf: () => null,
  transactionIdOf: (ctx, c) => (c.tx ? ctx.txIds[String(c.tx.ref)] : undefined),
  profilePurposes: PURPOSE_16,
  settingName: (key) => key,

  // Reservations: 1.6 says an expired reservation with the connector's StatusNotification only.
  reservationUpdate: () => undefined,
  authorizeGroup: (p) => p?.idTagInfo?.parentIdTag,
  // 1.6 has no external-limit messages (the limit applies all the same) and no monitoring.
  chargingLimitSet: () => undefined,
  chargingLimitCleared: () => undefined,
  monitorEvents: () => undefined,
};
