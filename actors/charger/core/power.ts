// Simulated power and energy: the power a connector draws is the least of its share of the
// charger's rating (connectors of one charger share it), the EV's own limit (a DC battery tapers
// with its state of charge, ev-battery.ts) and the active charging profiles; energy integrates it
// over time. Per-phase readings follow from the power: AC 230 V per phase, DC the pack's voltage.
// V2X (2.1 operation modes): a period may ask for a signed setpoint or a power that follows the
// grid frequency; a negative one makes a bidirectional EV discharge: the connector's power is then
// negative, energy goes to the export register and the state of charge falls to the EV's minimum.
// The DER controls the charger holds (2.1 block R) limit both directions (der-limits.ts).
import type { ChargerContext, ChargingProfile, Connector } from './context.ts';
import { DEFAULT_MIN_SOC, msUntilFull, msUntilMinimum, packVoltage, taperFactor } from './ev-battery.ts';
import { derChargeLimitW, derDischargeCapW } from './der-limits.ts';

declare module './context.ts' {
  interface ChargerContext {
    /** The grid's frequency (Hz) the frequency modes follow, set through the API; absent: nominal. */
    gridHz?: number;
  }
}

/** The nominal grid frequency (Hz; Europe). */
export const NOMINAL_HZ = 50;
/** LocalFrequency without a curve: the full rating in (above nominal) or out (below) at this deviation (Hz). */
const DROOP_FULL_HZ = 0.2;

const AC_PHASE_VOLTAGE = 230;
const DC_VOLTAGE = 400;
/** AC chargers up to this rating are single-phase (3.7 / 7.4 kW wallboxes); above, three-phase. */
const SINGLE_PHASE_MAX_KW = 7.4;

/** Phases the charger's connectors have: 0 for DC, 1 or 3 for AC (from the model's rating). */
export function phasesOf(ctx: ChargerContext): 0 | 1 | 3 {
  if (ctx.model.current_type === 'DC') return 0;
  return ctx.model.max_power_kw <= SINGLE_PHASE_MAX_KW ? 1 : 3;
}

/** The voltage (V) on a connector: per phase for AC, the EV's pack for DC. */
export function voltageOf(ctx: ChargerContext, c: Connector): number {
  if (ctx.model.current_type !== 'DC') return AC_PHASE_VOLTAGE;
  return c.soc !== undefined ? packVoltage(c.soc) : DC_VOLTAGE;
}

/** Current (A, per phase for AC) at a power on a connector: P = sum over the phases of V x I. */
export function ampsAt(ctx: ChargerContext, c: Connector, watts: number): number {
  return watts / (voltageOf(ctx, c) * Math.max(1, phasesOf(ctx)));
}

/** A current limit (A) as power (W) for this charger. */
export function ampsToWatts(ctx: ChargerContext, amps: number, phases?: number): number {
  if (ctx.model.current_type === 'DC') return amps * DC_VOLTAGE;
  return amps * AC_PHASE_VOLTAGE * (phases ?? phasesOf(ctx));
}

export function wattsToAmps(ctx: ChargerContext, watts: number): number {
  if (ctx.model.current_type === 'DC') return watts / DC_VOLTAGE;
  return watts / (AC_PHASE_VOLTAGE * phasesOf(ctx));
}

/** The schedule's start of a profile for a connector (absolute, or the transaction's start). */
function startOf(p: ChargingProfile, c: Connector | undefined, now: number): number {
  return p.startAt || c?.tx?.startedAt || now;
}

type Period = ChargingProfile['periods'][number];

/** The period of a profile in force at time now, undefined when the profile does not apply now. */
function periodAt(p: ChargingProfile, c: Connector | undefined, now: number): Period | undefined {
  if (p.validTo && now > p.validTo) return undefined;
  const elapsed = Math.floor((now - startOf(p, c, now)) / 1000);
  if (elapsed < 0 || (p.duration !== undefined && elapsed >= p.duration)) return undefined;
  let period: Period | undefined;
  for (const x of p.periods) if (x.startPeriod <= elapsed) period = x;
  return period;
}

