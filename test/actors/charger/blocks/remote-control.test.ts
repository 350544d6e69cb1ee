// Remote control (blocks/remote-control.ts): remote start and stop, unlock, trigger, reset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, online, type Harness } from '../charger-harness.ts';
import { aRemoteStart, aRemoteStop, aTrigger, anUnlock } from '../builders.ts';
import { samples, statusesOf } from '../observations.ts';

/** The charger's transaction id as the CSMS names it (1.6: the CSMS's number). */
const txIdOf = (h: Harness) =>
  h.version === 'ocpp1.6' ? 100 : h.callsOf('TransactionEvent')[0].payload.transactionInfo.transactionId;

for (const version of VERSIONS) {
  test(`${version}: F01 remote start on a plugged connector: Accepted, and the transaction starts`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'plug' });
    assert.equal(h.connector(1).status, 'Preparing');
    const answer = await h.csmsCall(...aRemoteStart(version));
    assert.equal(answer.status, 'Accepted');
    assert.equal(h.connector(1).status, 'Charging');
    assert.equal(answer.transactionId, h.connector(1).tx!.id); // 2.0.1 names it in the answer
    if (version === 'ocpp1.6') {
      const start = h.callsOf('StartTransaction')[0];
      assert.deepEqual(
        { ...start.payload, timestamp: 'x' },
        { connectorId: 1, idTag: 'REMOTE-1', meterStart: 0, timestamp: 'x' },
      );
    } else {
      const started = h.callsOf('TransactionEvent')[0].payload;
      assert.equal(started.eventType, 'Started');
      assert.equal(started.triggerReason, 'RemoteStart');
      assert.equal(started.seqNo, 0);
      assert.equal(started.transactionInfo.remoteStartId, 7);
      assert.deepEqual(started.idToken, { idToken: 'REMOTE-1', type: 'Central' });
    }
    assert.equal(h.results[0].commandId, 'plug');
    h.finish();
  });

  test(`${version}: F03 remote stop: the transaction ends with reason Remote`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    for (let i = 0; i < 3; i++) h.tick(60_000);
    assert.deepEqual(await h.csmsCall(...aRemoteStop(version, txIdOf(h))), { status: 'Accepted' });
    if (version === 'ocpp1.6') {
      const s = h.callsOf('StopTransaction')[0].payload;
      assert.equal(s.transactionId, 100);
      assert.equal(s.reason, 'Remote');
      assert.equal(s.meterStop, 1100);
    } else {
      const ended = h.callsOf('TransactionEvent').at(-1)!.payload;
      assert.equal(ended.eventType, 'Ended');
      assert.equal(ended.triggerReason, 'RemoteStop');
      assert.equal(ended.transactionInfo.stoppedReason, 'Remote');
      assert.equal(ended.seqNo, 5); // Started 0, ChargingStateChanged 1, three samples
    }
    h.finish();
  });

  test(`${version}: F03 after a remote stop the connector stays Finishing, without samples, until unplugged`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    for (let i = 0; i < 3; i++) h.tick(60_000);
    await h.csmsCall(...aRemoteStop(version, txIdOf(h)));
    assert.equal(h.connector(1).status, 'Finishing');
    h.tick(600_000);
    assert.equal(h.connector(1).status, 'Finishing');
    assert.equal(samples(h).length, 3);
    h.send({ type: 'UNPLUG', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Available');
    assert.deepEqual(
      statusesOf(h, 1),
      version === 'ocpp1.6'
        ? ['Available', 'Preparing', 'Charging', 'Finishing', 'Available']
        : ['Available', 'Occupied', 'Available'],
    );
    h.finish();
  });

  test(`${version}: F02 remote start before the cable: Preparing, then the cable starts it`, async () => {
    const h = online(version);
    assert.equal((await h.csmsCall(...aRemoteStart(version))).status, 'Accepted');
    assert.equal(h.connector(1).status, 'Preparing');
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Charging');
    h.finish();
  });
}

test('ocpp1.6: F03 RemoteStopTransaction of an unknown transaction is Rejected', async () => {
  const h = online('ocpp1.6');
  assert.deepEqual(await h.csmsCall(...aRemoteStop('ocpp1.6', 999)), { status: 'Rejected' });
  h.finish();
});

test('ocpp2.0.1: F03 RequestStopTransaction of an unknown transaction is Rejected', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await h.csmsCall(...aRemoteStop('ocpp2.0.1', 'nope')), { status: 'Rejected' });
  h.finish();
});

