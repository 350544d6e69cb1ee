// Transactions and meter values (blocks/transactions.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, harness, online } from '../charger-harness.ts';
import { aRemoteStart } from '../builders.ts';
import { energyOf, lastStatus, samples } from '../observations.ts';

for (const version of VERSIONS) {
  test(`${version}: J02 meter values every MeterValueSampleInterval grow with the energy (22 kW: 366 Wh a minute)`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    for (let i = 0; i < 3; i++) h.tick(60_000);
    const meter = samples(h);
    assert.deepEqual(meter.map(energyOf), [366, 733, 1100]);
    if (version === 'ocpp1.6') assert.ok(meter.every((c) => c.payload.transactionId === 100));
    else
      assert.deepEqual(
        meter.map((c) => c.payload.seqNo),
        [2, 3, 4], // after Started (0) and ChargingStateChanged (1)
      );
    h.finish();
  });

  test(`${version}: E10 EV_STOPS_ENERGY suspends the session (SuspendedEV) and the meter stops growing`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    h.tick(60_000);
    h.send({ type: 'EV_STOPS_ENERGY', connectorId: 1, commandId: 'full' });
    assert.equal(h.connector(1).status, 'SuspendedEV');
    assert.equal(h.results.at(-1)!.ok, true);
    if (version === 'ocpp1.6') assert.equal(lastStatus(h), 'SuspendedEV');
    else {
      const ev = h.callsOf('TransactionEvent').at(-1)!.payload;
      assert.equal(ev.triggerReason, 'ChargingStateChanged');
      assert.equal(ev.transactionInfo.chargingState, 'SuspendedEV');
    }
    h.tick(60_000);
    h.tick(60_000);
    assert.deepEqual(samples(h).map(energyOf), [366, 366, 366]);
    h.finish();
  });

  test(`${version}: EV_STOPS_ENERGY without a transaction fails INVALID_STATE`, () => {
    const h = online(version);
    h.send({ type: 'EV_STOPS_ENERGY', connectorId: 1, commandId: 'x' });
    assert.equal(h.results.at(-1)!.error!.code, 'INVALID_STATE');
    h.finish();
  });

  test(`${version}: E09 unplugging ends the transaction (EV disconnected) and frees the connector`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    h.send({ type: 'UNPLUG', connectorId: 1, commandId: 'u' });
    assert.equal(h.connector(1).tx, undefined);
    assert.equal(h.connector(1).status, 'Available');
    if (version === 'ocpp1.6') assert.equal(h.callsOf('StopTransaction')[0].payload.reason, 'EVDisconnected');
    else
      assert.equal(
        h.callsOf('TransactionEvent').at(-1)!.payload.transactionInfo.stoppedReason,
        'EVDisconnected',
      );
    h.finish();
  });

  for (const [command, code] of [
    [{ type: 'PLUG_IN', connectorId: 9 }, 'UNKNOWN_CONNECTOR'],
    [{ type: 'UNPLUG', connectorId: 1 }, 'INVALID_STATE'],
  ] as const) {
    test(`${version}: ${command.type} on connector ${command.connectorId} fails ${code}`, () => {
      const h = online(version);
      h.send({ ...command, commandId: 'c' });
      assert.equal(h.results.at(-1)!.error!.code, code);
      h.finish();
    });
  }
}

test('ocpp1.6: E04/E12 offline: StartTransaction, MeterValues and StopTransaction queue up and leave in order with the CSMS id', () => {
  const h = harness('ocpp1.6', { connect: 'manual' });
  h.deploy();
  h.link.sendBack!({ type: 'link.open' });
  assert.equal(h.stage(), 'online');
  h.send({ type: 'DISCONNECT' });
  assert.equal(h.stage(), 'offline');
  // Offline: the token is authorized by the local list, the session runs and ends.
  h.send({
    type: 'SEND_LOCAL_LIST',
    list: { version: 1, updateType: 'Full', entries: [{ idTag: 'LOCAL-1', status: 'Accepted' }] },
  });
  h.send({ type: 'PLUG_IN', connectorId: 2 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'LOCAL-1', commandId: 'tok' });
  assert.equal(h.connector(2).status, 'Charging');
  assert.equal(h.results.at(-1)!.ok, true);
  const sent = h.calls.length;
  h.tick(500); // before the reconnect (750 ms)
  assert.equal(h.stage(), 'offline');
  for (let i = 0; i < 2; i++) h.tick(60_000);
  h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'LOCAL-1' });
  h.send({ type: 'UNPLUG', connectorId: 2 });
  assert.equal(h.connector(2).status, 'Available');
  assert.deepEqual(
    h.ctx().outbox.map((o) => o.action),
    ['StartTransaction', 'MeterValues', 'MeterValues', 'StopTransaction'],
  );
  assert.equal(h.calls.length, sent, 'nothing was sent while offline');
  // The reconnect attempt happened meanwhile and is still waiting for the socket to open.
  assert.equal(h.stage(), 'connecting');
  h.link.sendBack!({ type: 'link.open' });
  assert.equal(h.stage(), 'online');
  const after = h
    .callsSince(sent)
    .filter((c) => c.action !== 'StatusNotification' && c.action !== 'BootNotification');
  assert.deepEqual(
    after.map((c) => c.action),
    ['StartTransaction', 'MeterValues', 'MeterValues', 'StopTransaction'],
  );
  assert.deepEqual(
    after.slice(1).map((c) => c.payload.transactionId),
    [100, 100, 100],
  );
  assert.equal(h.ctx().outbox.length, 0);
  assert.deepEqual(h.stageLog().slice(-1), ['online:recovered']);
  h.finish();
});

