// The simulated inverter's response to the DER controls it holds (OCPP 2.1 block R; the controls
// themselves are blocks/der.ts's): what they do to the power core/power.ts computes. Three
// responses are modelled, each simplified to a limit on the connector's power:
// - LimitMaxDischarge: discharge at most pctMaxDischargePower % of the charger's rating;
// - FreqDroop (under-frequency side): below `underFreq` the charging power falls linearly, by the
//   whole rating over `underDroop` % of the nominal frequency (a 5 % droop: 0 W at 2.5 Hz under
//   50 Hz); over-frequency asks a load for more power, which the EV's own limit already caps;
// - HF/LF/HV/LV MustTrip: while a grid event of that kind is in force (the `grid-event` command)
//   and such a control is held, the charger stops both ways (0 W). The trip curve's points (how
//   long the charger may ride through) are kept, not timed: it trips at once.
// Each type's control in force is the one of the lowest `priority` value (0 highest) among those
// whose time window holds now, the CSMS's own before defaults; the others are superseded.

/** A DER control as the CSMS set it (SetDERControl). */
export interface DerControl {
  id: string;
  /** DERControlEnumType. */
  type: string;
  isDefault: boolean;
  priority: number;
  /** The control's own settings as sent (the field of SetDERControl its type names). */
  value: Record<string, unknown>;
  /** When the control starts (ms: its startTime, else when it was set) and its duration (s), if any. */
  startAt?: number;
  durationS?: number;
}

/** A grid event in force (GridEventFaultEnumType), injected through the API. */
export type GridFault = string;

declare module './context.ts' {
  interface ChargerContext {
    /** R: the DER controls held, in the order they were set. */
    derControls?: DerControl[];
    /** R: the grid event in force (the `grid-event` command), if any. */
    gridFault?: GridFault;
  }
}

/** The must-trip control that answers each kind of grid event; the others: power monitoring. */
export const TRIP_OF_FAULT: Readonly<Record<string, string>> = {
  OverFrequency: 'HFMustTrip',
  UnderFrequency: 'LFMustTrip',
  OverVoltage: 'HVMustTrip',
  UnderVoltage: 'LVMustTrip',
};

export const tripOf = (fault: GridFault): string => TRIP_OF_FAULT[fault] ?? 'PowerMonitoringMustTrip';

/** Whether a control's time window holds `now`. */
export function inEffect(d: DerControl, now: number): boolean {
  if (d.startAt !== undefined && now < d.startAt) return false;
  if (d.durationS !== undefined && now >= (d.startAt ?? 0) + d.durationS * 1000) return false;
  return true;
}

/** The control of a type in force now: the CSMS's own before defaults, then the lowest priority value. */
export function controlInForce(
  controls: DerControl[] | undefined,
  type: string,
  now: number,
): DerControl | undefined {
  let best: DerControl | undefined;
  for (const d of controls ?? []) {
    if (d.type !== type || !inEffect(d, now)) continue;
    if (
      !best ||
      (best.isDefault && !d.isDefault) ||
      (best.isDefault === d.isDefault && d.priority < best.priority)
    )
      best = d;
  }
  return best;
}

interface GridState {
  derControls?: DerControl[];
  gridFault?: GridFault;
}

/** Whether a must-trip control held for the grid event in force stops the charger now. */
export function tripped(ctx: GridState, now: number): boolean {
  return (
    ctx.gridFault !== undefined && controlInForce(ctx.derControls, tripOf(ctx.gridFault), now) !== undefined
  );
}

/** LimitMaxDischarge: the most the charger discharges (W); Infinity without one. */
export function derDischargeCapW(ctx: GridState, ratedW: number, now: number): number {
  if (!ctx.derControls?.length) return Infinity;
  if (tripped(ctx, now)) return 0;
  const pct = controlInForce(ctx.derControls, 'LimitMaxDischarge', now)?.value.pctMaxDischargePower;
  return typeof pct === 'number' ? (Math.max(0, pct) / 100) * ratedW : Infinity;
}

/** FreqDroop under-frequency and must-trip: the most the charger draws (W); Infinity without them. */
export function derChargeLimitW(
  ctx: GridState,
  ratedW: number,
  hz: number,
  nominalHz: number,
  now: number,
): number {
  if (!ctx.derControls?.length) return Infinity;
  if (tripped(ctx, now)) return 0;
  const droop = controlInForce(ctx.derControls, 'FreqDroop', now)?.value as
    { underFreq: number; underDroop: number } | undefined;
  if (!droop || hz >= droop.underFreq || droop.underDroop <= 0) return Infinity;
  const fall = (droop.underFreq - hz) / ((nominalHz * droop.underDroop) / 100);
  return Math.max(0, ratedW * (1 - fall));
}
