// OCPP 2.0.1 (and 2.1, which keeps these messages): the charger's messages as the official
// schemas write them, and every decision that is 2.x's: the charger names its transactions and
// reports them with TransactionEvent (numbered by seqNo), settings are device-model
// component/variable pairs, and each connector is an EVSE with one connector (evse.id = the
// charger's connector id, connectorId 1).
import type { ChargerContext, Connector, ConnectorStatus } from '../core/context.ts';
import type { ChangeCause, OcppWire, OutboundCall, StartCause, StopCause } from '../core/wire.ts';
import { READABLE_MEASURANDS, SETTINGS, getSetting } from '../core/settings.ts';
import { authStatus, bootResult, call, iso } from '../wire/basics.ts';
import {
  endSampleValues,
  mainMeterValue,
  measurandMask,
  meterValue,
  type WriteReading,
} from '../wire/sampled-values.ts';
import { SETTINGS_2, connectorStatus } from './device-model.ts';
import { notifyEvent2 } from './ocpp2-monitoring.ts';
import { PURPOSE_2 } from './ocpp2-names.ts';

function chargingState(c: Connector): string {
  switch (c.status) {
    case 'Charging':
      return 'Charging';
    case 'SuspendedEV':
      return 'SuspendedEV';
    case 'SuspendedEVSE':
      return 'SuspendedEVSE';
    default:
      return c.plugged ? 'EVConnected' : 'Idle';
  }
}

const STOP: Record<StopCause, { trigger: string; reason: string }> = {
  local: { trigger: 'StopAuthorized', reason: 'Local' },
  remote: { trigger: 'RemoteStop', reason: 'Remote' },
  ev_disconnected: { trigger: 'EVCommunicationLost', reason: 'EVDisconnected' },
  deauthorized: { trigger: 'Deauthorized', reason: 'DeAuthorized' },
  hard_reset: { trigger: 'ResetCommand', reason: 'ImmediateReset' },
  soft_reset: { trigger: 'ResetCommand', reason: 'ImmediateReset' },
  unlock: { trigger: 'UnlockCommand', reason: 'Other' },
  fault: { trigger: 'AbnormalCondition', reason: 'Other' },
  reboot: { trigger: 'ResetCommand', reason: 'Reboot' },
};

const START_TRIGGER: Record<StartCause, string> = {
  authorized: 'Authorized',
  plugged: 'CablePluggedIn',
  remote: 'RemoteStart',
};

const CHANGE_TRIGGER: Record<ChangeCause, string> = {
  charging: 'ChargingStateChanged',
  suspended_ev: 'ChargingStateChanged',
  suspended_evse: 'ChargingStateChanged',
  meter: 'MeterValuePeriodic',
  trigger: 'Trigger',
  rate: 'ChargingRateChanged',
  clock: 'MeterValueClock',
};

/** Context and measurands of the meter value a TransactionEvent Updated carries, by its cause. */
const UPDATE_SAMPLE: Record<ChangeCause, { context: string; measurands: string }> = {
  charging: { context: 'Sample.Periodic', measurands: 'MeterValuesSampledData' },
  suspended_ev: { context: 'Sample.Periodic', measurands: 'MeterValuesSampledData' },
  suspended_evse: { context: 'Sample.Periodic', measurands: 'MeterValuesSampledData' },
  meter: { context: 'Sample.Periodic', measurands: 'MeterValuesSampledData' },
  rate: { context: 'Sample.Periodic', measurands: 'MeterValuesSampledData' },
  trigger: { context: 'Trigger', measurands: 'MeterValuesSampledData' },
  clock: { context: 'Sample.Clock', measurands: 'MeterValuesAlignedData' },
};

/** 2.x SampledValue: the value as a number, its unit in `unitOfMeasure` (units as 1.6 names them). */
const reading2: WriteReading = (measurand, value, unit, context, phase, location) => {
  const v: Record<string, unknown> = { value, context, measurand };
  if (phase) v.phase = phase;
  if (location) v.location = location;
  v.unitOfMeasure = { unit };
  return v;
};

/** 2.x's MeasurandEnumType has no Temperature (a device-model variable there). */
const MEASURANDS_2 = READABLE_MEASURANDS.filter((m) => m !== 'Temperature');
const MASK_2 = measurandMask(MEASURANDS_2);

const meterValue2 = (ctx: ChargerContext, c: Connector, at: number, context: string, measurands?: string) =>
  meterValue(ctx, c, at, context, reading2, MASK_2, measurands);

