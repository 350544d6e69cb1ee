// The wire adapter of each version (ocpp-wires.ts): chosen by version, never silently another one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OCPP_WIRES, wireFor } from '../../../actors/charger/ocpp-wires.ts';
import { SUBPROTOCOLS } from '../../../protocols/ocpp/versions.ts';
import { createActor } from 'xstate';
import { chargerMachine } from '../../../actors/charger/charger-machine.ts';
import { MODEL_AC, assertSchemaValid, harness } from './charger-harness.ts';
import { aRemoteStart } from './builders.ts';

test('every OCPP version the protocol layer speaks has a wire adapter; 2.1 has its own', () => {
  for (const v of SUBPROTOCOLS) assert.ok(wireFor(v));
  assert.notEqual(OCPP_WIRES['ocpp2.1'], OCPP_WIRES['ocpp2.0.1']);
  // 2.1 keeps 2.0.1's messages: what it does not change is 2.0.1's.
  assert.equal(OCPP_WIRES['ocpp2.1'].bootNotification, OCPP_WIRES['ocpp2.0.1'].bootNotification);
  // Only 2.1 tells the CSMS a bidirectional EV's needs.
  assert.equal(OCPP_WIRES['ocpp2.0.1'].evChargingNeeds, undefined);
  assert.ok(OCPP_WIRES['ocpp2.1'].evChargingNeeds);
  assert.notEqual(OCPP_WIRES['ocpp1.6'], OCPP_WIRES['ocpp2.0.1']);
});

test('an unknown version is an error, not 1.6', () => {
  assert.throws(() => wireFor('ocpp1.5'), /no charger speaks OCPP version 'ocpp1.5'/);
  assert.throws(() => wireFor('toString'), /no charger speaks/);
});

test('a charger of an unknown version does not start', () => {
  const actor = createActor(chargerMachine, {
    input: { identity: 'X', version: 'ocpp3' as never, model: MODEL_AC },
  });
  let failure: unknown;
  actor.subscribe({ error: (err) => (failure = err) });
  actor.start();
  assert.equal(actor.getSnapshot().status, 'error');
  assert.match(String(failure), /no charger speaks OCPP version 'ocpp3'/);
});

test('ocpp2.1: a charger boots, charges and reports with messages valid against the 2.1 schemas', async () => {
  const h = harness('ocpp2.1');
  h.deploy();
  assert.equal(h.stage(), 'online');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.1'));
  h.tick(60_000);
  assert.deepEqual(
    h.callsOf('TransactionEvent').map((c) => c.payload.triggerReason),
    ['RemoteStart', 'ChargingStateChanged', 'MeterValuePeriodic'],
  );
  assertSchemaValid(h, 'ocpp2.1');
  h.stop();
});

test('API commands are judged by the version: configuration shapes, local list statuses, EVSE numbering', () => {
  const w16 = wireFor('ocpp1.6');
  const w2 = wireFor('ocpp2.0.1');
  assert.deepEqual(w16.configurationCommand({ key: 'HeartbeatInterval', value: '5' }, 'ocpp1.6'), {
    type: 'CHANGE_CONFIGURATION',
    key: 'HeartbeatInterval',
    value: '5',
  });
  assert.match(
    (
      w16.configurationCommand({ component: 'C', variable: 'V', value: '5' }, 'ocpp1.6') as {
        problem: string;
      }
    ).problem,
    /OCPP 1\.6/,
  );
  assert.match(
    (w2.configurationCommand({ key: 'HeartbeatInterval', value: '5' }, 'ocpp2.0.1') as { problem: string })
      .problem,
    /OCPP 2\.0\.1/,
  );
  const list = { version: 1, updateType: 'Full' as const, entries: [{ idTag: 'A', status: 'NoCredit' }] };
  assert.match(w16.localListProblem(list)!, /NoCredit/);
  assert.equal(w2.localListProblem(list), undefined);
  assert.equal(w16.connectorOf({ connectorId: 2, evseId: 1 }), 2);
  assert.equal(w2.connectorOf({ connectorId: 1, evseId: 2 }), 2);
});
