// OCPP 2.0.1: payloads as the official 2.0.1 JSON schemas write them, and the CSMS's calls as
/* eslint-disable @typescript-eslint/no-explicit-any -- CSMS payloads reach the handlers validated against the official schemas */
// handlers. Each connector is an EVSE with one connector (evse.id = connector id, connectorId 1).
import type {
  AuthStatus,
  ChargerContext,
  ChargingProfile,
  Connector,
  ConnectorStatus,
} from './charger-context.ts';
import type { ChangeCause, CsmsHandler, OcppAdapter, OutboundCall, StopCause } from './ocpp-adapter.ts';
import { SETTINGS, SETTING_KEYS, getSetting, isKnownComponent, keyForVariable } from './charger-settings.ts';
import { purposeFrom } from './ocpp-adapter.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const call = (action: string, payload: Record<string, unknown>): OutboundCall => ({ action, payload });

/** 2.0.1 connector statuses are coarser than 1.6's. */
function connectorStatus(s: ConnectorStatus): string {
  switch (s) {
    case 'Available':
    case 'Reserved':
    case 'Unavailable':
    case 'Faulted':
      return s;
    default:
      return 'Occupied';
  }
}

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

const CHANGE_TRIGGER: Record<ChangeCause, string> = {
  charging: 'ChargingStateChanged',
  suspended_ev: 'ChargingStateChanged',
  suspended_evse: 'ChargingStateChanged',
  meter: 'MeterValuePeriodic',
  trigger: 'Trigger',
};

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
      value: Math.floor(c.meterWh),
      context,
      measurand: 'Energy.Active.Import.Register',
      unitOfMeasure: { unit: 'Wh' },
    });
  if (wanted.has('Power.Active.Import'))
    out.push({
      value: Math.round(c.powerW),
      context,
      measurand: 'Power.Active.Import',
      unitOfMeasure: { unit: 'W' },
    });
  if (wanted.has('SoC') && c.soc !== undefined)
    out.push({
      value: Math.floor(c.soc),
      context,
      measurand: 'SoC',
      location: 'EV',
      unitOfMeasure: { unit: 'Percent' },
    });
  if (out.length === 0)
    out.push({
      value: Math.floor(c.meterWh),
      context,
      measurand: 'Energy.Active.Import.Register',
      unitOfMeasure: { unit: 'Wh' },
    });
  return out;
}

function meterValue(ctx: ChargerContext, c: Connector, at: number, context: string, measurands?: string) {
  return [{ timestamp: iso(at), sampledValue: sampledValues(ctx, c, context, measurands) }];
}

function authStatus(x: unknown): AuthStatus {
  return x === 'Accepted' || x === 'Blocked' || x === 'Expired' || x === 'ConcurrentTx' ? x : 'Invalid';
}

function idToken(c: Connector) {
  return { idToken: c.tx!.idTag.slice(0, 36), type: c.tx!.idType ?? 'ISO14443' };
}

function transactionEvent(
  ctx: ChargerContext,
  c: Connector,
  eventType: 'Started' | 'Updated' | 'Ended',
  triggerReason: string,
  at: number,
  extra: { stoppedReason?: string; context: string; withToken?: boolean; measurands?: string },
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
    ...(extra.withToken ? { idToken: idToken(c) } : {}),
    evse: { id: c.id, connectorId: 1 },
    meterValue: meterValue(ctx, c, at, extra.context, extra.measurands),
  });
}

const PURPOSE: Record<string, ChargingProfile['purpose']> = {
  ChargingStationMaxProfile: 'Max',
  ChargingStationExternalConstraints: 'Max',
  TxDefaultProfile: 'TxDefault',
  TxProfile: 'Tx',
};
const PURPOSE_201: Record<ChargingProfile['purpose'], string> = {
  Max: 'ChargingStationMaxProfile',
  TxDefault: 'TxDefaultProfile',
  Tx: 'TxProfile',
};

