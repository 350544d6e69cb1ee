// Monitoring (2.0.1 block N) as 2.x writes it: the device model's names of what the charger
// monitors (EVSE n: Power, AvailabilityState), the CSMS's monitoring calls, NotifyMonitoringReport
// and NotifyEvent. The behaviour is blocks/monitoring.ts's.
import type { ChargerContext } from '../core/context.ts';
import type { CsmsCalls } from '../core/csms-calls.ts';
import type { OutboundCall } from '../core/wire.ts';
import type { OcppRequest, OcppResponse } from '../../../protocols/ocpp/ocpp-types.ts';
import { call, iso } from '../wire/basics.ts';
import { isKnownComponent, keyForVariable } from '../core/settings.ts';
import {
  clearMonitors,
  monitorsMatching,
  setMonitor,
  setMonitoringBase,
  setMonitoringLevel,
  type Monitor,
  type MonitorEvent,
  type MonitorTarget,
  type MonitorType,
} from '../blocks/monitoring.ts';

type ComponentVariable = {
  component: { name: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string };
};

/** The variables monitors watch, by their 2.x names. */
const MONITORED: Record<string, MonitorTarget['what']> = { Power: 'power', AvailabilityState: 'state' };

/** What a component/variable names, or why it names nothing the charger monitors. */
function targetOf(
  ctx: ChargerContext,
  cv: ComponentVariable,
): MonitorTarget | 'UnknownComponent' | 'UnknownVariable' | 'UnsupportedMonitorType' {
  if (cv.component.name === 'EVSE') {
    const id = cv.component.evse?.id;
    if (!id || !ctx.connectors[id - 1]) return 'UnknownComponent';
    const what = MONITORED[cv.variable.name];
    return what ? { what, connectorId: id } : 'UnknownVariable';
  }
  if (!isKnownComponent(cv.component.name)) return 'UnknownComponent';
  // A setting is configuration, not a measured value: the charger does not monitor it.
  return keyForVariable(cv.component.name, cv.variable.name) ? 'UnsupportedMonitorType' : 'UnknownVariable';
}

const nameOf = (t: MonitorTarget): ComponentVariable => ({
  component: { name: 'EVSE', evse: { id: t.connectorId } },
  variable: { name: t.what === 'power' ? 'Power' : 'AvailabilityState' },
});

const CRITERIA: Record<string, readonly MonitorType[]> = {
  ThresholdMonitoring: ['UpperThreshold', 'LowerThreshold'],
  DeltaMonitoring: ['Delta'],
  PeriodicMonitoring: ['Periodic', 'PeriodicClockAligned'],
};

/** Monitors a NotifyMonitoringReport carries at most (the rest follow, tbc). */
const MONITORS_PER_REPORT = 10;

type SetMonitoringStatus = OcppResponse<
  'ocpp2.0.1',
  'SetVariableMonitoring'
>['setMonitoringResult'][number]['status'];

type MonitorReport = NonNullable<OcppRequest<'ocpp2.0.1', 'NotifyMonitoringReport'>['monitor']>[number];

function reportOf(monitors: Monitor[], kind?: 'CustomMonitor'): MonitorReport[] {
  const out: MonitorReport[] = [];
  for (const m of monitors) {
    const name = nameOf(m.target);
    const entry = {
      id: m.id,
      transaction: m.transaction,
      value: m.value,
      type: m.type,
      severity: m.severity,
      ...(kind ? { eventNotificationType: kind } : {}),
    };
    const same = out.find(
      (r) => r.component.evse?.id === name.component.evse?.id && r.variable.name === name.variable.name,
    );
    if (same) same.variableMonitoring.push(entry);
    else out.push({ ...name, variableMonitoring: [entry] });
  }
  return out;
}

/**
 * N02: the report follows the answer. 2.1 names each monitor's kind (eventNotificationType, which
 * 2.0.1's schema does not have): every monitor here is one the CSMS set, a CustomMonitor.
 */
export function monitoringReport(
  kind?: 'CustomMonitor',
): NonNullable<CsmsCalls<'ocpp2.0.1'>['GetMonitoringReport']> {
  return (p, s) => {
    const types = p.monitoringCriteria?.flatMap((c) => CRITERIA[c] ?? []);
    const asked = p.componentVariable ?? [];
    const found = monitorsMatching(s, types, (m) => {
      if (!asked.length) return true;
      const name = nameOf(m.target);
      return asked.some(
        (a) =>
          a.component.name === name.component.name &&
          (a.component.evse?.id === undefined || a.component.evse.id === name.component.evse?.id) &&
          (!a.variable?.name || a.variable.name === name.variable.name),
      );
    });
    if (!found.length) return { status: 'EmptyResultSet' };
    for (let i = 0, seqNo = 0; i < found.length; i += MONITORS_PER_REPORT, seqNo++)
      s.call(
        call('NotifyMonitoringReport', {
          requestId: p.requestId,
          seqNo,
          generatedAt: iso(s.now),
          monitor: reportOf(found.slice(i, i + MONITORS_PER_REPORT), kind),
          ...(i + MONITORS_PER_REPORT < found.length ? { tbc: true } : {}),
        }),
      );
    return { status: 'Accepted' };
  };
}

export const MONITORING_2_CALLS: CsmsCalls<'ocpp2.0.1'> = {
  // N04
  SetVariableMonitoring: (p, s) => ({
    setMonitoringResult: p.setMonitoringData.map((d) => {
      const target = targetOf(s.ctx, d);
      const r: { status: SetMonitoringStatus; id?: number } =
        typeof target === 'string'
          ? { status: target }
          : setMonitor(s, {
              ...(d.id !== undefined ? { id: d.id } : {}),
              target,
              type: d.type,
              value: d.value,
              severity: d.severity,
              transaction: d.transaction ?? false,
            });
      return {
        ...(r.id !== undefined ? { id: r.id } : {}),
        status: r.status,
        type: d.type,
        severity: d.severity,
        component: d.component,
        variable: d.variable,
      };
    }),
  }),
  // N03, N05
  SetMonitoringBase: (p, s) => ({ status: setMonitoringBase(s, p.monitoringBase) }),
  SetMonitoringLevel: (p, s) => ({ status: setMonitoringLevel(s, p.severity) }),
  // N02: the report follows the answer
  GetMonitoringReport: monitoringReport(),
  // N06
  ClearVariableMonitoring: (p, s) => ({ clearMonitoringResult: clearMonitors(s, p.id) }),
};

/** N07: the events of custom monitors in one NotifyEvent. */
export function notifyEvent2(ctx: ChargerContext, events: MonitorEvent[], at: number): OutboundCall {
  return call('NotifyEvent', {
    generatedAt: iso(at),
    seqNo: 0,
    eventData: events.map((e) => {
      const c = ctx.connectors[e.monitor.target.connectorId - 1];
      return {
        eventId: e.eventId,
        timestamp: iso(at),
        trigger: e.trigger,
        actualValue: e.actualValue,
        ...(e.cleared ? { cleared: true } : {}),
        ...(c?.tx?.id ? { transactionId: c.tx.id } : {}),
        variableMonitoringId: e.monitor.id,
        eventNotificationType: 'CustomMonitor',
        ...nameOf(e.monitor.target),
      };
    }),
  });
}
