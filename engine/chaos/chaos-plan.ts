// The seeded plan of a chaos run, free of time and I/O: which chargers it touches and what is done
// to each of them when. Each charger draws from its own streams (the seed and its place in the
// fleet, sorted by identity), so the same seed on the same fleet picks the same chargers and gives
// each the same actions at the same offsets, however the run is paced or the actions delivered.
import { streamOf } from '../traffic/traffic-model.ts';
import type { ChaosConfig } from './chaos-config.ts';

/** What is done to one charger (engine/chaos/chaos-actions.ts says how). */
export type ChaosAction =
  'power_off' | 'power_on' | 'net_off' | 'net_on' | 'reboot' | 'surge_start' | 'surge_end';

export interface PlannedAction {
  /** Milliseconds after the run's start. */
  at_ms: number;
  /** The charger's place in the run's list (sorted by identity). */
  charger: number;
  action: ChaosAction;
}

export interface ChaosPlan {
  /** The chargers touched, by place in the list, in the order the seed ranks them. */
  chosen: number[];
  /** Sorted by time, then by charger, then as each charger's own actions follow each other. */
  actions: PlannedAction[];
}

/** The action that ends a fault still going when a run is stopped. */
export const UNDO: Partial<Record<ChaosAction, ChaosAction>> = {
  power_off: 'power_on',
  net_off: 'net_on',
  surge_start: 'surge_end',
};

/** Actions that start a fault on a charger. */
export const FAULTS: ReadonlySet<ChaosAction> = new Set(['power_off', 'net_off', 'reboot', 'surge_start']);
/** Actions after which the charger should come back online, its boot accepted. */
export const RESTORING: ReadonlySet<ChaosAction> = new Set(['power_on', 'net_on', 'reboot']);

const PURPOSE = { choose: 11, timing: 12 } as const;
/** A rolling restart reboots one wave about every this many seconds. */
const WAVE_S = 10;

export function planChaos(c: Omit<ChaosConfig, 'location_id'>, count: number): ChaosPlan {
  const k = Math.round(c.share * count);
  const rank = Array.from({ length: count }, (_x, i) => ({ i, u: streamOf(c.seed, i, 0, PURPOSE.choose)() }));
  rank.sort((a, b) => a.u - b.u || a.i - b.i);
  const chosen = rank.slice(0, k).map((r) => r.i);
  const duration = c.duration_s * 1000;
  const spread = c.spread_s * 1000;
  const waves = Math.min(k, Math.max(1, Math.ceil(c.duration_s / WAVE_S)));
  const actions: PlannedAction[] = [];
  chosen.forEach((charger, place) => {
    const offset = streamOf(c.seed, charger, 0, PURPOSE.timing)() * spread;
    const at = (at_ms: number, action: ChaosAction) =>
      actions.push({ at_ms: Math.round(at_ms), charger, action });
    switch (c.profile) {
      case 'blackout':
        // The grid goes at once; each charger takes its own time to boot when it is back.
        at(0, 'power_off');
        at(duration + offset, 'power_on');
        return;
      case 'partition':
        at(offset, 'net_off');
        at(offset + duration, 'net_on');
        return;
      case 'rolling_restart': {
        // Waves in the seed's order, the first at once, the last before the duration ends.
        const wave = Math.floor((place * waves) / k);
        at((wave * duration) / waves + offset, 'reboot');
        return;
      }
      case 'surge':
        at(offset, 'surge_start');
        at(duration, 'surge_end');
        return;
    }
  });
  // A stable sort: a charger's own actions keep their order when they fall at the same time.
  actions.sort((a, b) => a.at_ms - b.at_ms || a.charger - b.charger);
  return { chosen, actions };
}
