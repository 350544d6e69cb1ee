// Monitoring (OCPP 2.0.1 block N): monitors the central system sets on values the charger measures,
// and the events they raise. N04 SetVariableMonitoring (upper/lower threshold, delta, periodic,
// periodic clock-aligned; severity 0-9), N03 SetMonitoringBase, N05 SetMonitoringLevel, N02
// GetMonitoringReport (the version writes the report), N06 ClearVariableMonitoring, N07 NotifyEvent
// when a monitored value crosses a threshold, moves by the delta, or is due periodically.
// The values monitored are live ones (what the adapter names them is its own): the power an EVSE
// draws (W) and its availability state. Every event of the charger is checked against the monitors
// (checkMonitors, from the commit of each Step: nothing to do when no monitor is set).
import type { ConnectorStatus } from '../core/context.ts';
import type { Monitor, MonitorEvent, MonitorTarget, MonitorType } from '../core/monitors.ts';
export type { Monitor, MonitorEvent, MonitorTarget, MonitorType } from '../core/monitors.ts';
import type { Step } from '../core/step.ts';

/** An EVSE's availability as monitors (and 2.x's AvailabilityState) see it: Occupied for any session state. */
export function availabilityOf(s: ConnectorStatus): string {
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

declare module '../core/context.ts' {
  interface ChargerContext {
    /** Custom monitors (N04), by id; absent when none. */
    monitors?: Monitor[];
    /** N05: monitors of a severity above this raise no event (9, the default, lets all through). */
    monitoringLevel?: number;
    nextMonitorId?: number;
    nextEventId?: number;
  }
  interface ChargerTimers {
    /** The next periodic monitor due. */
    monitoring?: number;
  }
}

/** How many custom monitors the charger keeps (MonitoringCtrlr.ItemsPerSetVariableMonitoring aside). */
export const MONITORS_MAX = 20;
const THRESHOLDS: readonly MonitorType[] = ['UpperThreshold', 'LowerThreshold'];

export type SetMonitorStatus = 'Accepted' | 'UnsupportedMonitorType' | 'Rejected' | 'Duplicate';

/** The live value a target has now (W as a number; a state as its name). */
export function valueOf(s: Step, t: MonitorTarget): number | string | undefined {
  const c = s.connector(t.connectorId);
  if (!c) return undefined;
  return t.what === 'power' ? Math.round(c.powerW) : availabilityOf(c.status);
}

/** N04: a new monitor (no id) or a change of one (its id). */
export function setMonitor(
  s: Step,
  m: {
    id?: number;
    target: MonitorTarget;
    type: MonitorType;
    value: number;
    severity: number;
    transaction: boolean;
  },
): { status: SetMonitorStatus; id?: number } {
  if (!s.connector(m.target.connectorId)) return { status: 'Rejected' };
  if (m.target.what === 'state' && THRESHOLDS.includes(m.type)) return { status: 'UnsupportedMonitorType' };
  if ((m.type === 'Periodic' || m.type === 'PeriodicClockAligned') && !(m.value > 0))
    return { status: 'Rejected' };
  const all = s.ctx.monitors ?? [];
  if (m.id !== undefined && !all.some((x) => x.id === m.id)) return { status: 'Rejected' };
  const same = (x: Monitor) =>
    x.id !== m.id &&
    x.type === m.type &&
    x.severity === m.severity &&
    x.target.what === m.target.what &&
    x.target.connectorId === m.target.connectorId;
  if (all.some(same)) return { status: 'Duplicate' };
  const others = all.filter((x) => x.id !== m.id);
  if (others.length >= MONITORS_MAX) return { status: 'Rejected' };
  const id = m.id ?? s.ctx.nextMonitorId ?? 1;
  const monitor: Monitor = {
    id,
    target: m.target,
    type: m.type,
    value: m.value,
    severity: m.severity,
    transaction: m.transaction,
    ...(m.type === 'Delta' ? { reference: valueOf(s, m.target) } : {}),
    ...(m.type === 'Periodic' ? { dueAt: s.now + m.value * 1000 } : {}),
    ...(m.type === 'PeriodicClockAligned' ? { dueAt: aligned(s.now, m.value) } : {}),
  };
  s.patch({
    monitors: [...others, monitor].sort((a, b) => a.id - b.id),
    ...(m.id === undefined ? { nextMonitorId: id + 1 } : {}),
  });
  scheduleMonitoring(s);
  return { status: 'Accepted', id };
}

/** N06: removes the monitors of these ids, each Accepted or NotFound. */
export function clearMonitors(s: Step, ids: number[]): { id: number; status: 'Accepted' | 'NotFound' }[] {
  const all = s.ctx.monitors ?? [];
  const results = ids.map((id) => ({
    id,
    status: all.some((m) => m.id === id) ? ('Accepted' as const) : ('NotFound' as const),
  }));
  const rest = all.filter((m) => !ids.includes(m.id));
  if (rest.length !== all.length) {
    s.patch({ monitors: rest.length ? rest : undefined });
    scheduleMonitoring(s);
  }
  return results;
}

/**
 * N03: `All` keeps the custom monitors (the charger has no preconfigured ones to activate);
 * `FactoryDefault` and `HardWiredOnly` clear them.
 */
export function setMonitoringBase(s: Step, base: 'All' | 'FactoryDefault' | 'HardWiredOnly'): 'Accepted' {
  if (base !== 'All' && s.ctx.monitors) {
    s.patch({ monitors: undefined });
    scheduleMonitoring(s);
  }
  return 'Accepted';
}

/** N05: monitors of a severity above `severity` raise no event. */
export function setMonitoringLevel(s: Step, severity: number): 'Accepted' | 'Rejected' {
  if (!Number.isInteger(severity) || severity < 0 || severity > 9) return 'Rejected';
  s.patch({ monitoringLevel: severity === 9 ? undefined : severity });
  return 'Accepted';
}

/** N02: the monitors matching the criteria (types), in id order. */
export function monitorsMatching(
  s: Step,
  types: readonly MonitorType[] | undefined,
  target?: (m: Monitor) => boolean,
): Monitor[] {
  return (s.ctx.monitors ?? []).filter(
    (m) => (!types?.length || types.includes(m.type)) && (!target || target(m)),
  );
}

/** After every event: thresholds crossed and deltas moved raise events (sent as one NotifyEvent). */
export function checkMonitors(s: Step): void {
  const monitors = s.ctx.monitors;
  if (!monitors || !s.online) return;
  const events: MonitorEvent[] = [];
  let changed = false;
  // A monitor held back (by the level, or waiting for a transaction) follows the value silently,
  // so that it raises nothing stale once it counts again.
  const next = monitors.map((m) => {
    if (m.type === 'Periodic' || m.type === 'PeriodicClockAligned') return m;
    const v = valueOf(s, m.target);
    if (v === undefined) return m;
    const reports = active(s, m);
    if (m.type === 'Delta') {
      const moved =
        typeof v === 'number' && typeof m.reference === 'number'
          ? Math.abs(v - m.reference) >= m.value
          : v !== m.reference;
      if (!moved) return m;
      changed = true;
      if (reports) events.push(event(s, m, 'Delta', v));
      return { ...m, reference: v };
    }
    const past = typeof v === 'number' && (m.type === 'UpperThreshold' ? v > m.value : v < m.value);
    if (past === Boolean(m.tripped)) return m;
    changed = true;
    if (reports) events.push(event(s, m, 'Alerting', v, !past));
    return { ...m, tripped: past || undefined };
  });
  if (changed) s.patch({ monitors: next });
  send(s, events);
}

/** Timer `monitoring`: the periodic monitors due report their value and are due again. */
export function monitoringDue(s: Step): void {
  const events: MonitorEvent[] = [];
  const next = (s.ctx.monitors ?? []).map((m) => {
    if (m.dueAt === undefined || m.dueAt > s.now) return m;
    const v = valueOf(s, m.target);
    if (v !== undefined && active(s, m)) events.push(event(s, m, 'Periodic', v));
    return { ...m, dueAt: m.type === 'Periodic' ? s.now + m.value * 1000 : aligned(s.now, m.value) };
  });
  if (s.ctx.monitors) s.patch({ monitors: next });
  send(s, events);
  scheduleMonitoring(s);
}

function scheduleMonitoring(s: Step): void {
  let due: number | undefined;
  for (const m of s.ctx.monitors ?? [])
    if (m.dueAt !== undefined && (due === undefined || m.dueAt < due)) due = m.dueAt;
  if (due === undefined) s.clearTimer('monitoring');
  else s.setTimer('monitoring', due);
}

/** The next multiple of `seconds` since midnight UTC after `now`. */
const aligned = (now: number, seconds: number) => {
  const day = now - (now % 86_400_000);
  const step = seconds * 1000;
  return day + (Math.floor((now - day) / step) + 1) * step;
};

const active = (s: Step, m: Monitor) =>
  m.severity <= (s.ctx.monitoringLevel ?? 9) &&
  (!m.transaction || Boolean(s.connector(m.target.connectorId)?.tx));

function event(
  s: Step,
  monitor: Monitor,
  trigger: MonitorEvent['trigger'],
  v: number | string,
  cleared?: boolean,
): MonitorEvent {
  const eventId = s.ctx.nextEventId ?? 1;
  s.patch({ nextEventId: eventId + 1 });
  return { eventId, monitor, trigger, actualValue: String(v), ...(cleared ? { cleared: true } : {}) };
}

function send(s: Step, events: MonitorEvent[]): void {
  if (!events.length || !s.online) return;
  const call = s.wire.monitorEvents(s.ctx, events, s.now);
  if (call) s.send(call);
}
