// H03 through the API: the present-token command honours a reservation the central system made
// (ReserveNow from the strict central system, the command through POST /evcharger/commands).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { deployOnline, run } from './command-helpers.ts';

for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const) {
  const v16 = version === 'ocpp1.6';
  const ID = v16 ? 'RES16-1' : 'RES201-1';

  describe(`present-token and reservations, ${version} (${MODE})`, () => {
    let svc: TestService;
    let csms: StrictCsms;
    let as: As;
    let deploymentId: string;
    const target = () => ({ deployment_id: deploymentId });

    before(async () => {
      csms = await startStrictCsms();
      svc = await startTestService();
      as = svc.as('org-res');
      deploymentId = await deployOnline(as, ID, version, csms.url);
    });
    after(async () => {
      await svc.close();
      await csms.close();
    });

    test('H03 present-token on a reserved connector: another token is rejected, the holder starts with the reservation', async () => {
      const expiry = new Date(Date.now() + 600_000).toISOString();
      const reserved = await csms.call(
        ID,
        'ReserveNow',
        v16
          ? { connectorId: 1, expiryDate: expiry, idTag: 'HOLDER-1', reservationId: 21 }
          : { id: 21, evseId: 1, expiryDateTime: expiry, idToken: { idToken: 'HOLDER-1', type: 'Central' } },
      );
      assert.deepEqual(reserved, { status: 'Accepted' });
      const plug = await run(as, 'plug-in', { target: target(), payload: { connector_id: 1 } });
      assert.equal(plug.status, 'completed', JSON.stringify(plug));

      const other = await run(as, 'present-token', {
        target: target(),
        payload: { id_tag: 'OTHER-1', connector_id: 1 },
      });
      assert.equal(other.status, 'rejected', JSON.stringify(other));
      assert.equal(other.error?.code, 'INVALID_STATE');
      assert.match(other.error!.description!, /reserved/);

      const holder = await run(as, 'present-token', {
        target: target(),
        payload: { id_tag: 'HOLDER-1', connector_id: 1 },
      });
      assert.equal(holder.status, 'completed', JSON.stringify(holder));
      const start = await csms.waitFor(() =>
        csms.received.find(
          (r) => r.identity === ID && r.action === (v16 ? 'StartTransaction' : 'TransactionEvent'),
        ),
      );
      assert.equal(start.params.reservationId, 21);
      assert.deepEqual(csms.schemaErrors, []);
    });
  });
}
