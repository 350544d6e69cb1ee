// OCPP 2.1 block R, DER control, as a part of the 2.1 call table and wire: R01 SetDERControl
// (NotifyDERStartStop when the CSMS's own control comes into force), R02 GetDERControl (the
// controls follow in ReportDERControl), R03 ClearDERControl (NotifyDERStartStop started false for
// a control in force), R04 NotifyDERAlarm when a grid event is injected. The controls are
// blocks/der.ts's; what they do to the power core/der-limits.ts's.
import type { CsmsCalls } from '../core/csms-calls.ts';
import type { OcppWire } from '../core/wire.ts';
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';
import { tripOf, type DerControl } from '../core/der-limits.ts';
import type { Step } from '../core/step.ts';
import { call, iso } from '../wire/basics.ts';
import { clearDerControls, derControlsMatching, isSuperseded, setDerControl } from '../blocks/der.ts';

type SetRequest = OcppRequest<'ocpp2.1', 'SetDERControl'>;
type Report = OcppRequest<'ocpp2.1', 'ReportDERControl'>;

/** The field of SetDERControl (and of ReportDERControl) that carries each control type's settings. */
type Field = keyof Omit<SetRequest, 'isDefault' | 'controlId' | 'controlType' | 'customData'>;
const FIELD: Readonly<Record<string, Field>> = {
  LimitMaxDischarge: 'limitMaxDischarge',
  FreqDroop: 'freqDroop',
  FixedPFAbsorb: 'fixedPFAbsorb',
  FixedPFInject: 'fixedPFInject',
  FixedVar: 'fixedVar',
  Gradients: 'gradient',
  EnterService: 'enterService',
};
/** Every other type is a curve (FreqWatt, VoltVar, the must-trip curves, ...). */
const fieldOf = (type: string): Field => FIELD[type] ?? 'curve';

/** ReportDERControl entries of a type at most (the rest follow, tbc). */
const CONTROLS_PER_REPORT = 20;

/** The control as kept; without a startTime it starts now (its duration counts from now). */
function controlOf(p: SetRequest, now: number): { control: DerControl; hasSettings: boolean } {
  const value = p[fieldOf(p.controlType)] as Record<string, unknown> | undefined;
  const v = value ?? {};
  const parsed = typeof v.startTime === 'string' ? Date.parse(v.startTime) : NaN;
  const start = Number.isFinite(parsed) ? parsed : now;
  return {
    hasSettings: value !== undefined,
    control: {
      id: p.controlId,
      type: p.controlType,
      isDefault: p.isDefault,
      priority: typeof v.priority === 'number' ? v.priority : 0,
      value: v,
      startAt: start,
      ...(typeof v.duration === 'number' ? { durationS: v.duration } : {}),
    },
  };
}

const startStop = (s: Step, controlId: string, started: boolean, supersededIds: string[] = []) =>
  s.call(
    call('NotifyDERStartStop', {
      controlId,
      started,
      timestamp: iso(s.now),
      ...(supersededIds.length ? { supersededIds } : {}),
    }),
  );

/** One ReportDERControl entry: its settings under the type's field, as the 2.1 schema names them. */
function entryOf(s: Step, d: DerControl): [string, Record<string, unknown>] {
  const field = fieldOf(d.type);
  // Gradient and EnterService entries have no isDefault / isSuperseded in the schema.
  if (field === 'gradient' || field === 'enterService') return [field, { id: d.id, [field]: d.value }];
  const entry: Record<string, unknown> = {
    id: d.id,
    isDefault: d.isDefault,
    isSuperseded: isSuperseded(s, d),
    [field === 'fixedPFAbsorb' || field === 'fixedPFInject' ? 'fixedPF' : field]: d.value,
  };
  if (field === 'curve') entry.curveType = d.type;
  return [field, entry];
}

function reports(s: Step, requestId: number, found: DerControl[]): Report[] {
  const out: Report[] = [];
  for (let i = 0; i < found.length; i += CONTROLS_PER_REPORT) {
    const report: Record<string, unknown> = { requestId };
    for (const d of found.slice(i, i + CONTROLS_PER_REPORT)) {
      const [field, entry] = entryOf(s, d);
      ((report[field] ??= []) as unknown[]).push(entry);
    }
    if (i + CONTROLS_PER_REPORT < found.length) report.tbc = true;
    out.push(report as unknown as Report);
  }
  return out;
}

export const DER_CALLS: CsmsCalls<'ocpp2.1'> = {
  // R01
  SetDERControl: (p, s) => {
    const { control, hasSettings } = controlOf(p, s.now);
    const r = setDerControl(s, control, hasSettings);
    if (r.status !== 'Accepted')
      return {
        status: r.status,
        statusInfo: {
          reasonCode: r.status === 'NotSupported' ? 'UnsupportedParam' : 'InvalidValue',
          additionalInfo:
            r.status === 'NotSupported'
              ? `the simulated inverter has no ${p.controlType}`
              : `no ${fieldOf(p.controlType)} for ${p.controlType}, or too many controls held`,
        },
      };
    if (r.started) startStop(s, control.id, true, r.supersededIds);
    return { status: 'Accepted', ...(r.supersededIds.length ? { supersededIds: r.supersededIds } : {}) };
  },
  // R02: the controls follow the answer.
  GetDERControl: (p, s) => {
    const found = derControlsMatching(s, { isDefault: p.isDefault, type: p.controlType, id: p.controlId });
    if (!found.length) return { status: 'NotFound' };
    for (const report of reports(s, p.requestId, found))
      s.call(call('ReportDERControl', report as unknown as Record<string, unknown>));
    return { status: 'Accepted' };
  },
  // R03
  ClearDERControl: (p, s) => {
    const { cleared, stopped } = clearDerControls(s, {
      isDefault: p.isDefault,
      type: p.controlType,
      id: p.controlId,
    });
    for (const d of stopped) startStop(s, d.id, false);
    return { status: cleared.length ? 'Accepted' : 'NotFound' };
  },
};

/** The 2.1 wire's DER message of a grid event (R04), laid over the 2.x adapter. */
export const DER_WIRE: Pick<OcppWire, 'derAlarm'> = {
  derAlarm: (fault, ended, at, extraInfo) =>
    call('NotifyDERAlarm', {
      controlType: tripOf(fault),
      gridEventFault: fault,
      ...(ended ? { alarmEnded: true } : {}),
      timestamp: iso(at),
      ...(extraInfo ? { extraInfo } : {}),
    }),
};
