// The cost of a session under a tariff (OCPP 2.1 block I, local cost calculation), pure: from the
// tariff the charger holds and the session's usage (metered energy, duration, idle time) to the
// cost per dimension, taxes and the minimum/maximum cost applied. No clock, no state: the 2.1
// wire writes it into TransactionEvent (costDetails) and the tariff block keeps the running total.
//
// How a dimension is priced:
// - energy: priceKwh per kWh of metered energy;
// - chargingTime: priceMinute per minute the EV was charging (the session minus its idle time);
// - idleTime: priceMinute per minute the EV was plugged in a running session but not charging;
// - fixedFee: priceFixed once per session.
// Price elements may be tiered along their own dimension (energy by minEnergy/maxEnergy,
// charging time by minChargingTime/maxChargingTime, idle time by minIdleTime/maxIdleTime): each
// part of the dimension takes the first element in the list whose range holds it. Other conditions
// (time of day, day of week, power, current, ...) are refused when the tariff is set
// (ConditionNotSupported), so a tariff held is always priced exactly.
// Taxes: a dimension's taxRates stack as 2.1 says (stack 0 on the net price, stack n on the price
// with the taxes of stack n-1); amounts are kept unrounded and rounded to the cent when written.
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';

/** A tariff as OCPP 2.1 writes it (TariffType): the one data model of tariffs a charger holds. */
export type Tariff = OcppRequest<'ocpp2.1', 'SetDefaultTariff'>['tariff'];
type TaxRate = NonNullable<NonNullable<Tariff['energy']>['taxRates']>[number];
type PriceLimit = NonNullable<Tariff['minCost']>;

/** What a session used, as the meter and the clock saw it. */
export interface Usage {
  /** Metered energy (Wh): end register minus start register. */
  energyWh: number;
  /** The session's whole duration (s), charging and idle. */
  durationS: number;
  /** The part of it the EV was not charging (s). */
  idleS: number;
}

export interface Price {
  exclTax: number;
  inclTax: number;
}

export interface SessionCost {
  currency: string;
  /** Whether minCost or maxCost replaced the sum of the dimensions. */
  typeOfCost: 'NormalCost' | 'MinCost' | 'MaxCost';
  fixed?: Price;
  energy?: Price;
  chargingTime?: Price;
  idleTime?: Price;
  total: Price;
}

/** The conditions the charger prices, by the dimension they tier. */
const TIER_KEYS = {
  energy: ['minEnergy', 'maxEnergy'],
  chargingTime: ['minChargingTime', 'maxChargingTime'],
  idleTime: ['minIdleTime', 'maxIdleTime'],
} as const;

const presentKeys = (conditions: object | undefined): string[] =>
  Object.entries(conditions ?? {})
    .filter(([k, v]) => v !== undefined && k !== 'customData')
    .map(([k]) => k);

/** The first condition of the tariff the charger cannot price, if any (ConditionNotSupported). */
export function unsupportedCondition(t: Tariff): string | undefined {
  for (const dim of ['energy', 'chargingTime', 'idleTime'] as const) {
    const allowed: readonly string[] = TIER_KEYS[dim];
    for (const p of t[dim]?.prices ?? [])
      for (const k of presentKeys(p.conditions)) if (!allowed.includes(k)) return `${dim}.${k}`;
  }
  for (const p of t.fixedFee?.prices ?? []) {
    const [k] = presentKeys(p.conditions);
    if (k) return `fixedFee.${k}`;
  }
  return undefined;
}

/** Price with tax: stack 0 on the net, each next stack on the price with the stacks below it. */
export function withTax(net: number, rates: readonly TaxRate[] | undefined): number {
  const stacks = new Map<number, number>();
  for (const r of rates ?? []) stacks.set(r.stack ?? 0, (stacks.get(r.stack ?? 0) ?? 0) + r.tax);
  let gross = net;
  for (const stack of [...stacks.keys()].sort((a, b) => a - b)) gross *= 1 + stacks.get(stack)! / 100;
  return gross;
}