function toProfile(evseId: number, p: any, now: number): ChargingProfile {
  const sched = p.chargingSchedule[0];
  return {
    id: p.id,
    connectorId: evseId,
    stackLevel: p.stackLevel,
    purpose: PURPOSE[p.chargingProfilePurpose] ?? 'Tx',
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

const DATA_TYPE = { int: 'integer', bool: 'boolean', string: 'string', csl: 'MemberList' } as const;

/** The device model as NotifyReport reportData: the settings, plus each EVSE's availability. */
function reportData(ctx: ChargerContext, onlyWritable: boolean) {
  const data: Record<string, unknown>[] = [];
  for (const key of SETTING_KEYS) {
    const d = SETTINGS[key];
    if (onlyWritable && d.readonly) continue;
    data.push({
      component: { name: d.component },
      variable: { name: d.variable },
      variableAttribute: [
        {
          type: 'Actual',
          value: getSetting(ctx, key)!.slice(0, 2500),
          mutability: d.readonly ? 'ReadOnly' : 'ReadWrite',
        },
      ],
      variableCharacteristics: { dataType: DATA_TYPE[d.kind], supportsMonitoring: false },
    });
  }
  if (!onlyWritable)
    for (const c of ctx.connectors)
      data.push({
        component: { name: 'EVSE', evse: { id: c.id } },
        variable: { name: 'AvailabilityState' },
        variableAttribute: [{ type: 'Actual', value: connectorStatus(c.status), mutability: 'ReadOnly' }],
        variableCharacteristics: { dataType: 'OptionList', supportsMonitoring: false },
      });
  return data;
}

const REPORT_CHUNK = 20;

function notifyReports(requestId: number, data: Record<string, unknown>[], now: number): OutboundCall[] {
  const out: OutboundCall[] = [];
  for (let i = 0, seqNo = 0; i < data.length; i += REPORT_CHUNK, seqNo++) {
    const last = i + REPORT_CHUNK >= data.length;
    out.push(
      call('NotifyReport', {
        requestId,
        generatedAt: iso(now),
        seqNo,
        tbc: !last,
        reportData: data.slice(i, i + REPORT_CHUNK),
      }),
    );
  }
  return out;
}

function variableOf(p: any): { key?: string; evseValue?: string; status: string } {
  const component = p.component?.name;
  const variable = p.variable?.name;
  if (p.attributeType && p.attributeType !== 'Actual') return { status: 'NotSupportedAttributeType' };
  const key = keyForVariable(component, variable);
  if (key) return { key, status: 'Accepted' };
  if (component === 'EVSE' || isKnownComponent(component)) return { status: 'UnknownVariable' };
  return { status: 'UnknownComponent' };
}

const handlers: Record<string, CsmsHandler> = {
  Reset: (p, ops) => {
    if (p.evseId !== undefined) return { status: 'Rejected' };
    return { status: ops.reset(p.type === 'Immediate' ? 'hard' : 'idle') };
  },

  GetVariables: (p, ops) => ({
    getVariableResult: (p.getVariableData ?? []).map((d: any) => {
      const v = variableOf(d);
      if (d.component?.name === 'EVSE' && d.variable?.name === 'AvailabilityState' && d.component.evse?.id) {
        const c = ops.connector(d.component.evse.id);
        if (c)
          return {
            attributeStatus: 'Accepted',
            attributeType: 'Actual',
            attributeValue: connectorStatus(c.status),
            component: d.component,
            variable: d.variable,
          };
      }
      return {
        attributeStatus: v.status,
        ...(d.attributeType ? { attributeType: d.attributeType } : {}),
        ...(v.key ? { attributeValue: getSetting(ops.ctx, v.key)!.slice(0, 2500) } : {}),
        component: d.component,
        variable: d.variable,
      };
    }),
  }),

  SetVariables: (p, ops) => ({
    setVariableResult: (p.setVariableData ?? []).map((d: any) => {
      const v = variableOf(d);
      const status = v.key
        ? ops.changeSetting(v.key, String(d.attributeValue)) === 'Accepted'
          ? 'Accepted'
          : 'Rejected'
        : v.status;
      return {
        attributeStatus: status,
        ...(d.attributeType ? { attributeType: d.attributeType } : {}),
        component: d.component,
        variable: d.variable,
      };
    }),
  }),

  GetBaseReport: (p, ops) => {
    for (const c of notifyReports(
      p.requestId,
      reportData(ops.ctx, p.reportBase === 'ConfigurationInventory'),
      ops.now,
    ))
      ops.callAfterAnswer(c);
    return { status: 'Accepted' };
  },

  GetReport: (p, ops) => {
    const asked: any[] = p.componentVariable ?? [];
    const data = reportData(ops.ctx, false).filter(
      (d: any) =>
        asked.length === 0 ||
        asked.some(
          (a) =>
            a.component?.name === d.component.name &&
            (!a.variable?.name || a.variable.name === d.variable.name),
        ),
    );
    if (data.length === 0) return { status: 'EmptyResultSet' };
    for (const c of notifyReports(p.requestId, data, ops.now)) ops.callAfterAnswer(c);
    return { status: 'Accepted' };
  },

  RequestStartTransaction: (p, ops) => {
    const profile = p.chargingProfile ? toProfile(p.evseId ?? 0, p.chargingProfile, ops.now) : undefined;
    const r = ops.remoteStart({
      connectorId: p.evseId,
      idTag: p.idToken.idToken,
      idType: p.idToken.type,
      remoteStartId: p.remoteStartId,
      profile,
    });
    const tx = r.connectorId !== undefined ? ops.connector(r.connectorId)?.tx : undefined;
    return { status: r.status, ...(tx?.id ? { transactionId: tx.id } : {}) };
  },

  RequestStopTransaction: (p, ops) => ({
    status: ops.remoteStop(ops.connectorByTx(String(p.transactionId))),
  }),

  ClearCache: (_p, ops) => ({ status: ops.clearCache() }),

  SendLocalList: (p, ops) => {
    const status = ops.updateLocalList({
      version: p.versionNumber,
      full: p.updateType === 'Full',
      entries: (p.localAuthorizationList ?? []).map((e: any) => ({
        idTag: e.idToken.idToken,
        status: e.idTokenInfo ? authStatus(e.idTokenInfo.status) : undefined,
      })),
    });
    return { status: status === 'NotSupported' ? 'Failed' : status };
  },

  GetLocalListVersion: (_p, ops) => ({ versionNumber: ops.ctx.localList.version }),

  TriggerMessage: (p, ops) => {
    const evse = p.evse?.id;
    switch (p.requestedMessage) {
      case 'BootNotification':
      case 'Heartbeat':
      case 'StatusNotification':
      case 'MeterValues':
      case 'TransactionEvent':
        return { status: ops.trigger(p.requestedMessage, evse) };
      case 'FirmwareStatusNotification':
        ops.callAfterAnswer(call('FirmwareStatusNotification', { status: 'Idle' }));
        return { status: 'Accepted' };
      default:
        return { status: 'NotImplemented' };
    }
  },

  ChangeAvailability: (p, ops) => ({
    status: ops.changeAvailability(p.evse?.id ?? 0, p.operationalStatus === 'Operative'),
  }),

  UnlockConnector: (p, ops) => {
    const c = ops.connector(p.evseId);
    if (!c || p.connectorId !== 1) return { status: 'UnknownConnector' };
    if (c.tx) return { status: 'OngoingAuthorizedTransaction' };
    return { status: ops.unlock(p.evseId) };
  },

  SetChargingProfile: (p, ops) => ({
    status: ops.setProfile(toProfile(p.evseId, p.chargingProfile, ops.now)),
  }),

  ClearChargingProfile: (p, ops) => {
    const k = p.chargingProfileCriteria ?? {};
    const cleared = ops.clearProfiles({
      id: p.chargingProfileId,
      connectorId: k.evseId,
      purpose: purposeFrom(PURPOSE_201, k.chargingProfilePurpose),
      stackLevel: k.stackLevel,
    });
    return { status: cleared ? 'Accepted' : 'Unknown' };
  },

  GetCompositeSchedule: (p, ops) => {
    const composite = ops.compositeLimit(p.evseId, p.chargingRateUnit);
    if (!composite) return { status: 'Rejected' };
    const { unit, limit } = composite;
    return {
      status: 'Accepted',
      schedule: {
        evseId: p.evseId,
        duration: p.duration,
        scheduleStart: iso(ops.now),
        chargingRateUnit: unit,
        chargingSchedulePeriod: [{ startPeriod: 0, limit }],
      },
    };
  },

  DataTransfer: (p) => ({ status: 'Accepted', ...(p.data !== undefined ? { data: p.data } : {}) }),
};

export const ocpp201Adapter: OcppAdapter = {
  bootNotification: (ctx) =>
    call('BootNotification', {
      reason: 'PowerUp',
      chargingStation: {
        model: ctx.model.boot_model.slice(0, 20),
        vendorName: ctx.model.boot_vendor.slice(0, 50),
        ...(ctx.serialNumber ? { serialNumber: ctx.serialNumber.slice(0, 25) } : {}),
        ...(ctx.model.firmware_version ? { firmwareVersion: ctx.model.firmware_version.slice(0, 50) } : {}),
      },
    }),

  bootResult: (p) => ({
    status: p?.status === 'Accepted' || p?.status === 'Pending' ? p.status : 'Rejected',
    interval: Number(p?.interval) || 0,
  }),

  heartbeat: () => call('Heartbeat', {}),

  statusNotification: (_ctx, connectorId, status, prev, _errorCode, at) => {
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

  txStarted: (ctx, c, cause, at) =>
    transactionEvent(
      ctx,
      c,
      'Started',
      cause === 'remote' ? 'RemoteStart' : cause === 'plugged' ? 'CablePluggedIn' : 'Authorized',
      at,
      {
        context: 'Transaction.Begin',
        withToken: true,
      },
    ),

  txUpdated: (ctx, c, cause, at) =>
    transactionEvent(ctx, c, 'Updated', CHANGE_TRIGGER[cause], at, {
      context: cause === 'trigger' ? 'Trigger' : 'Sample.Periodic',
    }),

  txEnded: (ctx, c, cause, at) =>
    transactionEvent(ctx, c, 'Ended', STOP[cause].trigger, at, {
      context: 'Transaction.End',
      stoppedReason: STOP[cause].reason,
      withToken: cause === 'local',
      measurands: getSetting(ctx, 'StopTxnSampledData'),
    }),

  txStartResult: (p) => ({ status: p?.idTokenInfo ? authStatus(p.idTokenInfo.status) : undefined }),

  meterValues: (ctx, c, at) =>
    call('MeterValues', { evseId: c.id, meterValue: meterValue(ctx, c, at, 'Trigger') }),

  handlers,
};