/** A value in a profile's unit as watts (a current at this charger's voltage and the period's phases). */
const inWatts = (ctx: ChargerContext, p: ChargingProfile, period: Period, x: number) =>
  p.unit === 'W' ? x : ampsToWatts(ctx, x, period.numberPhases);

/** The limit (W) a profile sets at time now, undefined when it does not apply now. */
function profileLimitAt(
  ctx: ChargerContext,
  p: ChargingProfile,
  c: Connector | undefined,
  now: number,
): number | undefined {
  const period = periodAt(p, c, now);
  return period ? inWatts(ctx, p, period, period.limit) : undefined;
}

/** Whether a profile applies to a connector (its transaction, its id or the whole charger). */
function appliesTo(p: ChargingProfile, c: Connector | undefined): boolean {
  if (p.purpose === 'Tx' && (!c?.tx || p.txRef !== c.tx.ref)) return false;
  return p.connectorId === 0 || p.connectorId === c?.id;
}

/** The profile of one purpose that wins on the connector now (highest stack level) and its period. */
function winning(
  ctx: ChargerContext,
  c: Connector | undefined,
  purpose: ChargingProfile['purpose'],
  now: number,
): { p: ChargingProfile; period: Period } | undefined {
  let best: { p: ChargingProfile; period: Period } | undefined;
  for (const p of ctx.profiles) {
    if (p.purpose !== purpose || p.source || !appliesTo(p, c)) continue;
    const period = periodAt(p, c, now);
    if (period === undefined) continue;
    if (best === undefined || p.stackLevel > best.p.stackLevel) best = { p, period };
  }
  return best;
}

/** The highest stack level among the profiles of one purpose that apply to the connector wins. */
function limitOfPurpose(
  ctx: ChargerContext,
  c: Connector | undefined,
  purpose: ChargingProfile['purpose'],
  now: number,
): number | undefined {
  const won = winning(ctx, c, purpose, now);
  return won ? inWatts(ctx, won.p, won.period, won.period.limit) : undefined;
}

/** K11: the lowest external limit (EMS, grid operator, ...) on the connector or the charger now. */
function externalLimitW(ctx: ChargerContext, c: Connector | undefined, now: number): number {
  let lowest = Infinity;
  for (const p of ctx.profiles) {
    if (!p.source || !appliesTo(p, c)) continue;
    const limit = profileLimitAt(ctx, p, c, now);
    if (limit !== undefined && limit < lowest) lowest = limit;
  }
  return lowest;
}

/** The smart-charging limit (W) on a connector now; Infinity when no profile applies. */
export function profileLimitW(ctx: ChargerContext, c: Connector | undefined, now: number): number {
  if (ctx.profiles.length === 0) return Infinity;
  const tx = limitOfPurpose(ctx, c, 'Tx', now) ?? limitOfPurpose(ctx, c, 'TxDefault', now) ?? Infinity;
  const max = limitOfPurpose(ctx, c, 'Max', now) ?? Infinity;
  return Math.min(tx, max, externalLimitW(ctx, c, now));
}

export const ratedW = (ctx: ChargerContext): number => ctx.model.max_power_kw * 1000;

/** A frequency-watt curve at `hz`: linear between its points, flat beyond the first and the last. */
function onCurve(curve: { frequency: number; power: number }[], hz: number): number {
  const pts = [...curve].sort((a, b) => a.frequency - b.frequency);
  if (hz <= pts[0].frequency) return pts[0].power;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    if (hz <= b.frequency)
      return b.frequency === a.frequency
        ? b.power
        : a.power + ((b.power - a.power) * (hz - a.frequency)) / (b.frequency - a.frequency);
  }
  return pts[pts.length - 1].power;
}

/**
 * 2.1 operation mode of the Tx (or TxDefault) period in force: the signed power (W) it asks
 * (negative: discharge) and the most it lets the EV discharge (W, >= 0). Undefined for the modes
 * where the limit applies as before: ChargingOnly (or no mode), ExternalLimits, LocalLoadBalancing.
 */