for (const [version, connectorId, status] of [
  ['ocpp1.6', 1, 'Unlocked'],
  ['ocpp1.6', 9, 'UnlockFailed'],
  ['ocpp2.0.1', 1, 'Unlocked'],
  ['ocpp2.0.1', 7, 'UnknownConnector'],
] as const) {
  test(`${version}: F05 UnlockConnector ${connectorId} is ${status}`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall(...anUnlock(version, connectorId)), { status });
    h.finish();
  });
}

test('ocpp1.6: F05 unlocking a connector with a transaction ends it (UnlockCommand)', async () => {
  const h = online('ocpp1.6');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp1.6'));
  assert.deepEqual(await h.csmsCall(...anUnlock('ocpp1.6', 1)), { status: 'Unlocked' });
  assert.equal(h.callsOf('StopTransaction')[0].payload.reason, 'UnlockCommand');
  h.finish();
});

test('ocpp2.0.1: F05 a connector with a transaction is not unlocked (OngoingAuthorizedTransaction)', async () => {
  const h = online('ocpp2.0.1');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  assert.deepEqual(await h.csmsCall(...anUnlock('ocpp2.0.1', 1)), { status: 'OngoingAuthorizedTransaction' });
  h.finish();
});

test('ocpp1.6: F06 TriggerMessage StatusNotification for connector 2 sends exactly that', async () => {
  const h = online('ocpp1.6');
  const before = h.calls.length;
  assert.deepEqual(await h.csmsCall(...aTrigger('ocpp1.6', 'StatusNotification', 2)), { status: 'Accepted' });
  assert.deepEqual(
    h.callsSince(before).map((c) => [c.action, c.payload.connectorId]),
    [['StatusNotification', 2]],
  );
  h.finish();
});

for (const [message, connectorId, sent] of [
  ['Heartbeat', undefined, 'Heartbeat'],
  ['MeterValues', 1, 'MeterValues'],
  ['FirmwareStatusNotification', undefined, 'FirmwareStatusNotification'],
  ['DiagnosticsStatusNotification', undefined, 'DiagnosticsStatusNotification'],
] as const) {
  test(`ocpp1.6: F06 TriggerMessage ${message} is Accepted and sends ${sent}`, async () => {
    const h = online('ocpp1.6');
    assert.deepEqual(await h.csmsCall(...aTrigger('ocpp1.6', message, connectorId)), { status: 'Accepted' });
    assert.equal(h.calls.at(-1)!.action, sent);
    h.finish();
  });
}

for (const [message, sent] of [
  ['FirmwareStatusNotification', 'SignedFirmwareStatusNotification'],
  ['LogStatusNotification', 'LogStatusNotification'],
] as const) {
  test(`ocpp1.6: ExtendedTriggerMessage ${message} is Accepted and sends ${sent} (Idle: nothing runs)`, async () => {
    const h = online('ocpp1.6');
    assert.deepEqual(await h.csmsCall('ExtendedTriggerMessage', { requestedMessage: message }), {
      status: 'Accepted',
    });
    const last = h.calls.at(-1)!;
    assert.equal(last.action, sent);
    assert.equal(last.payload.status, 'Idle');
    h.finish();
  });
}

for (const [message, connectorId, status] of [
  ['StatusNotification', 1, 'Accepted'],
  ['PublishFirmwareStatusNotification', undefined, 'NotImplemented'],
] as const) {
  test(`ocpp2.0.1: F06 TriggerMessage ${message} is ${status}`, async () => {
    const h = online('ocpp2.0.1');
    assert.deepEqual(await h.csmsCall(...aTrigger('ocpp2.0.1', message, connectorId)), { status });
    h.finish();
  });
}

test('ocpp2.0.1: F06.FR.17 TriggerMessage BootNotification once the boot is accepted: Rejected, no boot sent', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await h.csmsCall(...aTrigger('ocpp2.0.1', 'BootNotification')), { status: 'Rejected' });
  assert.equal(h.callsOf('BootNotification').length, 1);
  h.finish();
});

test('ocpp1.6: F06 TriggerMessage BootNotification while online: Accepted, and a BootNotification', async () => {
  const h = online('ocpp1.6');
  assert.deepEqual(await h.csmsCall(...aTrigger('ocpp1.6', 'BootNotification')), { status: 'Accepted' });
  assert.equal(h.callsOf('BootNotification').length, 2);
  assert.equal(h.stage(), 'online');
  h.finish();
});

test('ocpp1.6: B12 Reset Soft stops the transaction with reason SoftReset, answers, then reboots through BootNotification', async () => {
  const h = online('ocpp1.6');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp1.6', { idTag: 'R' }));
  const boots = h.callsOf('BootNotification').length;
  assert.deepEqual(await h.csmsCall('Reset', { type: 'Soft' }), { status: 'Accepted' });
  assert.equal(h.callsOf('StopTransaction')[0].payload.reason, 'SoftReset');
  h.tick(200);
  assert.equal(h.stage(), 'online');
  assert.equal(h.callsOf('BootNotification').length, boots + 1);
  assert.ok(h.stageLog().includes('starting:in_progress'));
  assert.deepEqual(h.stageLog().slice(-1), ['online:succeeded']);
  h.finish();
});

