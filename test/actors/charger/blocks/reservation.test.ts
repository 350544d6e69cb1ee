// Reservation (blocks/reservation.ts): 1.6 ReserveNow / CancelReservation, 2.0.1 block H.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T0, VERSIONS, harness, online, type Harness } from '../charger-harness.ts';
import { aChangeAvailability, aRemoteStart, aReserveNow } from '../builders.ts';
import { statusesOf } from '../observations.ts';
import type { OcppVersion } from '../../../../actors/charger/charger-ports.ts';

const IN_10_MIN = T0 + 600_000;
const startMessage = (v: OcppVersion) => (v === 'ocpp1.6' ? 'StartTransaction' : 'TransactionEvent');
/** The transaction starts the charger sent (2.0.1: TransactionEvent Started, not the Updated ones). */
const startsOf = (h: Harness, v: OcppVersion) =>
  h.callsOf(startMessage(v)).filter((c) => v === 'ocpp1.6' || c.payload.eventType === 'Started');

/** PRESENT_TOKEN at a connector; returns the command's result. */
function present(h: Harness, connectorId: number, idTag: string) {
  const commandId = `present-${h.results.length}-${idTag}`;
  h.send({ type: 'PRESENT_TOKEN', connectorId, idTag, commandId });
  h.tick(0);
  return h.results.find((r) => r.commandId === commandId);
}

