// The OCPP 2.1 charger's table of CSMS calls (ocpp21/ocpp21-calls.ts): 2.0.1's, with what 2.1
// changes, and the 2.1 features it lacks answered as a 2.1 station without them answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { online } from '../charger-harness.ts';
import { aRemoteStart } from '../builders.ts';
import { OCPP_CALLS } from '../../../../actors/charger/ocpp-wires.ts';
import { NOT_SUPPORTED_21 } from '../../../../actors/charger/ocpp21/ocpp21-calls.ts';
import { actionsOf } from '../../../../protocols/ocpp/index.ts';
import { schemaErrors } from '../../../support/official-schemas.ts';

const V = 'ocpp2.1';

test('ocpp2.1: every CSMS call the 2.0.1 charger answers, the 2.1 charger answers too', () => {
  for (const action of Object.keys(OCPP_CALLS['ocpp2.0.1']))
    assert.ok(OCPP_CALLS[V][action], `${action} is missing from the 2.1 table`);
  // And each 2.1 addition is a 2.1 action.
  const known = new Set<string>(actionsOf(V));
  for (const action of Object.keys(OCPP_CALLS[V])) assert.ok(known.has(action), action);
});

// One of each 2.1 block the charger has no behaviour for (named by its block: docs/ocpp21.md), each
// payload valid under the 2.1 schema: the answer is a CALLERROR NotSupported (the action is known,
// the feature absent), and the charger carries on.
const REFUSED: [string, string, object][] = [
  ['K priority charging:', 'UsePriorityCharging', { transactionId: 'x', activate: true }],
  ['K dynamic profiles:', 'UpdateDynamicSchedule', { chargingProfileId: 1, scheduleUpdate: { limit: 1000 } }],
  ['N periodic event streams:', 'GetPeriodicEventStream', {}],
  ['C web payment:', 'NotifyWebPaymentStarted', { evseId: 1, timeout: 60 }],
  ['S battery swap:', 'RequestBatterySwap', { idToken: { idToken: 'A', type: 'Central' }, requestId: 1 }],
  ['Q aFRR:', 'AFRRSignal', { timestamp: new Date().toISOString(), signal: 1 }],
];

for (const [useCase, action, payload] of REFUSED)
  test(`ocpp2.1: ${useCase} ${action} is answered NotSupported and the charger carries on`, async () => {
    assert.equal(schemaErrors(V, action, 'Request', payload), null);
    const h = online(V);
    await assert.rejects(h.csmsCall(action, payload), /NotSupported/);
    assert.equal(h.stage(), 'online');
    assert.deepEqual(await h.csmsCall('GetTariffs', { evseId: 0 }), { status: 'NoTariff' });
    h.finish();
  });

test('ocpp2.1: the refused actions are all 2.1 actions that a CSMS sends', () => {
  const known = new Set<string>(actionsOf(V));
  for (const action of Object.keys(NOT_SUPPORTED_21)) assert.ok(known.has(action), action);
});

test('ocpp2.1: an action of no version stays NotImplemented', async () => {
  const h = online(V);
  await assert.rejects(h.csmsCall('MakeCoffee', {}), /NotImplemented/);
  h.finish();
});

test('ocpp2.1: N02 GetMonitoringReport names each monitor a CustomMonitor, as the 2.1 schema requires', async () => {
  const h = online(V);
  const set = await h.csmsCall('SetVariableMonitoring', {
    setMonitoringData: [
      {
        component: { name: 'EVSE', evse: { id: 1 } },
        variable: { name: 'Power' },
        severity: 5,
        type: 'UpperThreshold',
        value: 1000,
      },
    ],
  });
  assert.equal(set.setMonitoringResult[0].status, 'Accepted');
  assert.deepEqual(await h.csmsCall('GetMonitoringReport', { requestId: 2 }), { status: 'Accepted' });
  const [report] = h.callsOf('NotifyMonitoringReport');
  assert.equal(report.payload.monitor[0].variableMonitoring[0].eventNotificationType, 'CustomMonitor');
  h.finish();
});

test('ocpp2.1: B01 E02 J02 a session sends 2.1-valid BootNotification, StatusNotification, TransactionEvent and MeterValues', async () => {
  const h = online(V);
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(V));
  h.tick(60_000);
  await h.csmsCall('TriggerMessage', { requestedMessage: 'MeterValues', evse: { id: 1 } });
  await h.csmsCall('TriggerMessage', {
    requestedMessage: 'StatusNotification',
    evse: { id: 2, connectorId: 1 },
  });
  for (const action of ['BootNotification', 'StatusNotification', 'TransactionEvent', 'MeterValues'])
    assert.ok(h.callsOf(action).length > 0, action);
  // finish(): every message checked against the official 2.1 schemas
  h.finish();
});
