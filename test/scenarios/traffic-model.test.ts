// Generated traffic, without a service: the commands a run sends, on a simulated clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trafficConfig } from '../../engine/traffic/traffic-config.ts';
import { TrafficRun, type TrafficCharger } from '../../engine/traffic/traffic-run.ts';

const CHARGERS: TrafficCharger[] = [0, 1, 2, 3].map((i) => ({
  key: `k${i}`,
  identity: `T-${i}`,
  connectors: 2,
}));
const DAY = 86_400;

/** Runs `days` simulated days; returns every command sent, in order. */
function commandsOf(input: Record<string, unknown>, days = 3, chargers = CHARGERS) {
  const sent: Array<[string, string, unknown]> = [];
  let now = 0;
  const run = new TrafficRun(
    trafficConfig.parse(input),
    chargers,
    async (c, type, payload) => void sent.push([c.identity, type, payload]),
    () => now,
  );
  run.runDue(run.simNow + days * DAY);
  now = days * DAY * 1000;
  void run.stop();
  return { sent, run };
}

test('the same seed gives the same sessions, command for command', () => {
  const a = commandsOf({ seed: 7 });
  const b = commandsOf({ seed: 7 });
  assert.ok(a.run.sessions.length > 20, `${a.run.sessions.length} sessions`);
  assert.deepEqual(a.run.sessions, b.run.sessions);
  assert.deepEqual(a.sent, b.sent);
});

test('a fleet split over two runs, each charger given its fleet index, draws the sessions of one run', () => {
  const config = { seed: 9, fault_rate_per_hour: 0.2, drop_rate_per_hour: 0.2, warm_start: true };
  const whole = commandsOf(config);
  const first = commandsOf(config, 3, CHARGERS.slice(0, 2));
  const second = commandsOf(
    config,
    3,
    CHARGERS.slice(2).map((c, i) => ({ ...c, index: 2 + i })),
  );
  const byCharger = (sent: Array<[string, string, unknown]>, identity: string) =>
    sent.filter(([id]) => id === identity);
  for (const c of CHARGERS.slice(2)) {
    const split = byCharger(second.sent, c.identity);
    assert.ok(split.length > 10, `${c.identity}: ${split.length} commands`);
    assert.deepEqual(split, byCharger(whole.sent, c.identity));
  }
  const key = (s: { charger_index: number; connector: number; arrive: number }) =>
    `${s.charger_index}:${s.connector}:${s.arrive}`;
  const sorted = <T extends { charger_index: number; connector: number; arrive: number }>(l: T[]) =>
    [...l].sort((a, b) => key(a).localeCompare(key(b)));
  assert.deepEqual(sorted([...first.run.sessions, ...second.run.sessions]), sorted(whole.run.sessions));
});

test('another seed gives other sessions', () => {
  assert.notDeepEqual(commandsOf({ seed: 7 }).run.sessions, commandsOf({ seed: 8 }).run.sessions);
});

test('a session: plug-in with the EV model, the token 30 s later, unplug after the dwell time', () => {
  const { sent, run } = commandsOf({ seed: 3, fault_rate_per_hour: 0, drop_rate_per_hour: 0 }, 1);
  const s = run.sessions[0];
  const mine = sent.filter(([id, , p]) => id === s.charger && (p as any).connector_id === s.connector);
  assert.deepEqual(mine[0], [
    s.charger,
    'plug-in',
    {
      connector_id: s.connector,
      evse_id: s.connector,
      ev_max_power_kw: s.ev_max_power_kw,
      soc_percent: s.soc_percent,
      battery_kwh: s.battery_kwh,
    },
  ]);
  assert.deepEqual(mine[1], [
    s.charger,
    'present-token',
    { connector_id: s.connector, evse_id: s.connector, id_tag: s.token },
  ]);
  assert.deepEqual(
    mine.slice(2, s.full_after === null ? 3 : 4).map(([, type]) => type),
    s.full_after === null ? ['unplug'] : ['ev-stops-energy', 'unplug'],
  );
  assert.ok(s.energy_kwh <= (s.battery_kwh * (100 - s.soc_percent)) / 100 + 0.01);
});

test('arrivals follow the time-of-day profile: none in hours without arrivals', () => {
  const night = Array.from({ length: 24 }, (_, h) => (h >= 7 && h < 19 ? 2 : 0));
  const { run } = commandsOf({ seed: 11, arrivals_per_hour: night });
  assert.ok(run.sessions.length > 50);
  for (const s of run.sessions) {
    const hour = Math.floor(s.arrive / 3600) % 24;
    assert.ok(hour >= 7 && hour < 19, `arrival at hour ${hour}`);
  }
});

