// The seeded behaviour of generated traffic, free of time and I/O: each connector and each
// charger has its own random stream (from the seed and its index in the location), so the same
// seed gives the same sessions whatever order events are handled in, and adding a charger changes
// no other charger's sessions.
import { seededRandom } from '../scenarios/scenario-vars.ts';
import type { TrafficConfig } from './traffic-config.ts';

export type Random = () => number;

/** One random stream per (seed, charger index, connector, purpose). */
export function streamOf(seed: number, charger: number, connector: number, purpose: number): Random {
  // A small integer hash (FNV-1a over the four numbers) gives well-separated seeds.
  let h = 0x811c9dc5;
  for (const n of [seed, charger, connector, purpose]) {
    h ^= n >>> 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return seededRandom(h);
}

export const exponential = (rnd: Random, rate: number) => -Math.log(1 - rnd()) / rate;

/** A normal sample (Box-Muller), clipped at `min`. */
export function normal(rnd: Random, d: { mean: number; sd: number; min: number }): number {
  const z = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  return Math.max(d.min, d.mean + d.sd * z);
}

/** A lognormal sample with this mean and standard deviation, clipped at `min` (dwell times are skewed). */
export function lognormal(rnd: Random, d: { mean: number; sd: number; min: number }): number {
  const s2 = Math.log(1 + (d.sd * d.sd) / (d.mean * d.mean));
  const mu = Math.log(d.mean) - s2 / 2;
  const z = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  return Math.max(d.min, Math.exp(mu + Math.sqrt(s2) * z));
}

export function weighted<T extends { weight: number }>(rnd: Random, items: T[]): T {
  let pick = rnd() * items.reduce((s, i) => s + i.weight, 0);
  for (const item of items) if ((pick -= item.weight) < 0) return item;
  return items[items.length - 1];
}

const HOUR = 3600;

/**
 * The next arrival after `t` (simulated seconds since midnight of day 0) on a connector, by
 * thinning the time-of-day profile; null when the profile has no arrivals at all.
 */
export function nextArrival(rnd: Random, profile: number[], t: number): number | null {
  const max = Math.max(...profile);
  if (max <= 0) return null;
  for (let at = t; ;) {
    at += exponential(rnd, max / HOUR);
    const hour = Math.floor(at / HOUR) % 24;
    if (rnd() * max < profile[hour]) return at;
  }
}

export interface PlannedSession {
  /** Simulated seconds since midnight of day 0. */
  arrive: number;
  ev: string;
  battery_kwh: number;
  ev_max_power_kw: number;
  soc_percent: number;
  energy_kwh: number;
  /** Seconds plugged in. */
  dwell: number;
  /** Seconds after arrival the EV stops drawing (its energy need met), or null if it leaves before. */
  full_after: number | null;
  token: string;
  token_kind: 'known' | 'unknown' | 'blocked';
  /** A bidirectional EV model's V2X limits (absent: the EV only charges). */
  v2x?: { max_discharge_kw?: number; min_soc_percent?: number };
}

/** A session arriving at `arrive`: the EV, its energy need, dwell and token, from the connector's stream. */
export function planSession(rnd: Random, c: TrafficConfig, arrive: number): PlannedSession {
  const ev = weighted(rnd, c.ev_models);
  const soc = ev.soc_min + rnd() * Math.max(0, ev.soc_max - ev.soc_min);
  // The need is what the driver wants, at most what the battery can still take.
  const room = (ev.battery_kwh * (100 - soc)) / 100;
  const energy = Math.min(room, normal(rnd, c.energy_kwh));
  const dwell = lognormal(rnd, c.dwell_minutes) * 60;
  const fullAfter = (energy / ev.ac_max_kw) * HOUR;
  const r = rnd();
  const { tokens } = c;
  let token: string;
  let kind: PlannedSession['token_kind'];
  if (r < tokens.blocked_share && tokens.blocked.length > 0) {
    kind = 'blocked';
    token = tokens.blocked[Math.floor(rnd() * tokens.blocked.length)];
  } else if (r < tokens.blocked_share + tokens.unknown_share) {
    kind = 'unknown';
    token = `UNKNOWN-${Math.floor(rnd() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`;
  } else {
    kind = 'known';
    token = tokens.pool[Math.floor(rnd() * tokens.pool.length)];
  }
  return {
    arrive,
    ev: ev.name,
    battery_kwh: ev.battery_kwh,
    ev_max_power_kw: ev.ac_max_kw,
    soc_percent: Math.round(soc * 10) / 10,
    energy_kwh: Math.round(energy * 100) / 100,
    dwell: Math.round(dwell),
    full_after: fullAfter < dwell ? Math.round(fullAfter) : null,
    token,
    token_kind: kind,
    ...(ev.bidirectional
      ? { v2x: { max_discharge_kw: ev.max_discharge_kw, min_soc_percent: ev.min_soc_percent } }
      : {}),
  };
}
