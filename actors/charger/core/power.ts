// Simulated power and energy: the power a connector draws is the least of the model's rating,
// the EV's own limit and the active charging profiles; energy integrates it over time.
import type { ChargerContext, ChargingProfile, Connector } from './context.ts';

const AC_PHASE_VOLTAGE = 230;
const DC_VOLTAGE = 400;

/** A current limit (A) as power (W) for this charger. */
export function ampsToWatts(ctx: ChargerContext, amps: number, phases?: number): number {
  if (ctx.model.current_type === 'DC') return amps * DC_VOLTAGE;
  return amps * AC_PHASE_VOLTAGE * (phases ?? 3);
}

export function wattsToAmps(ctx: ChargerContext, watts: number): number {
  if (ctx.model.current_type === 'DC') return watts / DC_VOLTAGE;
  return watts / (AC_PHASE_VOLTAGE * 3);
}

/** The limit (W) a profile sets at time now, undefined when it does not apply now. */
function profileLimitAt(
  ctx: ChargerContext,
  p: ChargingProfile,
  c: Connector | undefined,
  now: number,
): number | undefined {
  if (p.validTo && now > p.validTo) return undefined;
  const start = p.startAt || c?.tx?.startedAt || now;
  const elapsed = Math.floor((now - start) / 1000);
  if (elapsed < 0 || (p.duration !== undefined && elapsed >= p.duration)) return undefined;
  let period: ChargingProfile['periods'][number] | undefined;
  for (const x of p.periods) if (x.startPeriod <= elapsed) period = x;
  if (!period) return undefined;
  return p.unit === 'W' ? period.limit : ampsToWatts(ctx, period.limit, period.numberPhases);
}

/** The highest stack level among the profiles of one purpose that apply to the connector wins. */
function limitOfPurpose(
  ctx: ChargerContext,
  c: Connector | undefined,
  purpose: ChargingProfile['purpose'],
  now: number,
): number | undefined {
  let best: { level: number; limit: number } | undefined;
  for (const p of ctx.profiles) {
    if (p.purpose !== purpose) continue;
    if (purpose === 'Tx' && (!c?.tx || p.txRef !== c.tx.ref)) continue;
    if (p.connectorId !== 0 && p.connectorId !== c?.id) continue;
    const limit = profileLimitAt(ctx, p, c, now);
    if (limit === undefined) continue;
    if (!best || p.stackLevel > best.level) best = { level: p.stackLevel, limit };
  }
  return best?.limit;
}

/** The smart-charging limit (W) on a connector now; Infinity when no profile applies. */
export function profileLimitW(ctx: ChargerContext, c: Connector | undefined, now: number): number {
  const tx = limitOfPurpose(ctx, c, 'Tx', now) ?? limitOfPurpose(ctx, c, 'TxDefault', now) ?? Infinity;
  const max = limitOfPurpose(ctx, c, 'Max', now) ?? Infinity;
  return Math.min(tx, max);
}

/** The power (W) a connector draws now. */
export function powerW(ctx: ChargerContext, c: Connector, now: number): number {
  if (!c.tx || !c.plugged || c.evStopped || c.status === 'Faulted') return 0;
  if (c.soc !== undefined && c.soc >= 100) return 0;
  const rated = ctx.model.max_power_kw * 1000;
  const ev = c.evMaxW > 0 ? c.evMaxW : Infinity;
  return Math.max(0, Math.min(rated, ev, profileLimitW(ctx, c, now)));
}

/** The connector with energy integrated up to now at the power it drew, and its new power. */
export function integrate(ctx: ChargerContext, c: Connector, now: number): Connector {
  const dtMs = Math.max(0, now - (c.meterAt || now));
  const addedWh = (c.powerW * dtMs) / 3_600_000;
  const next: Connector = { ...c, meterWh: c.meterWh + addedWh, meterAt: now };
  if (c.soc !== undefined && c.batteryWh) next.soc = Math.min(100, c.soc + (addedWh / c.batteryWh) * 100);
  next.powerW = powerW(ctx, next, now);
  return next;
}
