// The one list of commands (engine/commands/command-kinds.ts): each has a path, a payload schema
// with its defaults, and becomes an event the charger machine handles, for every OCPP version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_KINDS, EVENT_TYPES, chargerEvent } from '../../../engine/commands/command-kinds.ts';
import { isCommand } from '../../../actors/charger/dispatch.ts';
import { SUBPROTOCOLS } from '../../../protocols/ocpp/versions.ts';

/** A minimal valid payload of each command, before defaults. */
const EXAMPLES: Record<string, unknown> = {
  'proxy-message': { action: 'Heartbeat' },
  'ev-stops-energy': {},
  configuration: { key: 'HeartbeatInterval', value: 60 },
  'cache-reset': {},
  'local-auth-list': { list_version: 1, update_type: 'Full', entries: [{ id_tag: 'A' }] },
  'plug-in': {},
  'present-token': { id_tag: 'TAG' },
  unplug: {},
  fault: {},
  'clear-fault': {},
  'external-limit': { limit_w: 6000 },
  'grid-frequency': { frequency_hz: 49.9 },
  'grid-event': { fault: 'UnderVoltage' },
  disconnect: {},
};

test('every command has a path of its own', () => {
  const paths = EVENT_TYPES.map((t) => COMMAND_KINDS[t].path);
  assert.equal(new Set(paths).size, paths.length);
  assert.equal(COMMAND_KINDS['cache-reset'].path, 'cache/reset');
});

test('every command becomes an event the charger machine handles, for every version it can take', () => {
  assert.deepEqual(Object.keys(EXAMPLES).sort(), [...EVENT_TYPES].sort());
  for (const type of EVENT_TYPES)
    for (const version of SUBPROTOCOLS) {
      const payload = COMMAND_KINDS[type].payload.parse(
        type === 'configuration' && version !== 'ocpp1.6'
          ? { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: 60 }
          : EXAMPLES[type],
      );
      const built = chargerEvent(type, payload as never, version);
      assert.ok('event' in built, `${type} ${version}: ${JSON.stringify(built)}`);
      assert.ok(isCommand(built.event.type), `${type} -> ${built.event.type}`);
    }
});

test('defaults are filled in: a connector command without a payload is connector 1', () => {
  assert.deepEqual(COMMAND_KINDS.unplug.payload.parse(undefined), { connector_id: 1 });
  assert.deepEqual(chargerEvent('unplug', { connector_id: 1 }, 'ocpp1.6'), {
    event: { type: 'UNPLUG', connectorId: 1 },
  });
});

test('2.x numbers connectors by EVSE: evse_id picks the connector', () => {
  assert.deepEqual(chargerEvent('plug-in', { connector_id: 1, evse_id: 2 }, 'ocpp2.0.1'), {
    event: { type: 'PLUG_IN', connectorId: 2 },
  });
  assert.deepEqual(chargerEvent('plug-in', { connector_id: 1, evse_id: 2 }, 'ocpp1.6'), {
    event: { type: 'PLUG_IN', connectorId: 1 },
  });
});

test("the other version's configuration shape, or a status 1.6 lacks, is a problem, not an event", () => {
  const config = { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '5' };
  assert.match((chargerEvent('configuration', config, 'ocpp1.6') as { problem: string }).problem, /1\.6/);
  assert.match(
    (
      chargerEvent('configuration', { key: 'HeartbeatInterval', value: '5' }, 'ocpp2.0.1') as {
        problem: string;
      }
    ).problem,
    /2\.0\.1/,
  );
  const list = {
    list_version: 1,
    update_type: 'Full' as const,
    entries: [{ id_tag: 'A', id_tag_info: { status: 'NoCredit' as const } }],
  };
  assert.match((chargerEvent('local-auth-list', list, 'ocpp1.6') as { problem: string }).problem, /NoCredit/);
  assert.ok('event' in chargerEvent('local-auth-list', list, 'ocpp2.0.1'));
});

test('a charger of an unknown version gets no event, never a 1.6 one', () => {
  assert.deepEqual(chargerEvent('unplug', { connector_id: 1 }, 'ocpp9' as never), {
    problem: "no charger speaks OCPP version 'ocpp9'",
  });
});

test('a connector beyond the model is a problem of the payload, in the numbering of each version', () => {
  const lacking = chargerEvent('plug-in', { connector_id: 3 }, 'ocpp1.6', 2) as { problem: string };
  assert.match(lacking.problem, /connector 3 does not exist: the charger's model has 2 connectors/);
  assert.ok('problem' in chargerEvent('plug-in', { connector_id: 1, evse_id: 3 }, 'ocpp2.0.1', 2));
  assert.ok('event' in chargerEvent('plug-in', { connector_id: 2 }, 'ocpp1.6', 2));
  // The count unknown (a charger stored without it): the charger itself decides.
  assert.ok('event' in chargerEvent('plug-in', { connector_id: 9 }, 'ocpp1.6', null));
});

test('plug-in: a bidirectional EV carries its discharge limit and minimum SoC; they need bidirectional', () => {
  const parsed = COMMAND_KINDS['plug-in'].payload.parse({
    bidirectional: true,
    max_discharge_kw: 10,
    min_soc_percent: 30,
  });
  const built = chargerEvent('plug-in', parsed as never, 'ocpp2.1');
  assert.ok('event' in built);
  assert.deepEqual(built.event, {
    type: 'PLUG_IN',
    connectorId: 1,
    bidirectional: true,
    maxDischargeKw: 10,
    minSocPercent: 30,
  });
  const bad = COMMAND_KINDS['plug-in'].payload.safeParse({ min_soc_percent: 30 });
  assert.equal(bad.success, false);
  assert.equal(COMMAND_KINDS['grid-frequency'].payload.safeParse({ frequency_hz: 70 }).success, false);
});
