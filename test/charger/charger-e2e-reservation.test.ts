// Reservations end to end (1.6 Reservation profile, 2.0.1 block H) against the strict central
// system (see e2e-suite.ts): every ReserveNow / CancelReservation answer, StatusNotification,
// start message and ReservationStatusUpdate is checked against the official schemas by ocpp-rpc.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSIONS, e2eSuite, type E2e } from './e2e-suite.ts';

for (const version of VERSIONS)
  e2eSuite(version, 'reservations', (e) => {
    const reserveNow = (id: string, o: { id: number; connectorId: number; idTag: string; inMs: number }) => {
      const expiry = new Date(Date.now() + o.inMs).toISOString();
      return e.call(
        id,
        'ReserveNow',
        e.v16
          ? { connectorId: o.connectorId, expiryDate: expiry, idTag: o.idTag, reservationId: o.id }
          : {
              id: o.id,
              expiryDateTime: expiry,
              idToken: { idToken: o.idTag, type: 'Central' },
              ...(o.connectorId ? { evseId: o.connectorId } : {}),
            },
      );
    };
    const startAction = e.v16 ? 'StartTransaction' : 'TransactionEvent';

    async function reservedCharger(id: string, reservationId: number, inMs = 600_000) {
      const c = e.deploy(id);
      await e.online(c);
      await e.waitReceived(id, 'StatusNotification', e.v16 ? 3 : 2);
      const answer = await reserveNow(id, { id: reservationId, connectorId: 1, idTag: 'HOLDER', inMs });
      await e.csms().waitFor(() => e.connectorStatuses(id, 1).at(-1) === 'Reserved');
      return { c, answer };
    }

    /** PRESENT_TOKEN with the cable in; resolves with the command's result. */
    async function present(c: ReturnType<E2e['deploy']>, idTag: string) {
      const commandId = `present-${idTag}-${c.results.length}`;
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag, commandId });
      return c.until(() => c.results.find((r) => r.commandId === commandId));
    }

    test('H01 ReserveNow on an Available connector: Accepted, then StatusNotification Reserved', async () => {
      const id = `${e.tag}-RES-ACCEPT`;
      const { answer } = await reservedCharger(id, 11);
      assert.deepEqual(answer, { status: 'Accepted' });
      assert.deepEqual(e.connectorStatuses(id, 1), ['Available', 'Reserved']);
    });

    test('H01 ReserveNow on a connector with a cable in: Occupied', async () => {
      const id = `${e.tag}-RES-OCCUPIED`;
      const c = e.deploy(id);
      await e.online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      await c.until(() => c.ctx().connectors[0].status === 'Preparing');
      assert.deepEqual(await reserveNow(id, { id: 1, connectorId: 1, idTag: 'HOLDER', inMs: 60_000 }), {
        status: 'Occupied',
      });
    });

    test('H03 present-token: another token on the reserved connector does not start, the holder starts and uses the reservation', async () => {
      const id = `${e.tag}-RES-USE`;
      const { c } = await reservedCharger(id, 12);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      const refused = await present(c, 'STRANGER');
      assert.equal(refused.ok, false);
      assert.equal(refused.error?.code, 'INVALID_STATE');
      assert.equal(e.received(id, 'Authorize').length, 0);
      const accepted = await present(c, 'HOLDER');
      assert.equal(accepted.ok, true);
      const [start] = await e.waitReceived(id, startAction);
      assert.equal(start.params.reservationId, 12);
      await e.csms().waitFor(() => e.connectorStatuses(id, 1).at(-1) === (e.v16 ? 'Charging' : 'Occupied'));
      assert.equal(c.ctx().reservations, undefined);
    });

    test('H02 CancelReservation: Accepted, then StatusNotification Available; again: Rejected', async () => {
      const id = `${e.tag}-RES-CANCEL`;
      await reservedCharger(id, 13);
      assert.deepEqual(await e.call(id, 'CancelReservation', { reservationId: 13 }), { status: 'Accepted' });
      await e.csms().waitFor(() => e.connectorStatuses(id, 1).at(-1) === 'Available');
      assert.deepEqual(await e.call(id, 'CancelReservation', { reservationId: 13 }), { status: 'Rejected' });
      assert.equal(e.received(id, 'ReservationStatusUpdate').length, 0);
    });

    test(`H04 the reservation expires: StatusNotification Available${e.v16 ? '' : ' and ReservationStatusUpdate Expired'}`, async () => {
      const id = `${e.tag}-RES-EXPIRE`;
      await reservedCharger(id, 14, 1_000);
      await e.csms().waitFor(() => e.connectorStatuses(id, 1).at(-1) === 'Available', 5000);
      if (!e.v16) {
        const [update] = await e.waitReceived(id, 'ReservationStatusUpdate');
        assert.deepEqual(update.params, { reservationId: 14, reservationUpdateStatus: 'Expired' });
      }
    });

    test('H01 a reservation of any connector while ReserveConnectorZeroSupported is false: Rejected', async () => {
      const id = `${e.tag}-RES-ZERO-OFF`;
      const c = e.deploy(id, { config: { ReserveConnectorZeroSupported: 'false' } });
      await e.online(c);
      assert.deepEqual(await reserveNow(id, { id: 1, connectorId: 0, idTag: 'HOLDER', inMs: 60_000 }), {
        status: 'Rejected',
      });
    });

    test('H01 a reservation of any connector: Accepted; the cable in at connector 1 leaves connector 2 Reserved for it until the holder starts', async () => {
      const id = `${e.tag}-RES-ZERO`;
      const c = e.deploy(id);
      await e.online(c);
      await e.waitReceived(id, 'StatusNotification', e.v16 ? 3 : 2);
      assert.deepEqual(await reserveNow(id, { id: 15, connectorId: 0, idTag: 'HOLDER', inMs: 60_000 }), {
        status: 'Accepted',
      });
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      assert.equal((await present(c, 'HOLDER')).ok, true);
      const [start] = await e.waitReceived(id, startAction);
      assert.equal(start.params.reservationId, 15);
      await e.csms().waitFor(() => e.connectorStatuses(id, 2).length === 3);
      assert.deepEqual(e.connectorStatuses(id, 2), ['Available', 'Reserved', 'Available']);
    });

    test('H01 (TC_H_14) two reservations of any connector on two free connectors: both report Reserved; a cancel makes both Available', async () => {
      const id = `${e.tag}-RES-ZERO-ALL`;
      const c = e.deploy(id);
      await e.online(c);
      await e.waitReceived(id, 'StatusNotification', e.v16 ? 3 : 2);
      await reserveNow(id, { id: 21, connectorId: 0, idTag: 'HOLDER-1', inMs: 60_000 });
      assert.deepEqual(await reserveNow(id, { id: 22, connectorId: 0, idTag: 'HOLDER-2', inMs: 60_000 }), {
        status: 'Accepted',
      });
      await e.csms().waitFor(() => e.connectorStatuses(id, 2).at(-1) === 'Reserved');
      assert.deepEqual(e.connectorStatuses(id, 1), ['Available', 'Reserved']);
      assert.deepEqual(e.connectorStatuses(id, 2), ['Available', 'Reserved']);
      assert.deepEqual(await e.call(id, 'CancelReservation', { reservationId: 22 }), { status: 'Accepted' });
      await e.csms().waitFor(() => e.connectorStatuses(id, 2).at(-1) === 'Available');
      assert.deepEqual(e.connectorStatuses(id, 1), ['Available', 'Reserved', 'Available']);
    });
  });
