// Availability (blocks/availability.ts): heartbeat, connector status, ChangeAvailability, faults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, harness, online } from '../charger-harness.ts';
import { HEARTBEAT_INTERVAL, aChangeAvailability, aConfigurationChange, aRemoteStart } from '../builders.ts';
import { lastStatus, statusesOf } from '../observations.ts';

test('ocpp1.6: G01 after boot, StatusNotification for the charger (connector 0) and every connector', () => {
  const h = online('ocpp1.6');
  assert.deepEqual(
    h.callsOf('StatusNotification').map((c) => [c.payload.connectorId, c.payload.status]),
    [
      [0, 'Available'],
      [1, 'Available'],
      [2, 'Available'],
    ],
  );
  h.finish();
});

test('ocpp2.0.1: G01 after boot, StatusNotification for every EVSE (one connector each)', () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(
    h
      .callsOf('StatusNotification')
      .map((c) => [c.payload.evseId, c.payload.connectorId, c.payload.connectorStatus]),
    [
      [1, 1, 'Available'],
      [2, 1, 'Available'],
    ],
  );
  h.finish();
});

for (const version of VERSIONS) {
  test(`${version}: G02 heartbeat at the interval the BootNotification answer gave`, () => {
    const h = online(version);
    h.tick(299_000);
    assert.equal(h.callsOf('Heartbeat').length, 0);
    h.tick(1_000);
    assert.equal(h.callsOf('Heartbeat').length, 1);
    h.tick(300_000);
    assert.equal(h.callsOf('Heartbeat').length, 2);
    h.finish();
  });

  test(`${version}: G02 a changed HeartbeatInterval sets the next heartbeat from now`, async () => {
    const h = online(version);
    h.tick(300_000);
    h.tick(300_000);
    assert.equal(h.callsOf('Heartbeat').length, 2);
    await h.csmsCall(...aConfigurationChange(version, HEARTBEAT_INTERVAL, '60'));
    h.tick(60_000);
    assert.equal(h.callsOf('Heartbeat').length, 3);
    h.tick(60_000);
    assert.equal(h.callsOf('Heartbeat').length, 4);
    h.finish();
  });

  test(`${version}: G03 ChangeAvailability Inoperative: the connector reports Unavailable`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall(...aChangeAvailability(version, 2, false)), { status: 'Accepted' });
    assert.equal(h.connector(2).status, 'Unavailable');
    assert.equal(lastStatus(h), 'Unavailable');
    h.finish();
  });

  test(`${version}: G03 ChangeAvailability Operative again: the connector reports Available`, async () => {
    const h = online(version);
    await h.csmsCall(...aChangeAvailability(version, 2, false));
    assert.deepEqual(await h.csmsCall(...aChangeAvailability(version, 2, true)), { status: 'Accepted' });
    assert.equal(h.connector(2).status, 'Available');
    assert.deepEqual(statusesOf(h, 2), ['Available', 'Unavailable', 'Available']);
    h.finish();
  });

  test(`${version}: G03 Inoperative during a transaction is Scheduled: Unavailable once it ends`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    assert.deepEqual(await h.csmsCall(...aChangeAvailability(version, 1, false)), { status: 'Scheduled' });
    assert.equal(h.connector(1).status, 'Charging');
    h.send({ type: 'UNPLUG', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Unavailable');
    h.finish();
  });

  test(`${version}: FAULT stops the transaction and reports Faulted`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    h.send({ type: 'FAULT', connectorId: 1, errorCode: 'GroundFailure' });
    assert.equal(h.connector(1).status, 'Faulted');
    assert.equal(h.connector(1).tx, undefined);
    const last = h.callsOf('StatusNotification').at(-1)!.payload;
    if (version === 'ocpp1.6') assert.deepEqual([last.status, last.errorCode], ['Faulted', 'GroundFailure']);
    else assert.equal(last.connectorStatus, 'Faulted');
    h.finish();
  });

  test(`${version}: CLEAR_FAULT brings a plugged connector back to Preparing`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    h.send({ type: 'FAULT', connectorId: 1, errorCode: 'GroundFailure' });
    h.send({ type: 'CLEAR_FAULT', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Preparing');
    h.finish();
  });
}

test('ocpp1.6: G03 ChangeAvailability of an unknown connector is Rejected', async () => {
  const h = online('ocpp1.6');
  assert.deepEqual(await h.csmsCall(...aChangeAvailability('ocpp1.6', 9, true)), { status: 'Rejected' });
  h.finish();
});

test('ocpp1.6: G04 ChangeAvailability of connector 0 takes the whole charger out of service', async () => {
  const h = harness('ocpp1.6');
  h.deploy();
  assert.deepEqual(await h.csmsCall(...aChangeAvailability('ocpp1.6', 0, false)), { status: 'Accepted' });
  assert.deepEqual(
    h
      .callsOf('StatusNotification')
      .slice(-3)
      .map((c) => [c.payload.connectorId, c.payload.status]),
    [
      [0, 'Unavailable'],
      [1, 'Unavailable'],
      [2, 'Unavailable'],
    ],
  );
  h.finish();
});
