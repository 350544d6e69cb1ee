// Smart charging (blocks/smart-charging.ts): profiles limit the power, the meter shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, online, type Harness } from '../charger-harness.ts';
import {
  aChargingProfile,
  aClearChargingProfile,
  aCompositeScheduleRequest,
  aRemoteStart,
  compositeOf,
} from '../builders.ts';
import { energyOf, samples } from '../observations.ts';

for (const version of VERSIONS) {
  /** Charging at 22 kW for a minute (366 Wh), then a TxDefaultProfile of 6 kW on connector 1. */
  async function limited(): Promise<Harness> {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    h.tick(60_000);
    assert.deepEqual(await h.csmsCall(...aChargingProfile(version, { limit: 6000 })), { status: 'Accepted' });
    return h;
  }

  test(`${version}: K01 a TxDefaultProfile of 6 kW lowers the meter growth`, async () => {
    const h = await limited();
    h.tick(60_000);
    assert.deepEqual(samples(h).map(energyOf), [366, 466]); // 22 kW then 6 kW for a minute each
    h.finish();
  });

  test(`${version}: K08 GetCompositeSchedule answers the limit the profiles make`, async () => {
    const h = await limited();
    const composite = compositeOf(version, await h.csmsCall(...aCompositeScheduleRequest(version)));
    assert.deepEqual(composite.chargingSchedulePeriod, [{ startPeriod: 0, limit: 6000 }]);
    h.finish();
  });

  test(`${version}: K10 ClearChargingProfile lifts the limit`, async () => {
    const h = await limited();
    h.tick(60_000);
    assert.deepEqual(await h.csmsCall(...aClearChargingProfile(version, 1)), { status: 'Accepted' });
    h.tick(60_000);
    assert.equal(energyOf(samples(h).at(-1)!), 833);
    h.finish();
  });

  test(`${version}: K10 clearing a profile that is not there answers Unknown`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall(...aClearChargingProfile(version, 42)), { status: 'Unknown' });
    h.finish();
  });

  test(`${version}: K01 a TxProfile without a transaction on the connector is Rejected`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall(...aChargingProfile(version, { purpose: 'TxProfile' })), {
      status: 'Rejected',
    });
    h.finish();
  });

  test(`${version}: K01 a charger-wide Max profile in amperes limits every connector`, async () => {
    const h = online(version);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await h.csmsCall(...aRemoteStart(version));
    await h.csmsCall(
      ...aChargingProfile(version, { connectorId: 0, purpose: 'MaxProfile', unit: 'A', limit: 16 }),
    );
    const composite = compositeOf(
      version,
      await h.csmsCall(...aCompositeScheduleRequest(version, { unit: 'W' })),
    );
    // 16 A on three phases of 230 V.
    assert.deepEqual(composite.chargingSchedulePeriod, [{ startPeriod: 0, limit: 11040 }]);
    h.finish();
  });
}
