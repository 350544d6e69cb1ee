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

/** K09 GetChargingProfiles, and the ReportChargingProfiles that followed its answer, as [evseId, ids, tbc]. */
async function getProfiles(h: Harness, request: object) {
  const before = h.calls.length;
  const answer = await h.csmsCall('GetChargingProfiles', { requestId: 9, ...request });
  const reports = h.callsSince(before).filter((c) => c.action === 'ReportChargingProfiles');
  return {
    status: answer.status,
    reports: reports.map((r) => [
      r.payload.evseId,
      r.payload.chargingProfile.map((p: any) => p.id),
      r.payload.tbc ?? false,
      r.payload.chargingLimitSource,
      r.payload.requestId,
    ]),
    first: reports[0]?.payload,
  };
}

test('ocpp2.0.1: K09 GetChargingProfiles: Accepted, then one ReportChargingProfiles per EVSE and source, tbc on all but the last', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 1, connectorId: 1, stackLevel: 0, limit: 6000 }));
  await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 2, connectorId: 1, stackLevel: 1, limit: 5000 }));
  await h.csmsCall(
    ...aChargingProfile('ocpp2.0.1', { id: 3, connectorId: 0, purpose: 'MaxProfile', limit: 20000 }),
  );
  await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 4, connectorId: 2, limit: 7000 }));
  const all = await getProfiles(h, { chargingProfile: {} });
  assert.equal(all.status, 'Accepted');
  assert.deepEqual(all.reports, [
    [0, [3], true, 'CSO', 9],
    [1, [1, 2], true, 'CSO', 9],
    [2, [4], false, 'CSO', 9],
  ]);
  // The profile as the CSMS set it.
  assert.deepEqual(all.first.chargingProfile[0], {
    id: 3,
    stackLevel: 0,
    chargingProfilePurpose: 'ChargingStationMaxProfile',
    chargingProfileKind: 'Relative',
    chargingSchedule: [
      { id: 3, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 20000 }] },
    ],
  });
  // The answer leaves before the reports.
  assert.equal(h.answered.at(-1)!.action, 'GetChargingProfiles');
  h.finish();
});

for (const [criteria, request, expected] of [
  ['evseId and stackLevel', { evseId: 1, chargingProfile: { stackLevel: 1 } }, [[1, [2], false, 'CSO', 9]]],
  [
    'purpose',
    { chargingProfile: { chargingProfilePurpose: 'ChargingStationMaxProfile' } },
    [[0, [3], false, 'CSO', 9]],
  ],
  [
    'profile ids',
    { chargingProfile: { chargingProfileId: [1, 4] } },
    [
      [1, [1], true, 'CSO', 9],
      [2, [4], false, 'CSO', 9],
    ],
  ],
  ['source CSO', { chargingProfile: { chargingLimitSource: ['CSO'] } }, 3],
] as const)
  test(`ocpp2.0.1: K09 GetChargingProfiles by ${criteria} reports only the profiles that match`, async () => {
    const h = online('ocpp2.0.1');
    await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 1, connectorId: 1, stackLevel: 0 }));
    await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 2, connectorId: 1, stackLevel: 1 }));
    await h.csmsCall(
      ...aChargingProfile('ocpp2.0.1', { id: 3, connectorId: 0, purpose: 'MaxProfile', limit: 20000 }),
    );
    await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 4, connectorId: 2 }));
    const got = await getProfiles(h, request);
    if (typeof expected === 'number') assert.equal(got.reports.length, expected);
    else assert.deepEqual(got.reports, expected);
    h.finish();
  });

test('ocpp2.0.1: K09 GetChargingProfiles with nothing matching (another source, an unknown EVSE) is NoProfiles and reports nothing', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 1, connectorId: 1 }));
  assert.deepEqual(await getProfiles(h, { chargingProfile: { chargingLimitSource: ['EMS'] } }), {
    status: 'NoProfiles',
    reports: [],
    first: undefined,
  });
  assert.equal((await getProfiles(h, { evseId: 2, chargingProfile: {} })).status, 'NoProfiles');
  h.finish();
});

test('ocpp2.0.1: K09 more profiles on one EVSE than fit a report are paged (8 a report), tbc until the last page', async () => {
  const h = online('ocpp2.0.1');
  for (let id = 1; id <= 9; id++)
    assert.equal(
      (await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id, connectorId: 1, stackLevel: id }))).status,
      'Accepted',
    );
  const got = await getProfiles(h, { evseId: 1, chargingProfile: {} });
  assert.deepEqual(got.reports, [
    [1, [1, 2, 3, 4, 5, 6, 7, 8], true, 'CSO', 9],
    [1, [9], false, 'CSO', 9],
  ]);
  h.finish();
});

