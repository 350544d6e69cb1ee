// The whole loop on one machine: a virtual charger deployed without ws_url connects to the
// built-in central system, and the CPO area shows it online with what it reported at boot.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { catalogFile } from '../support/reference-data.ts';
import { DUAL_MODEL, eventually, type As } from './deployment-helpers.ts';

const model = catalogFile.brands.flatMap((b) => b.models).find((m) => m.slug === DUAL_MODEL)!;

describe(`virtual chargers at the built-in central system (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  before(async () => {
    svc = await startTestService();
    as = svc.as('org-loop');
  });
  after(() => svc.close());

  for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const) {
    test(`E5 without ws_url (${version}) registers the charge point, which shows is_online with the boot data`, async () => {
      const identity = `LOOP-${version === 'ocpp1.6' ? '16' : '201'}`;
      const created = await as('POST', '/evcharger/deployment', {
        body: { identity, model: DUAL_MODEL, ocpp_version: version },
      });
      assert.equal(created.status, 201);

      const cp = await eventually(
        () => as('GET', `/cpo/charge-points/${identity}`),
        // The deployment registers vendor and model from the catalog; firmware arrives with the boot.
        (r) => r.status === 200 && r.body.is_online === true && r.body.firmware_version !== null,
      );
      assert.equal(cp.body.charge_point_id, identity);
      assert.equal(cp.body.ocpp_version, version);
      assert.equal(cp.body.charge_point_vendor, model.boot_vendor);
      assert.equal(cp.body.charge_point_model, model.boot_model);
      assert.equal(cp.body.firmware_version, model.firmware_version);

      // Stopping the charger closes its connection: the central system marks it offline.
      const stop = await as('POST', '/evcharger/deployment-runtime-ops', {
        body: { action: 'stop', deployment_id: created.body.deployment_id },
      });
      assert.equal(stop.status, 202);
      const offline = await eventually(
        () => as('GET', `/cpo/charge-points/${identity}`),
        (r) => r.body.is_online === false,
      );
      assert.equal(offline.body.is_online, false);
    });
  }

  test('another organization does not see the registered charge point', async () => {
    const other = await svc.as('org-elsewhere')('GET', '/cpo/charge-points/LOOP-16');
    assert.equal(other.status, 404);
  });
});
