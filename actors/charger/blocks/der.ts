// DER control (OCPP 2.1 block R): the controls the CSMS sets on the charger's simulated inverter,
// kept by type and id (a default and the CSMS's own of each type, each with its priority), and the
// grid events injected through the API (`grid-event`). What the controls do to the power is
// core/der-limits.ts's; the 2.1 messages are ocpp21/der-control.ts's.
import type { CommandOf } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import { controlInForce, tripped, type DerControl } from '../core/der-limits.ts';
import { refreshAllCharging } from './transactions.ts';

/** The control types the simulated inverter has (core/der-limits.ts); the others are NotSupported. */
export const DER_SUPPORTED: ReadonlySet<string> = new Set([
  'LimitMaxDischarge',
  'FreqDroop',
  'HFMustTrip',
  'LFMustTrip',
  'HVMustTrip',
  'LVMustTrip',
]);

/** How many DER controls the charger keeps. */
export const DER_CONTROLS_MAX = 24;

export interface DerFilter {
  isDefault?: boolean;
  type?: string;
  id?: string;
}

const matches = (d: DerControl, f: DerFilter) =>
  (f.isDefault === undefined || d.isDefault === f.isDefault) &&
  (f.type === undefined || d.type === f.type) &&
  (f.id === undefined || d.id === f.id);

/** Whether a control is superseded now: another of its type is in force. */
export const isSuperseded = (s: Step, d: DerControl): boolean =>
  controlInForce(s.ctx.derControls, d.type, s.now) !== d;

/** The ids of the controls in force now (one per type). */
function inForce(controls: DerControl[], now: number): Set<string> {
  const out = new Set<string>();
  for (const type of new Set(controls.map((d) => d.type))) {
    const d = controlInForce(controls, type, now);
    if (d) out.add(d.id);
  }
  return out;
}

export type SetDerStatus = 'Accepted' | 'Rejected' | 'NotSupported';

export interface SetDerOutcome {
  status: SetDerStatus;
  /** Controls in force before that this one superseded. */
  supersededIds: string[];
  /** Whether this control (the CSMS's own, not a default) came into force now. */
  started: boolean;
}

/**
 * R01: keeps a control (the same id replaced). NotSupported for a type the inverter has not,
 * Rejected when the control lacks its settings (`hasSettings` false) or the charger holds too many.
 */
export function setDerControl(s: Step, d: DerControl, hasSettings: boolean): SetDerOutcome {
  const none = { supersededIds: [], started: false };
  if (!DER_SUPPORTED.has(d.type)) return { status: 'NotSupported', ...none };
  const held = (s.ctx.derControls ?? []).filter((x) => x.id !== d.id);
  if (!hasSettings || held.length >= DER_CONTROLS_MAX) return { status: 'Rejected', ...none };
  const before = inForce(held, s.now);
  const controls = [...held, d];
  const after = inForce(controls, s.now);
  s.patch({ derControls: controls });
  refreshAllCharging(s);
  return {
    status: 'Accepted',
    supersededIds: [...before].filter((id) => !after.has(id)),
    started: !d.isDefault && after.has(d.id),
  };
}

/** R02: the controls a GetDERControl asks for, in the order they were set. */
export function derControlsMatching(s: Step, f: DerFilter): DerControl[] {
  return (s.ctx.derControls ?? []).filter((d) => matches(d, f));
}

/**
 * R03: clears the controls matching; returns those cleared and, of the CSMS's own, those that
 * were in force (they stop now).
 */
export function clearDerControls(s: Step, f: DerFilter): { cleared: DerControl[]; stopped: DerControl[] } {
  const held = s.ctx.derControls ?? [];
  const cleared = held.filter((d) => matches(d, f));
  if (!cleared.length) return { cleared, stopped: [] };
  const before = inForce(held, s.now);
  s.patch({ derControls: held.filter((d) => !matches(d, f)) });
  refreshAllCharging(s);
  return { cleared, stopped: cleared.filter((d) => !d.isDefault && before.has(d.id)) };
}

/**
 * R04: a grid event begins or ends (the `grid-event` command): the inverter trips if it holds the
 * must-trip control for it (core/der-limits.ts) and, on 2.1, tells the CSMS (NotifyDERAlarm).
 */
export function gridEvent(s: Step, e: CommandOf<'GRID_EVENT'>): void {
  const alarm = s.wire.derAlarm;
  if (!alarm)
    return s.fail(
      e.commandId,
      e.type,
      'NotSupported',
      `DER control is OCPP 2.1's; this charger speaks ${s.ctx.version}`,
    );
  if (e.ended && s.ctx.gridFault !== e.fault)
    return s.fail(e.commandId, e.type, 'NOT_FOUND', `no ${e.fault} grid event in force`);
  s.patch({ gridFault: e.ended ? undefined : e.fault });
  refreshAllCharging(s);
  const sent = s.call(alarm(e.fault, e.ended, s.now, e.extraInfo));
  s.result(e.commandId, e.type, {
    ok: true,
    payload: { fault: e.fault, ended: e.ended, tripped: tripped(s.ctx, s.now), alarm_sent: sent },
  });
}