export function v2xTarget(
  ctx: ChargerContext,
  c: Connector | undefined,
  now: number,
): { targetW: number; dischargeCapW: number } | undefined {
  if (ctx.profiles.length === 0) return undefined;
  const won = winning(ctx, c, 'Tx', now) ?? winning(ctx, c, 'TxDefault', now);
  const mode = won?.period.operationMode;
  if (!won || !mode) return undefined;
  const { p, period } = won;
  const cap =
    period.dischargeLimit !== undefined ? -inWatts(ctx, p, period, period.dischargeLimit) : Infinity;
  const hz = ctx.gridHz ?? NOMINAL_HZ;
  const baseline = period.v2xBaseline ?? 0;
  let targetW: number;
  switch (mode) {
    case 'Idle':
      targetW = 0;
      break;
    case 'CentralSetpoint':
    case 'ExternalSetpoint':
      if (period.setpoint === undefined) return undefined;
      targetW = inWatts(ctx, p, period, period.setpoint);
      break;
    case 'CentralFrequency':
    case 'LocalFrequency':
      if (period.v2xFreqWattCurve?.length) targetW = baseline + onCurve(period.v2xFreqWattCurve, hz);
      else if (mode === 'LocalFrequency')
        targetW = baseline + ratedW(ctx) * Math.max(-1, Math.min(1, (hz - NOMINAL_HZ) / DROOP_FULL_HZ));
      else targetW = baseline;
      break;
    default:
      return undefined;
  }
  return { targetW, dischargeCapW: Math.max(0, cap) };
}

/** Whether the connector's EV may discharge now: bidirectional, allowed, above its minimum SoC. */
export function canDischarge(c: Connector): boolean {
  if (!c.tx || !c.plugged || c.evStopped || c.status === 'Faulted' || !c.evBidirectional) return false;
  if (c.allowedTransfer && !c.allowedTransfer.some((m) => m.includes('BPT'))) return false;
  return c.soc !== undefined && c.soc > (c.evMinSoc ?? DEFAULT_MIN_SOC);
}

/** What the EV gives back now (W, >= 0): the discharge an operation mode asks, within every limit. */
export function dischargeW(ctx: ChargerContext, c: Connector, now: number): number {
  const v2x = v2xTarget(ctx, c, now);
  if (!v2x || v2x.targetW >= 0 || !canDischarge(c)) return 0;
  const ev = c.evMaxDischargeW ? c.evMaxDischargeW : Infinity;
  const rated = ratedW(ctx);
  return Math.min(-v2x.targetW, v2x.dischargeCapW, ev, rated, derDischargeCapW(ctx, rated, now));
}

/** What the connector would draw if it had the charger to itself (W); 0 when it draws nothing. */
export function demandW(ctx: ChargerContext, c: Connector, now: number): number {
  if (!c.tx || !c.plugged || c.evStopped || c.status === 'Faulted') return 0;
  const rated = ratedW(ctx);
  let ev = c.evMaxW > 0 ? c.evMaxW : Infinity;
  if (c.soc !== undefined) ev = Math.min(ev, rated) * taperFactor(c.soc);
  // An operation mode's setpoint is followed as close as the limits allow; a discharge draws nothing.
  const v2x = v2xTarget(ctx, c, now);
  const target = v2x ? Math.max(0, v2x.targetW) : Infinity;
  const der = derChargeLimitW(ctx, rated, ctx.gridHz ?? NOMINAL_HZ, NOMINAL_HZ, now);
  return Math.max(0, Math.min(rated, ev, target, profileLimitW(ctx, c, now), der));
}

/** Demands of the charger's connectors during one powerW (reused: no allocation per sample). */
let demands = new Float64Array(8);

/**
 * The power (W) a connector draws now (negative: the EV discharges). Connectors share the charger's rating: when their demands
 * exceed it, each gets an equal share, and what a connector needs less than its share goes to the
 * others (water-filling).
 */