test('ocpp2.0.1: E11/E12 offline TransactionEvents carry offline: true and keep their seqNo order', async () => {
  const h = harness('ocpp2.0.1', { connect: 'manual' });
  h.deploy();
  h.link.sendBack!({ type: 'link.open' });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1', { idTag: 'R', remoteStartId: 1 }));
  h.send({ type: 'DISCONNECT' });
  const sent = h.calls.length;
  for (let i = 0; i < 2; i++) h.tick(60_000);
  h.send({ type: 'EV_STOPS_ENERGY', connectorId: 1 });
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.equal(h.calls.length, sent);
  h.link.sendBack!({ type: 'link.open' });
  const tx = h.callsSince(sent).filter((c) => c.action === 'TransactionEvent');
  assert.deepEqual(
    tx.map((c) => [c.payload.eventType, c.payload.triggerReason, c.payload.seqNo, c.payload.offline]),
    [
      ['Updated', 'MeterValuePeriodic', 2, true],
      ['Updated', 'MeterValuePeriodic', 3, true],
      ['Updated', 'ChargingStateChanged', 4, true],
      ['Ended', 'EVCommunicationLost', 5, true],
    ],
  );
  assert.equal(tx[2].payload.transactionInfo.chargingState, 'SuspendedEV');
  assert.deepEqual(h.stageLog().slice(-1), ['online:recovered']);
  h.finish();
});

test('ocpp1.6: a MeterValues given up after its attempts does not lose the StopTransaction', () => {
  const h = online('ocpp1.6', { answers: { MeterValues: () => ({ error: 'InternalError' }) } });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'T' });
  assert.equal(h.callsOf('StartTransaction').length, 1);
  h.tick(60_000);
  assert.ok(h.callsOf('MeterValues').length >= 3, 'the reading was tried TransactionMessageAttempts times');
  h.send({ type: 'UNPLUG', connectorId: 1 });
  const stops = h.callsOf('StopTransaction');
  assert.equal(stops.length, 1);
  assert.equal(typeof stops[0].payload.transactionId, 'number');
  h.finish();
});

test('ocpp1.6: E05 a StartTransaction the CSMS answers Invalid ends the transaction (DeAuthorized)', () => {
  const h = online('ocpp1.6', {
    answers: { StartTransaction: () => ({ idTagInfo: { status: 'Invalid' }, transactionId: 5 }) },
  });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'T' });
  assert.equal(h.connector(1).tx, undefined);
  const stop = h.callsOf('StopTransaction')[0].payload;
  assert.deepEqual([stop.transactionId, stop.reason], [5, 'DeAuthorized']);
  h.finish();
});

test('ocpp2.0.1: E14 GetTransactionStatus: messagesInQueue while the transaction messages of an offline spell wait, ongoingIndicator for a running or ended transaction', async () => {
  // The CSMS holds the first TransactionEvent it gets after the reconnect: the rest stay queued.
  let holding = false;
  const held: string[] = [];
  const h = harness('ocpp2.0.1', {
    connect: 'manual',
    answers: { TransactionEvent: (p) => (holding ? (held.push(p.eventType), 'hold') : {}) },
  });
  h.deploy();
  h.link.sendBack!({ type: 'link.open' });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1', { idTag: 'R', remoteStartId: 1 }));
  const id = h.connector(1).tx!.id!;
  assert.deepEqual(await h.csmsCall('GetTransactionStatus', { transactionId: id }), {
    messagesInQueue: false,
    ongoingIndicator: true,
  });
  h.send({ type: 'DISCONNECT' });
  h.tick(60_000);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  holding = true;
  h.link.sendBack!({ type: 'link.open' });
  assert.equal(h.stage(), 'online');
  assert.deepEqual(held, ['Updated']);
  assert.ok(h.ctx().outbox.length > 1);
  // Ended, but its messages wait: the charger still knows it.
  assert.deepEqual(await h.csmsCall('GetTransactionStatus', { transactionId: id }), {
    messagesInQueue: true,
    ongoingIndicator: false,
  });
  assert.deepEqual(await h.csmsCall('GetTransactionStatus', {}), { messagesInQueue: true });
  assert.deepEqual(await h.csmsCall('GetTransactionStatus', { transactionId: 'nope' }), {
    messagesInQueue: false,
    ongoingIndicator: false,
  });
  holding = false;
  while (h.held.length) h.release(h.held[0]);
  assert.equal(h.ctx().outbox.length, 0);
  assert.deepEqual(await h.csmsCall('GetTransactionStatus', {}), { messagesInQueue: false });
  h.finish();
});