function transactionEvent(
  ctx: ChargerContext,
  c: Connector,
  eventType: 'Started' | 'Updated' | 'Ended',
  triggerReason: string,
  at: number,
  extra: {
    stoppedReason?: string;
    context: string;
    withToken?: boolean;
    measurands?: string;
    /** Ended: the readings kept during the transaction go before the end's. */
    kept?: boolean;
  },
): OutboundCall {
  const tx = c.tx!;
  return call('TransactionEvent', {
    eventType,
    timestamp: iso(at),
    triggerReason,
    seqNo: tx.seq,
    ...(ctx.stage !== 'online' ? { offline: true } : {}),
    transactionInfo: {
      transactionId: tx.id!,
      chargingState: eventType === 'Ended' ? (c.plugged ? 'EVConnected' : 'Idle') : chargingState(c),
      ...(extra.stoppedReason ? { stoppedReason: extra.stoppedReason } : {}),
      ...(tx.remoteStartId !== undefined && eventType === 'Started'
        ? { remoteStartId: tx.remoteStartId }
        : {}),
    },
    ...(extra.withToken
      ? eventType === 'Ended' && tx.stoppedBy !== undefined
        ? // Stopped by another token of the starter's group (C09): that token, as presented.
          { idToken: { idToken: tx.stoppedBy.slice(0, 36), type: 'ISO14443' } }
        : { idToken: { idToken: tx.idTag.slice(0, 36), type: tx.idType ?? 'ISO14443' } }
      : {}),
    ...(eventType === 'Started' && tx.reservationId !== undefined ? { reservationId: tx.reservationId } : {}),
    evse: { id: c.id, connectorId: 1 },
    meterValue: extra.kept
      ? [
          ...endSampleValues(
            ctx,
            c,
            reading2,
            MASK_2,
            getSetting(ctx, 'StopTxnSampledData') ?? '',
            getSetting(ctx, 'StopTxnAlignedData') ?? '',
          ),
          ...meterValue2(ctx, c, at, extra.context, extra.measurands),
        ]
      : meterValue2(ctx, c, at, extra.context, extra.measurands),
  });
}