/** Charging at 22 kW on connector 1 of a charger of this version. */
async function chargingAt22(version: (typeof VERSIONS)[number]) {
  const h = online(version);
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(version));
  return h;
}

test('ocpp2.0.1: K11 an external limit (EMS) on EVSE 1 lowers the power at once, NotifyChargingLimit tells the CSMS, the composite schedule honours it', async () => {
  const h = await chargingAt22('ocpp2.0.1');
  assert.equal(Math.round(h.connector(1).powerW), 22000);
  h.send({
    type: 'EXTERNAL_LIMIT',
    connectorId: 1,
    source: 'EMS',
    limitW: 7000,
    gridCritical: false,
    commandId: 'lim',
  });
  assert.equal(h.results.at(-1)!.ok, true);
  assert.equal(Math.round(h.connector(1).powerW), 7000);
  const [notify] = h.callsOf('NotifyChargingLimit');
  assert.deepEqual(
    [
      notify.payload.chargingLimit,
      notify.payload.evseId,
      notify.payload.chargingSchedule[0].chargingSchedulePeriod,
    ],
    [{ chargingLimitSource: 'EMS', isGridCritical: false }, 1, [{ startPeriod: 0, limit: 7000 }]],
  );
  const composite = await h.csmsCall(...aCompositeScheduleRequest('ocpp2.0.1'));
  assert.equal(compositeOf('ocpp2.0.1', composite).chargingSchedulePeriod[0].limit, 7000);
  h.finish();
});

test('ocpp2.0.1: K11 an external limit and the CSMS profile both apply: the lowest wins; ClearChargingProfile does not clear the external one', async () => {
  const h = await chargingAt22('ocpp2.0.1');
  h.send({ type: 'EXTERNAL_LIMIT', connectorId: 0, source: 'SO', limitW: 9000 });
  await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 5, limit: 6000 }));
  assert.equal(Math.round(h.connector(1).powerW), 6000);
  await h.csmsCall('ClearChargingProfile', {});
  assert.equal(Math.round(h.connector(1).powerW), 9000);
  h.finish();
});

test('ocpp2.0.1: K13 releasing the external limit restores the power and sends ClearedChargingLimit; releasing none fails NOT_FOUND', async () => {
  const h = await chargingAt22('ocpp2.0.1');
  h.send({ type: 'EXTERNAL_LIMIT', connectorId: 1, source: 'EMS', limitW: 7000 });
  h.send({ type: 'EXTERNAL_LIMIT', connectorId: 1, source: 'EMS', limitW: null, commandId: 'rel' });
  assert.equal(h.results.at(-1)!.ok, true);
  assert.equal(Math.round(h.connector(1).powerW), 22000);
  assert.deepEqual(h.callsOf('ClearedChargingLimit')[0].payload, { chargingLimitSource: 'EMS', evseId: 1 });
  h.send({ type: 'EXTERNAL_LIMIT', connectorId: 1, source: 'EMS', limitW: null, commandId: 'again' });
  assert.equal(h.results.at(-1)!.error?.code, 'NOT_FOUND');
  h.finish();
});

test('ocpp2.0.1: K09 GetChargingProfiles reports an external limit under its own source, as ChargingStationExternalConstraints', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall(...aChargingProfile('ocpp2.0.1', { id: 1, connectorId: 1 }));
  h.send({ type: 'EXTERNAL_LIMIT', connectorId: 1, source: 'EMS', limitW: 7000 });
  const got = await getProfiles(h, { chargingProfile: {} });
  assert.deepEqual(
    got.reports.map((r) => [r[0], r[3]]),
    [
      [1, 'CSO'],
      [1, 'EMS'],
    ],
  );
  const ems = await getProfiles(h, { chargingProfile: { chargingLimitSource: ['EMS'] } });
  assert.equal(ems.first.chargingProfile[0].chargingProfilePurpose, 'ChargingStationExternalConstraints');
  h.finish();
});

test('ocpp1.6: an external limit lowers the power too (1.6 has no message to tell it)', async () => {
  const h = await chargingAt22('ocpp1.6');
  h.send({ type: 'EXTERNAL_LIMIT', connectorId: 1, source: 'EMS', limitW: 7000 });
  assert.equal(Math.round(h.connector(1).powerW), 7000);
  h.finish();
});