export function powerW(ctx: ChargerContext, c: Connector, now: number): number {
  // A discharge is negative and takes nothing of the charger's rating from the others.
  const out = dischargeW(ctx, c, now);
  if (out > 0) return -out;
  const own = demandW(ctx, c, now);
  if (own <= 0) return 0;
  const n = ctx.connectors.length;
  if (demands.length < n) demands = new Float64Array(n);
  let total = 0;
  let active = 0;
  for (let i = 0; i < n; i++) {
    const other = ctx.connectors[i];
    const d = other.id === c.id ? own : other.tx ? demandW(ctx, other, now) : 0;
    demands[i] = d;
    total += d;
    if (d > 0) active++;
  }
  const rated = ratedW(ctx);
  if (total <= rated) return own;
  // Water-filling: connectors wanting less than the equal share of what is left get their demand.
  let remaining = rated;
  let level = rated / active;
  for (let changed = true; changed && active > 0;) {
    changed = false;
    for (let i = 0; i < n; i++) {
      const d = demands[i];
      if (d > 0 && d <= level) {
        remaining -= d;
        active--;
        demands[i] = 0;
        changed = true;
      }
    }
    if (active > 0) level = remaining / active;
  }
  return Math.min(own, level);
}

/** The power (W) the charger offers a connector now: the profile's limit within what the others leave. */
export function offeredW(ctx: ChargerContext, c: Connector, now: number): number {
  let others = 0;
  for (const x of ctx.connectors) if (x.id !== c.id) others += Math.max(0, x.powerW);
  return Math.max(0, Math.min(ratedW(ctx) - others, profileLimitW(ctx, c, now)));
}

/**
 * The connector with energy integrated up to now at the power it drew (into the import register)
 * or gave back (into the export register, the SoC falling no lower than the EV's minimum), and its
 * new power.
 */
export function integrate(ctx: ChargerContext, c: Connector, now: number): Connector {
  const dtMs = Math.max(0, now - (c.meterAt || now));
  const addedWh = (c.powerW * dtMs) / 3_600_000;
  let next: Connector;
  if (addedWh >= 0) {
    next = { ...c, meterWh: c.meterWh + addedWh, meterAt: now };
    if (c.soc !== undefined && c.batteryWh) next.soc = Math.min(100, c.soc + (addedWh / c.batteryWh) * 100);
  } else {
    let outWh = -addedWh;
    next = { ...c, meterAt: now };
    if (c.soc !== undefined && c.batteryWh) {
      const floor = Math.min(c.soc, c.evMinSoc ?? DEFAULT_MIN_SOC);
      // What the battery holds above its minimum is all it can give.
      outWh = Math.min(outWh, ((c.soc - floor) / 100) * c.batteryWh);
      next.soc = Math.max(floor, c.soc - (outWh / c.batteryWh) * 100);
    }
    next.exportWh = (c.exportWh ?? 0) + outWh;
  }
  next.powerW = powerW(ctx, next, now);
  return next;
}

/**
 * The next time (ms) the power changes without an event: a profile period begins or a schedule
 * ends, or a DC battery fills up (or, discharging, reaches the EV's minimum). undefined when nothing is due.
 */
export function nextPowerChangeAt(ctx: ChargerContext, now: number): number | undefined {
  let next = Infinity;
  for (const c of ctx.connectors) {
    if (!c.tx) continue;
    if (c.soc !== undefined && c.batteryWh) {
      const ms =
        c.powerW < 0
          ? msUntilMinimum(c.soc, c.evMinSoc ?? DEFAULT_MIN_SOC, c.batteryWh, -c.powerW)
          : msUntilFull(c.soc, c.batteryWh, c.powerW);
      if (ms !== undefined) next = Math.min(next, now + ms);
    }
    for (const p of ctx.profiles) {
      if (!appliesTo(p, c)) continue;
      const start = startOf(p, c, now);
      for (const x of p.periods) {
        const at = start + x.startPeriod * 1000;
        if (at > now) next = Math.min(next, at);
      }
      if (p.duration !== undefined && start + p.duration * 1000 > now)
        next = Math.min(next, start + p.duration * 1000);
      if (p.validTo && p.validTo > now) next = Math.min(next, p.validTo + 1);
    }
  }
  // A DER control begins or ends (der-limits.ts).
  for (const d of ctx.derControls ?? []) {
    if (d.startAt !== undefined && d.startAt > now) next = Math.min(next, d.startAt);
    const end = d.durationS !== undefined ? (d.startAt ?? 0) + d.durationS * 1000 : Infinity;
    if (end > now) next = Math.min(next, end);
  }
  return next === Infinity ? undefined : next;
}
