// The detail view of a charger from its persisted context alone (actors/charger/charger-view.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createActor } from 'xstate';
import { chargerMachine } from '../../actors/charger/charger-machine.ts';
import type { ChargerContext } from '../../actors/charger/core/context.ts';
import { chargerView, SECRET_MASK } from '../../actors/charger/charger-view.ts';

const MODEL = {
  boot_vendor: 'V',
  boot_model: 'M',
  connector_count: 2,
  max_power_kw: 22,
  current_type: 'AC' as const,
};

/** A fresh charger's context, as the machine builds it. */
function contextOf(version: 'ocpp1.6' | 'ocpp2.0.1'): ChargerContext {
  const actor = createActor(chargerMachine, { input: { identity: 'VIEW-1', version, model: MODEL } });
  return structuredClone(actor.getSnapshot().context);
}

test('connectors 1..n; evse_id null for 1.6 and the EVSE for 2.0.1', () => {
  const v16 = chargerView(contextOf('ocpp1.6'));
  assert.deepEqual(
    v16.connectors.map((c) => [c.connector_id, c.evse_id]),
    [
      [1, null],
      [2, null],
    ],
  );
  const v201 = chargerView(contextOf('ocpp2.0.1'));
  assert.deepEqual(
    v201.connectors.map((c) => [c.connector_id, c.evse_id]),
    [
      [1, 1],
      [2, 2],
    ],
  );
  assert.deepEqual(v16.connectors[0], {
    connector_id: 1,
    evse_id: null,
    status: 'Available',
    transaction_id: null,
    energy_wh: 0,
    power_w: 0,
    soc: null,
    ev_connected: false,
    id_tag: null,
    cost: null,
    cost_updated_at: null,
  });
});

test('a 1.6 transaction shows the central system id as a string, the token and the meter', () => {
  const ctx = contextOf('ocpp1.6');
  ctx.connectors[0] = {
    ...ctx.connectors[0],
    status: 'Charging',
    plugged: true,
    meterWh: 1234.9,
    powerW: 11000.4,
    soc: 41.26,
    tx: { ref: 3, idTag: 'TAG-1', startWh: 1000, startedAt: 1, seq: 0 },
  };
  ctx.txIds = { '3': 77 };
  const [c] = chargerView(ctx).connectors;
  assert.deepEqual(c, {
    connector_id: 1,
    evse_id: null,
    status: 'Charging',
    transaction_id: '77',
    energy_wh: 1234,
    power_w: 11000,
    soc: 41.3,
    ev_connected: true,
    id_tag: 'TAG-1',
    cost: null,
    cost_updated_at: null,
  });
});

test('configuration: every key with its value and whether it is read-only; 2.0.1 names Component.Variable', () => {
  const v16 = chargerView({ ...contextOf('ocpp1.6'), settings: { HeartbeatInterval: '120' } }).configuration;
  assert.deepEqual(
    v16.find((e) => e.key === 'HeartbeatInterval'),
    { key: 'HeartbeatInterval', value: '120', readonly: false },
  );
  assert.deepEqual(
    v16.find((e) => e.key === 'NumberOfConnectors'),
    { key: 'NumberOfConnectors', value: '2', readonly: true },
  );
  const v201 = chargerView(contextOf('ocpp2.0.1')).configuration;
  assert.deepEqual(
    v201.find((e) => e.key === 'OCPPCommCtrlr.HeartbeatInterval'),
    {
      key: 'OCPPCommCtrlr.HeartbeatInterval',
      value: '300',
      readonly: false,
    },
  );
  assert.ok(v201.every((e) => typeof e.value === 'string'));
});

test('configuration: a secret value is masked', () => {
  const ctx = { ...contextOf('ocpp1.6'), settings: { AuthorizationKey: 'not-for-your-eyes' } };
  const view = chargerView(ctx);
  assert.deepEqual(
    view.configuration.find((e) => e.key === 'AuthorizationKey'),
    {
      key: 'AuthorizationKey',
      value: SECRET_MASK,
      readonly: false,
    },
  );
  assert.ok(!JSON.stringify(view).includes('not-for-your-eyes'));
});

test('charging profiles in OCPP terms; last heartbeat one interval before the next deadline', () => {
  const ctx = contextOf('ocpp2.0.1');
  ctx.profiles = [
    {
      id: 5,
      connectorId: 0,
      stackLevel: 1,
      purpose: 'Max',
      unit: 'W',
      periods: [{ startPeriod: 0, limit: 7000 }],
      startAt: 0,
    },
  ];
  ctx.timers = { heartbeat: Date.parse('2025-01-01T10:05:00Z') };
  const view = chargerView(ctx);
  assert.deepEqual(view.charging_profiles, [
    {
      id: 5,
      connector_id: 0,
      stack_level: 1,
      purpose: 'ChargingStationMaxProfile',
      unit: 'W',
      periods: [{ start_period: 0, limit: 7000, number_phases: null }],
      start_at: null,
      duration: null,
      transaction_id: null,
      valid_to: null,
    },
  ]);
  assert.equal(view.last_heartbeat_at, '2025-01-01T10:00:00.000Z');
  assert.equal(chargerView(contextOf('ocpp1.6')).last_heartbeat_at, null, 'never online');
});