export const ocpp2Wire: OcppWire<'ocpp2.0.1'> = {
  bootNotification: (ctx) =>
    call('BootNotification', {
      reason: ctx.bootReason ?? 'PowerUp',
      chargingStation: {
        model: ctx.model.boot_model.slice(0, 20),
        vendorName: ctx.model.boot_vendor.slice(0, 50),
        ...(ctx.serialNumber ? { serialNumber: ctx.serialNumber.slice(0, 25) } : {}),
        ...(ctx.model.firmware_version ? { firmwareVersion: ctx.model.firmware_version.slice(0, 50) } : {}),
      },
    }),

  bootResult,

  heartbeat: () => call('Heartbeat', {}),

  // 2.x statuses are coarser than the charger's: a change within one of them is not reported.
  statusNotification: (_ctx, connectorId, status: ConnectorStatus, prev, _errorCode, at) => {
    if (connectorId === 0) return undefined;
    const now = connectorStatus(status);
    if (prev !== undefined && connectorStatus(prev) === now) return undefined;
    return call('StatusNotification', {
      timestamp: iso(at),
      connectorStatus: now,
      evseId: connectorId,
      connectorId: 1,
    });
  },

  authorize: (idTag) => call('Authorize', { idToken: { idToken: idTag.slice(0, 36), type: 'ISO14443' } }),

  authorizeResult: (p) => authStatus(p?.idTokenInfo?.status),

  // The charger names its transactions: unique per charger, at most 36 characters.
  transactionId: (ctx, ref, now) => `${ctx.identity.slice(0, 20)}-${ref}-${now.toString(36)}`.slice(-36),

  txStarted: (ctx, c, cause, at) =>
    transactionEvent(ctx, c, 'Started', START_TRIGGER[cause], at, {
      context: 'Transaction.Begin',
      withToken: true,
      measurands: getSetting(ctx, 'TxStartedMeasurands'),
    }),

  txUpdated: (ctx, c, cause, at) =>
    transactionEvent(ctx, c, 'Updated', CHANGE_TRIGGER[cause], at, {
      context: UPDATE_SAMPLE[cause].context,
      measurands: getSetting(ctx, UPDATE_SAMPLE[cause].measurands),
    }),

  txEnded: (ctx, c, cause, at) =>
    transactionEvent(ctx, c, 'Ended', STOP[cause].trigger, at, {
      context: 'Transaction.End',
      stoppedReason: STOP[cause].reason,
      withToken: cause === 'local',
      measurands: getSetting(ctx, 'StopTxnSampledData'),
      kept: true,
    }),

  isTxStart: (item) => item.action === 'TransactionEvent' && item.payload.eventType === 'Started',

  txStartResult: (p) => ({ status: p?.idTokenInfo ? authStatus(p.idTokenInfo.status) : undefined }),

  outboxPayload: (_ctx, item) => item.payload,

  measurands: MEASURANDS_2,
  settings: SETTINGS_2,
  txEndedIntervals: { sampled: 'SampledDataTxEndedInterval', aligned: 'AlignedDataTxEndedInterval' },
  // evseId 0 is the main meter (J01): its clock-aligned readings go with the EVSEs'.
  mainMeterValues: (ctx, at) =>
    call('MeterValues', { evseId: 0, meterValue: mainMeterValue(ctx, at, reading2, MASK_2) }),

  meterValues: (ctx, c, at, cause = 'trigger') =>
    call('MeterValues', {
      evseId: c.id,
      meterValue: meterValue2(
        ctx,
        c,
        at,
        UPDATE_SAMPLE[cause].context,
        getSetting(ctx, UPDATE_SAMPLE[cause].measurands),
      ),
    }),

  clearCacheCall: () => call('ClearCache', {}),

  configurationCall: (key, value) => {
    const d = SETTINGS[key];
    return call('SetVariables', {
      setVariableData: [
        { component: { name: d.component }, variable: { name: d.variable }, attributeValue: value },
      ],
    });
  },

  localListCall: (list) =>
    call('SendLocalList', {
      versionNumber: list.version,
      updateType: list.updateType,
      localAuthorizationList: list.entries.map((e) => ({
        idToken: { idToken: e.idTag, type: 'Central' },
        ...(e.status
          ? {
              idTokenInfo: {
                status: e.status,
                ...(e.expiryDate ? { cacheExpiryDateTime: e.expiryDate } : {}),
                ...(e.parentIdTag ? { groupIdToken: { idToken: e.parentIdTag, type: 'Central' } } : {}),
              },
            }
          : {}),
      })),
    }),

  // 2.x numbers connectors per EVSE (one each here): the EVSE id picks the charger's connector.
  connectorOf: (p) => p.evseId ?? p.connectorId,

  configurationCommand: (c, version) => {
    if (c.key !== undefined || c.component === undefined || c.variable === undefined)
      return {
        problem: `an OCPP ${version.slice(4)} charger takes {component, variable, value, instance?, evse_id?}`,
      };
    return {
      type: 'SET_VARIABLE',
      component: c.component,
      variable: c.variable,
      value: c.value,
      ...(c.instance !== undefined ? { instance: c.instance } : {}),
      ...(c.evseId !== undefined ? { evseId: c.evseId } : {}),
    };
  },

  // Every status the API takes exists in 2.x.
  localListProblem: () => undefined,

  evseOf: (connectorId) => connectorId,
  transactionIdOf: (_ctx, c) => c.tx?.id,
  profilePurposes: PURPOSE_2,
  settingName: (key) => `${SETTINGS[key].component}.${SETTINGS[key].variable}`,

  // Reservations: H04 ReservationStatusUpdate.
  reservationUpdate: (reservationId, status) =>
    call('ReservationStatusUpdate', { reservationId, reservationUpdateStatus: status }),
  authorizeGroup: (p) => p?.idTokenInfo?.groupIdToken?.idToken,
  chargingLimitSet: (p, gridCritical) =>
    call('NotifyChargingLimit', {
      chargingLimit: {
        chargingLimitSource: p.source ?? 'CSO',
        ...(gridCritical !== undefined ? { isGridCritical: gridCritical } : {}),
      },
      ...(p.connectorId > 0 ? { evseId: p.connectorId } : {}),
      chargingSchedule: [
        {
          id: Math.abs(p.id),
          chargingRateUnit: p.unit,
          startSchedule: iso(p.startAt),
          chargingSchedulePeriod: p.periods.map((x) => ({ startPeriod: x.startPeriod, limit: x.limit })),
        },
      ],
    }),
  chargingLimitCleared: (connectorId, source) =>
    call('ClearedChargingLimit', {
      chargingLimitSource: source,
      ...(connectorId > 0 ? { evseId: connectorId } : {}),
    }),
  monitorEvents: notifyEvent2,
};