/**
 * The net price of `amount` units of a tiered dimension: each part of [0, amount) at the price of
 * the first element whose [min, max) holds it (no element: free).
 */
function tiered(amount: number, elements: readonly { price: number; min?: number; max?: number }[]): number {
  if (amount <= 0 || !elements.length) return 0;
  const cuts = new Set([0, amount]);
  for (const e of elements)
    for (const x of [e.min, e.max]) if (x !== undefined && x > 0 && x < amount) cuts.add(x);
  const points = [...cuts].sort((a, b) => a - b);
  let net = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const [from, to] = [points[i], points[i + 1]];
    const e = elements.find((x) => (x.min ?? 0) <= from && (x.max === undefined || from < x.max));
    if (e) net += (to - from) * e.price;
  }
  return net;
}

const dimension = (net: number, rates: readonly TaxRate[] | undefined): Price => ({
  exclTax: net,
  inclTax: withTax(net, rates),
});

/** A minimum or maximum cost as a price: the side it leaves out follows from its tax rates. */
function limitOf(l: PriceLimit): Price | undefined {
  if (l.exclTax !== undefined)
    return { exclTax: l.exclTax, inclTax: l.inclTax ?? withTax(l.exclTax, l.taxRates) };
  if (l.inclTax !== undefined) return { exclTax: l.inclTax / withTax(1, l.taxRates), inclTax: l.inclTax };
  return undefined;
}

/** The cost of a session that used `u` under tariff `t`. */
export function priceSession(t: Tariff, u: Usage): SessionCost {
  const chargingS = Math.max(0, u.durationS - u.idleS);
  const cost: SessionCost = {
    currency: t.currency,
    typeOfCost: 'NormalCost',
    total: { exclTax: 0, inclTax: 0 },
  };
  if (t.fixedFee)
    cost.fixed = dimension(
      t.fixedFee.prices
        .filter((p) => !presentKeys(p.conditions).length)
        .reduce((n, p) => n + p.priceFixed, 0),
      t.fixedFee.taxRates,
    );
  if (t.energy)
    cost.energy = dimension(
      tiered(
        u.energyWh,
        t.energy.prices.map((p) => ({
          price: p.priceKwh / 1000,
          min: p.conditions?.minEnergy,
          max: p.conditions?.maxEnergy,
        })),
      ),
      t.energy.taxRates,
    );
  if (t.chargingTime)
    cost.chargingTime = dimension(
      tiered(
        chargingS,
        t.chargingTime.prices.map((p) => ({
          price: p.priceMinute / 60,
          min: p.conditions?.minChargingTime,
          max: p.conditions?.maxChargingTime,
        })),
      ),
      t.chargingTime.taxRates,
    );
  if (t.idleTime)
    cost.idleTime = dimension(
      tiered(
        u.idleS,
        t.idleTime.prices.map((p) => ({
          price: p.priceMinute / 60,
          min: p.conditions?.minIdleTime,
          max: p.conditions?.maxIdleTime,
        })),
      ),
      t.idleTime.taxRates,
    );
  for (const d of [cost.fixed, cost.energy, cost.chargingTime, cost.idleTime])
    if (d) cost.total = { exclTax: cost.total.exclTax + d.exclTax, inclTax: cost.total.inclTax + d.inclTax };
  const min = t.minCost && limitOf(t.minCost);
  const max = t.maxCost && limitOf(t.maxCost);
  if (min && cost.total.exclTax < min.exclTax) return { ...cost, typeOfCost: 'MinCost', total: min };
  if (max && cost.total.exclTax > max.exclTax) return { ...cost, typeOfCost: 'MaxCost', total: max };
  return cost;
}

/** An amount as written on the wire and the display: to the cent. */
export const cents = (x: number): number => Math.round(x * 100) / 100;