for (const version of VERSIONS) {
  const v16 = version === 'ocpp1.6';

  test(`${version}: H01 ReserveNow on an Available connector: Accepted, and the connector reports Reserved`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall(...aReserveNow(version, { expiresAt: IN_10_MIN })), {
      status: 'Accepted',
    });
    assert.equal(h.connector(1).status, 'Reserved');
    assert.deepEqual(statusesOf(h, 1), ['Available', 'Reserved']);
    assert.deepEqual(statusesOf(h, 2), ['Available']);
    h.finish();
  });

  const refusals: [string, (h: Harness) => Promise<unknown> | void, string][] = [
    ['a cable plugged in (Preparing)', (h) => h.send({ type: 'PLUG_IN', connectorId: 1 }), 'Occupied'],
    [
      'a transaction running',
      (h) => {
        h.send({ type: 'PLUG_IN', connectorId: 1 });
        present(h, 1, 'OTHER');
      },
      'Occupied',
    ],
    [
      'already reserved by another reservation',
      (h) => h.csmsCall(...aReserveNow(version, { id: 9, expiresAt: IN_10_MIN })),
      'Occupied',
    ],
    ['faulted', (h) => h.send({ type: 'FAULT', connectorId: 1 }), 'Faulted'],
    ['inoperative', (h) => h.csmsCall(...aChangeAvailability(version, 1, false)), 'Unavailable'],
  ];
  for (const [what, before, status] of refusals)
    test(`${version}: H01 ReserveNow on a connector ${what}: ${status}, nothing reserved`, async () => {
      const h = online(version);
      await before(h);
      h.tick(0);
      const statusBefore = h.connector(1).status;
      assert.deepEqual(await h.csmsCall(...aReserveNow(version, { expiresAt: IN_10_MIN })), { status });
      assert.equal(h.connector(1).status, statusBefore);
      h.finish();
    });

  test(`${version}: H01 ReserveNow on a connector the charger does not have: Rejected`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall(...aReserveNow(version, { connectorId: 3, expiresAt: IN_10_MIN })), {
      status: 'Rejected',
    });
    h.finish();
  });

  test(`${version}: H04 the reservation expires at its expiry date: the connector is Available again`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { id: 5, expiresAt: IN_10_MIN }));
    h.tick(599_000);
    assert.equal(h.connector(1).status, 'Reserved');
    h.tick(1_000);
    assert.equal(h.connector(1).status, 'Available');
    assert.deepEqual(statusesOf(h, 1), ['Available', 'Reserved', 'Available']);
    assert.deepEqual(
      h.callsOf('ReservationStatusUpdate').map((c) => c.payload),
      v16 ? [] : [{ reservationId: 5, reservationUpdateStatus: 'Expired' }],
    );
    assert.equal(h.ctx().reservations, undefined);
    h.finish();
  });

  test(`${version}: H04 a charger restored from its snapshot still lets its reservation expire on time`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { expiresAt: IN_10_MIN }));
    h.tick(300_000);
    h.restart();
    assert.equal(h.connector(1).status, 'Reserved');
    h.tick(300_000);
    assert.equal(h.connector(1).status, 'Available');
    h.finish();
  });

  test(`${version}: H02 CancelReservation of a held reservation: Accepted, the connector is Available again`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { id: 4, expiresAt: IN_10_MIN }));
    assert.deepEqual(await h.csmsCall('CancelReservation', { reservationId: 4 }), { status: 'Accepted' });
    assert.deepEqual(statusesOf(h, 1), ['Available', 'Reserved', 'Available']);
    assert.equal(h.ctx().timers.reservation, undefined);
    assert.equal(h.callsOf('ReservationStatusUpdate').length, 0);
    h.finish();
  });

  test(`${version}: H02 CancelReservation of an unknown reservation: Rejected`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall('CancelReservation', { reservationId: 77 }), { status: 'Rejected' });
    h.finish();
  });

  test(`${version}: H01 ReserveNow with a known id replaces that reservation (here: on another connector)`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { id: 3, connectorId: 1, expiresAt: IN_10_MIN }));
    assert.deepEqual(
      await h.csmsCall(...aReserveNow(version, { id: 3, connectorId: 2, expiresAt: IN_10_MIN })),
      { status: 'Accepted' },
    );
    assert.deepEqual([h.connector(1).status, h.connector(2).status], ['Available', 'Reserved']);
    assert.equal(h.ctx().reservations?.length, 1);
    h.finish();
  });

  test(`${version}: H03 another token on a reserved connector does not start (nothing asked of the CSMS)`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { idTag: 'RESERVED-1', expiresAt: IN_10_MIN }));
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    const before = h.calls.length;
    const r = present(h, 1, 'SOMEONE-ELSE');
    assert.equal(r?.ok, false);
    assert.equal(r?.error?.code, 'INVALID_STATE');
    assert.match(r?.error?.description ?? '', /reserved/);
    assert.deepEqual(h.callsSince(before), []);
    assert.equal(h.connector(1).tx, undefined);
    assert.equal(h.connector(1).status, 'Reserved');
    h.finish();
  });

  test(`${version}: H03 the reserved token starts on its connector and uses the reservation up`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { id: 8, idTag: 'RESERVED-1', expiresAt: IN_10_MIN }));
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    assert.equal(present(h, 1, 'RESERVED-1')?.ok, true);
    const [start] = startsOf(h, version);
    assert.equal(start.payload.reservationId, 8);
    assert.equal(h.connector(1).status, 'Charging');
    assert.equal(h.ctx().reservations, undefined);
    assert.equal(h.ctx().timers.reservation, undefined);
    assert.deepEqual(statusesOf(h, 1).slice(0, 2), ['Available', 'Reserved']);
    h.finish();
  });

  test(`${version}: H03 the reserved token presented before the cable: Preparing, then the transaction uses the reservation`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { id: 8, idTag: 'RESERVED-1', expiresAt: IN_10_MIN }));
    assert.equal(present(h, 1, 'RESERVED-1')?.ok, true);
    assert.equal(h.connector(1).status, 'Preparing');
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.tick(0);
    assert.equal(startsOf(h, version)[0].payload.reservationId, 8);
    assert.equal(h.ctx().reservations, undefined);
    h.finish();
  });

  test(`${version}: H03 a token of the reservation's parent/group starts once the CSMS's Authorize names that group`, async () => {
    const group = (idTag: string) =>
      idTag === 'CHILD-1'
        ? v16
          ? { idTagInfo: { status: 'Accepted', parentIdTag: 'FLEET-A' } }
          : { idTokenInfo: { status: 'Accepted', groupIdToken: { idToken: 'FLEET-A', type: 'Central' } } }
        : v16
          ? { idTagInfo: { status: 'Accepted' } }
          : { idTokenInfo: { status: 'Accepted' } };
    const h = online(version, {
      answers: { Authorize: (p) => group(v16 ? p.idTag : p.idToken.idToken) },
    });
    await h.csmsCall(
      ...aReserveNow(version, { id: 2, idTag: 'RESERVED-1', parentIdTag: 'FLEET-A', expiresAt: IN_10_MIN }),
    );
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    const stranger = present(h, 1, 'STRANGER');
    assert.equal(stranger?.ok, false);
    assert.equal(stranger?.error?.code, 'INVALID_STATE');
    assert.equal(h.connector(1).tx, undefined);
    assert.equal(present(h, 1, 'CHILD-1')?.ok, true);
    assert.equal(startsOf(h, version)[0].payload.reservationId, 2);
    h.finish();
  });

  test(`${version}: H03 a remote start for another token on a reserved connector: Rejected`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { idTag: 'RESERVED-1', expiresAt: IN_10_MIN }));
    assert.equal(
      (await h.csmsCall(...aRemoteStart(version, { connectorId: 1, idTag: 'REMOTE-1' }))).status,
      'Rejected',
    );
    assert.equal(
      (await h.csmsCall(...aRemoteStart(version, { connectorId: 1, idTag: 'RESERVED-1' }))).status,
      'Accepted',
    );
    h.finish();
  });

  test(`${version}: H01 a reservation of any connector (1.6 connector 0, 2.0.1 no EVSE): the last free connector is kept for it`, async () => {
    const h = online(version);
    assert.deepEqual(
      await h.csmsCall(...aReserveNow(version, { connectorId: 0, idTag: 'ANY-1', expiresAt: IN_10_MIN })),
      { status: 'Accepted' },
    );
    assert.deepEqual([h.connector(1).status, h.connector(2).status], ['Available', 'Available']);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    assert.equal(present(h, 1, 'OTHER-1')?.ok, true);
    h.send({ type: 'PLUG_IN', connectorId: 2 });
    assert.equal(present(h, 2, 'OTHER-2')?.error?.code, 'INVALID_STATE');
    assert.equal(present(h, 2, 'ANY-1')?.ok, true);
    const starts = startsOf(h, version);
    assert.equal(starts[0].payload.reservationId, undefined);
    assert.equal(starts[1].payload.reservationId, 1);
    assert.equal(h.ctx().reservations, undefined);
    h.finish();
  });

  test(`${version}: H01 (TC_H_14) as many reservations of any connector as free connectors: every free connector reports Reserved`, async () => {
    const h = online(version);
    await h.csmsCall(
      ...aReserveNow(version, { id: 1, connectorId: 0, idTag: 'ANY-1', expiresAt: IN_10_MIN }),
    );
    assert.deepEqual([statusesOf(h, 1), statusesOf(h, 2)], [['Available'], ['Available']]);
    await h.csmsCall(
      ...aReserveNow(version, { id: 2, connectorId: 0, idTag: 'ANY-2', expiresAt: IN_10_MIN }),
    );
    assert.deepEqual(
      [statusesOf(h, 1), statusesOf(h, 2)],
      [
        ['Available', 'Reserved'],
        ['Available', 'Reserved'],
      ],
    );
    h.finish();
  });

  test(`${version}: H01 (TC_H_14) the connectors shown Reserved for any-connector reservations are Available again when one ends`, async () => {
    const h = online(version);
    await h.csmsCall(
      ...aReserveNow(version, { id: 1, connectorId: 0, idTag: 'ANY-1', expiresAt: IN_10_MIN }),
    );
    await h.csmsCall(
      ...aReserveNow(version, { id: 2, connectorId: 0, idTag: 'ANY-2', expiresAt: IN_10_MIN + 60_000 }),
    );
    assert.deepEqual(await h.csmsCall('CancelReservation', { reservationId: 2 }), {
      status: 'Accepted',
    });
    assert.deepEqual(
      [statusesOf(h, 1), statusesOf(h, 2)],
      [
        ['Available', 'Reserved', 'Available'],
        ['Available', 'Reserved', 'Available'],
      ],
    );
    h.finish();
  });

  test(`${version}: H01 (TC_H_14) a connector taken by another driver leaves the last free one Reserved for the any-connector reservation, until it is free again`, async () => {
    const h = online(version);
    await h.csmsCall(
      ...aReserveNow(version, { id: 1, connectorId: 0, idTag: 'ANY-1', expiresAt: IN_10_MIN }),
    );
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.tick(0);
    assert.deepEqual(statusesOf(h, 2), ['Available', 'Reserved']);
    h.send({ type: 'UNPLUG', connectorId: 1 });
    h.tick(0);
    assert.deepEqual(statusesOf(h, 1), ['Available', v16 ? 'Preparing' : 'Occupied', 'Available']);
    assert.deepEqual(statusesOf(h, 2), ['Available', 'Reserved', 'Available']);
    h.finish();
  });

  test(`${version}: H01 (TC_H_14) the holder starts on a connector shown Reserved: the reservation is used, nothing stays Reserved`, async () => {
    const h = online(version);
    await h.csmsCall(
      ...aReserveNow(version, { id: 1, connectorId: 0, idTag: 'ANY-1', expiresAt: IN_10_MIN }),
    );
    await h.csmsCall(
      ...aReserveNow(version, { id: 2, connectorId: 0, idTag: 'ANY-2', expiresAt: IN_10_MIN }),
    );
    h.send({ type: 'PLUG_IN', connectorId: 2 });
    assert.equal(present(h, 2, 'ANY-2')?.ok, true);
    assert.equal(startsOf(h, version)[0].payload.reservationId, 2);
    // One reservation left and one free connector: connector 1 stays Reserved for ANY-1.
    assert.equal(h.connector(1).status, 'Reserved');
    assert.equal(present(h, 1, 'OTHER')?.error?.code, 'INVALID_STATE');
    await h.csmsCall('CancelReservation', { reservationId: 1 });
    assert.equal(h.connector(1).status, 'Available');
    assert.equal(h.ctx().reservedForAny, undefined);
    h.finish();
  });

  test(`${version}: H01 a reservation of any connector with every connector busy: Occupied; with the charger inoperative: Unavailable`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.send({ type: 'PLUG_IN', connectorId: 2 });
    h.tick(0);
    assert.deepEqual(
      await h.csmsCall(...aReserveNow(version, { id: 1, connectorId: 0, expiresAt: IN_10_MIN })),
      { status: 'Occupied' },
    );
    await h.csmsCall(...aChangeAvailability(version, 0, false));
    assert.deepEqual(
      await h.csmsCall(...aReserveNow(version, { id: 1, connectorId: 0, expiresAt: IN_10_MIN })),
      { status: 'Unavailable' },
    );
    assert.equal(h.ctx().reservations, undefined);
    h.finish();
  });

  test(`${version}: H01 a reservation of any connector while ReserveConnectorZeroSupported is false: Rejected`, async () => {
    const h = online(version, { input: { config: { ReserveConnectorZeroSupported: 'false' } } });
    assert.deepEqual(await h.csmsCall(...aReserveNow(version, { connectorId: 0, expiresAt: IN_10_MIN })), {
      status: 'Rejected',
    });
    h.finish();
  });

  test(`${version}: H01 a reserved connector that faults ends its reservation${v16 ? '' : ' (ReservationStatusUpdate Removed)'}`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { id: 6, expiresAt: IN_10_MIN }));
    h.send({ type: 'FAULT', connectorId: 1 });
    h.send({ type: 'CLEAR_FAULT', connectorId: 1 });
    h.tick(0);
    assert.deepEqual(statusesOf(h, 1), ['Available', 'Reserved', 'Faulted', 'Available']);
    assert.equal(h.ctx().reservations, undefined);
    assert.deepEqual(
      h.callsOf('ReservationStatusUpdate').map((c) => c.payload),
      v16 ? [] : [{ reservationId: 6, reservationUpdateStatus: 'Removed' }],
    );
    h.finish();
  });

  test(`${version}: H01 the charger taken out of service ends every reservation, of a connector or of any`, async () => {
    const h = online(version);
    await h.csmsCall(...aReserveNow(version, { id: 1, connectorId: 1, expiresAt: IN_10_MIN }));
    await h.csmsCall(...aReserveNow(version, { id: 2, connectorId: 0, expiresAt: IN_10_MIN }));
    await h.csmsCall(...aChangeAvailability(version, 0, false));
    await h.csmsCall(...aChangeAvailability(version, 0, true));
    assert.equal(h.connector(1).status, 'Available');
    assert.equal(h.ctx().reservations, undefined);
    assert.equal(h.ctx().timers.reservation, undefined);
    assert.deepEqual(
      h.callsOf('ReservationStatusUpdate').map((c) => c.payload.reservationId),
      v16 ? [] : [1, 2],
    );
    h.finish();
  });
}

test('ocpp2.0.1: H01 ReserveNow by connector type reserves any EVSE with that type; an unknown type is Rejected', async () => {
  const h = harness('ocpp2.0.1');
  h.deploy();
  const [action, payload] = aReserveNow('ocpp2.0.1', {
    id: 1,
    connectorId: 0,
    connectorType: 'cType2',
    expiresAt: IN_10_MIN,
  });
  assert.deepEqual(await h.csmsCall(action, payload), { status: 'Accepted' });
  const [action2, payload2] = aReserveNow('ocpp2.0.1', {
    id: 2,
    connectorId: 0,
    connectorType: 'cCCS1',
    expiresAt: IN_10_MIN,
  });
  assert.deepEqual(await h.csmsCall(action2, payload2), { status: 'Rejected' });
  h.finish();
});