test('ocpp2.0.1: B12 Reset OnIdle is Scheduled during a transaction and reboots when it ends', async () => {
  const h = online('ocpp2.0.1');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1', { idTag: 'R', remoteStartId: 1 }));
  const boots = h.callsOf('BootNotification').length;
  assert.deepEqual(await h.csmsCall('Reset', { type: 'OnIdle' }), { status: 'Scheduled' });
  h.tick(1_000);
  assert.equal(h.callsOf('BootNotification').length, boots);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  h.tick(200);
  assert.equal(h.callsOf('BootNotification').length, boots + 1);
  assert.equal(h.stage(), 'online');
  h.finish();
});

test('ocpp2.0.1: B11 Reset Immediate without a transaction reboots after the grace', async () => {
  const h = online('ocpp2.0.1');
  const boots = h.callsOf('BootNotification').length;
  assert.deepEqual(await h.csmsCall('Reset', { type: 'Immediate' }), { status: 'Accepted' });
  h.tick(199);
  assert.equal(h.callsOf('BootNotification').length, boots);
  h.tick(1);
  assert.equal(h.callsOf('BootNotification').length, boots + 1);
  h.finish();
});

test('ocpp2.0.1: B11 Reset of one EVSE is Rejected', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await h.csmsCall('Reset', { type: 'Immediate', evseId: 1 }), { status: 'Rejected' });
  h.finish();
});

test('ocpp2.0.1: F06 TriggerMessage MeterValues on an EVSE with a transaction sends MeterValues (context Trigger), not a TransactionEvent', async () => {
  const h = online('ocpp2.0.1');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  const events = h.callsOf('TransactionEvent').length;
  assert.deepEqual(await h.csmsCall(...aTrigger('ocpp2.0.1', 'MeterValues', 1)), { status: 'Accepted' });
  assert.equal(h.callsOf('TransactionEvent').length, events);
  const [mv] = h.callsOf('MeterValues');
  assert.equal(mv.payload.evseId, 1);
  assert.equal(mv.payload.meterValue[0].sampledValue[0].context, 'Trigger');
  // TriggerMessage TransactionEvent is still the transaction's Updated event.
  assert.deepEqual(await h.csmsCall(...aTrigger('ocpp2.0.1', 'TransactionEvent', 1)), { status: 'Accepted' });
  assert.equal(h.callsOf('TransactionEvent').at(-1)!.payload.triggerReason, 'Trigger');
  h.finish();
});

test('ocpp1.6: F06 TriggerMessage MeterValues on a connector with a transaction sends MeterValues naming it', async () => {
  const h = online('ocpp1.6');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp1.6'));
  h.tick(0);
  assert.deepEqual(await h.csmsCall(...aTrigger('ocpp1.6', 'MeterValues', 1)), { status: 'Accepted' });
  const mv = h.callsOf('MeterValues').at(-1)!;
  assert.equal(mv.payload.transactionId, 100);
  assert.equal(mv.payload.meterValue[0].sampledValue[0].context, 'Trigger');
  h.finish();
});

for (const [version, type] of [
  ['ocpp1.6', 'Soft'],
  ['ocpp1.6', 'Hard'],
  ['ocpp2.0.1', 'Immediate'],
] as const)
  test(`${version}: A04 Reset ${type}: once booted again, SecurityEventNotification ResetOrReboot then StartupOfTheDevice, timed at the reboot`, async () => {
    const h = online(version);
    h.tick(5_000);
    const rebootAt = new Date(h.clock.now() + 200).toISOString();
    assert.deepEqual(await h.csmsCall('Reset', { type }), { status: 'Accepted' });
    assert.equal(h.callsOf('SecurityEventNotification').length, 0);
    h.tick(200);
    assert.equal(h.stage(), 'online');
    const actions = h.calls.map((c) => c.action);
    const boot = actions.lastIndexOf('BootNotification');
    const events = h.callsOf('SecurityEventNotification');
    assert.deepEqual(
      events.map((e) => [e.payload.type, e.payload.timestamp]),
      [
        ['ResetOrReboot', rebootAt],
        ['StartupOfTheDevice', rebootAt],
      ],
    );
    assert.ok(actions.indexOf('SecurityEventNotification') > boot, 'told after the boot');
    h.finish();
  });
