// The seeded plan of a chaos run: the same seed on the same fleet picks the same chargers and gives
// each the same actions at the same offsets; the share and the profile decide what is done.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planChaos } from '../../../engine/chaos/chaos-plan.ts';
import type { ChaosConfig } from '../../../engine/chaos/chaos-config.ts';

const config = (c: Partial<ChaosConfig>): ChaosConfig => ({
  profile: 'blackout',
  share: 0.3,
  duration_s: 60,
  seed: 42,
  spread_s: 5,
  settle_s: 600,
  ...c,
});

test('the same seed on the same fleet: the same chargers, the same actions at the same offsets', () => {
  for (const profile of ['blackout', 'partition', 'rolling_restart', 'surge'] as const) {
    const a = planChaos(config({ profile }), 200);
    const b = planChaos(config({ profile }), 200);
    assert.deepEqual(a, b, profile);
    assert.equal(a.chosen.length, 60);
    assert.notDeepEqual(planChaos(config({ profile, seed: 43 }), 200).chosen, a.chosen, profile);
  }
});

test('a charger added to the fleet changes no other charger’s draw', () => {
  const small = planChaos(config({ share: 1 }), 10);
  const large = planChaos(config({ share: 1 }), 11);
  const of = (p: typeof small, i: number) => p.actions.filter((a) => a.charger === i);
  for (let i = 0; i < 10; i++) assert.deepEqual(of(large, i), of(small, i));
});

test('blackout: power off at once for every chosen charger, back after the duration within the spread', () => {
  const plan = planChaos(config({ share: 0.5, duration_s: 10, spread_s: 2 }), 20);
  assert.equal(plan.chosen.length, 10);
  const off = plan.actions.filter((a) => a.action === 'power_off');
  const on = plan.actions.filter((a) => a.action === 'power_on');
  assert.deepEqual(
    off.map((a) => a.at_ms),
    Array(10).fill(0),
  );
  assert.deepEqual(new Set(on.map((a) => a.charger)), new Set(plan.chosen));
  for (const a of on) assert.ok(a.at_ms >= 10_000 && a.at_ms <= 12_000, String(a.at_ms));
});

test('rolling restart: one reboot per chosen charger, in waves over the duration', () => {
  const plan = planChaos(config({ profile: 'rolling_restart', share: 1, duration_s: 40, spread_s: 0 }), 8);
  assert.deepEqual(
    plan.actions.map((a) => a.action),
    Array(8).fill('reboot'),
  );
  assert.deepEqual([...new Set(plan.actions.map((a) => a.at_ms))], [0, 10_000, 20_000, 30_000]);
});

test('share 0 touches no charger; share 1 every one', () => {
  assert.deepEqual(planChaos(config({ share: 0 }), 5), { chosen: [], actions: [] });
  assert.deepEqual([...planChaos(config({ share: 1 }), 5).chosen].sort(), [0, 1, 2, 3, 4]);
});