test('the token pool: a share of unknown and blocked tokens', () => {
  const { run } = commandsOf(
    {
      seed: 5,
      arrivals_per_hour: Array(24).fill(3),
      tokens: { pool: ['GOOD-1'], unknown_share: 0.3, blocked: ['BAD-1'], blocked_share: 0.2 },
    },
    7,
  );
  const n = run.sessions.length;
  const share = (kind: string) => run.sessions.filter((s) => s.token_kind === kind).length / n;
  assert.ok(n > 400, `${n} sessions`);
  assert.ok(Math.abs(share('unknown') - 0.3) < 0.06, `unknown ${share('unknown')}`);
  assert.ok(Math.abs(share('blocked') - 0.2) < 0.06, `blocked ${share('blocked')}`);
  assert.ok(run.sessions.every((s) => (s.token_kind === 'blocked' ? s.token === 'BAD-1' : true)));
  assert.ok(run.sessions.every((s) => (s.token_kind === 'known' ? s.token === 'GOOD-1' : true)));
});

test('faults are cleared after a while on the same connector; drops disconnect the charger', () => {
  const { sent, run } = commandsOf(
    { seed: 9, fault_rate_per_hour: 0.5, drop_rate_per_hour: 0.5, arrivals_per_hour: Array(24).fill(0) },
    2,
  );
  const faults = sent.filter(([, t]) => t === 'fault');
  const clears = sent.filter(([, t]) => t === 'clear-fault');
  assert.ok(faults.length > 5);
  assert.ok(clears.length >= faults.length - CHARGERS.length);
  assert.equal(run.status().faults, faults.length);
  assert.equal(sent.filter(([, t]) => t === 'disconnect').length, run.status().drops);
});

/** The commands sent in the first `seconds` of a run over `n` chargers with 2 connectors. */
function firstCommands(input: Record<string, unknown>, n: number, seconds: number) {
  const chargers = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, identity: `W-${i}`, connectors: 2 }));
  const sent: Array<[string, string, { connector_id?: number; id_tag?: string }]> = [];
  const run = new TrafficRun(
    trafficConfig.parse({ fault_rate_per_hour: 0, drop_rate_per_hour: 0, ...input }),
    chargers,
    async (c, type, payload) => void sent.push([c.identity, type, payload as never]),
    () => 0,
  );
  run.runDue(run.simNow + seconds);
  return { sent, run };
}

test('warm start: the sessions in progress at the start plug in during its first minute, with their token', () => {
  // A flat profile: 0.1 arrivals per connector-hour, 90 min dwell -> about 13 % of connectors busy.
  const input = { seed: 5, arrivals_per_hour: Array(24).fill(0.1), warm_start: true };
  const { sent, run } = firstCommands(input, 200, 60);
  const plugs = sent.filter(([, t]) => t === 'plug-in');
  assert.ok(plugs.length > 20 && plugs.length < 100, `${plugs.length} of 400 connectors plugged in`);
  assert.equal(run.status().sessions_started, plugs.length);
  const unplugs = sent.filter(([, t]) => t === 'unplug').length;
  assert.equal(run.status().sessions_active, plugs.length - unplugs);
  // Sessions that arrived more than 30 s before the start present their token as they plug in.
  const before = run.sessions.filter((s) => s.arrive <= 8 * 3600 - 30);
  assert.ok(before.length > 0);
  for (const s of before) {
    const token = sent.find(
      ([id, t, p]) => id === s.charger && t === 'present-token' && p.connector_id === s.connector,
    );
    assert.equal(token?.[2].id_tag, s.token, `${s.charger}:${s.connector}`);
  }
  assert.deepEqual(firstCommands(input, 200, 60).sent, sent, 'the same seed, the same start');
});

test('without warm start every connector is free at the start', () => {
  const { sent } = firstCommands({ seed: 5, arrivals_per_hour: Array(24).fill(0.1) }, 200, 60);
  assert.ok(sent.filter(([, t]) => t === 'plug-in').length < 5);
});

test('a bidirectional EV model plugs in as a V2X EV, with its discharge limit and minimum SoC', () => {
  const ev_models = [
    { name: 'v2x', battery_kwh: 60, ac_max_kw: 11, dc_max_kw: 100, soc_min: 40, soc_max: 80, weight: 1 },
  ];
  const plain = commandsOf({ seed: 3, ev_models }, 1).sent.filter(([, t]) => t === 'plug-in');
  const v2x = commandsOf(
    {
      seed: 3,
      ev_models: [{ ...ev_models[0], bidirectional: true, max_discharge_kw: 10, min_soc_percent: 30 }],
    },
    1,
  ).sent.filter(([, t]) => t === 'plug-in');
  assert.ok(plain.length > 0);
  // The same sessions (the V2X fields draw nothing from the seed), each with the EV's V2X limits.
  assert.deepEqual(
    v2x,
    plain.map(([c, t, p]) => [
      c,
      t,
      { ...(p as object), bidirectional: true, max_discharge_kw: 10, min_soc_percent: 30 },
    ]),
  );
});
