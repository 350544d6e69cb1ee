// Saves persisted snapshots of the charger machine as it is now, one per scenario, as
// v<SNAPSHOT_VERSION>-<scenario>.json beside this file. Run it once before a change that bumps
// SNAPSHOT_VERSION, commit the files, and the migration tests restore them with the new machine:
//
//   npx tsx test/actors/charger/snapshots/make-fixtures.ts
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SNAPSHOT_VERSION } from '../../../../actors/charger/charger-ports.ts';
import { harness, type Harness } from '../charger-harness.ts';

const here = dirname(fileURLToPath(import.meta.url));

function save(name: string, description: string, h: Harness): void {
  const fixture = {
    description,
    snapshotVersion: SNAPSHOT_VERSION,
    savedAt: new Date(h.clock.now()).toISOString(),
    snapshot: JSON.parse(JSON.stringify(h.actor.getPersistedSnapshot())),
  };
  const file = join(here, `v${SNAPSHOT_VERSION}-${name}.json`);
  writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
  h.stop();
  process.stdout.write(`${file}\n`);
}

// 1.6, online and idle, with a HeartbeatInterval the CSMS changed (60 s) and a local list.
{
  const h = harness('ocpp1.6');
  h.deploy();
  await h.csmsCall('ChangeConfiguration', { key: 'HeartbeatInterval', value: '60' });
  await h.csmsCall('SendLocalList', {
    listVersion: 2,
    updateType: 'Full',
    localAuthorizationList: [{ idTag: 'LOCAL-1', idTagInfo: { status: 'Accepted' } }],
  });
  h.tick(30_000);
  save('idle-online-ocpp16', '1.6 online, idle, HeartbeatInterval 60 s, local list version 2', h);
}

// 2.0.1, charging on EVSE 1 after a remote start, with a charger-wide TxDefault profile of 11 kW and a
// TxProfile of 7 kW for the transaction, two meter samples sent and a cached token.
{
  const h = harness('ocpp2.0.1', { input: { config: { MeterValueSampleInterval: '60' } } });
  h.deploy();
  h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'CACHED-1' });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall('RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 42,
    idToken: { idToken: 'REMOTE-1', type: 'Central' },
  });
  await h.csmsCall('SetChargingProfile', {
    evseId: 0,
    chargingProfile: {
      id: 10,
      stackLevel: 0,
      chargingProfilePurpose: 'TxDefaultProfile',
      chargingProfileKind: 'Relative',
      chargingSchedule: [
        { id: 1, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 11_000 }] },
      ],
    },
  });
  const tx = h.connector(1).tx!.id!;
  await h.csmsCall('SetChargingProfile', {
    evseId: 1,
    chargingProfile: {
      id: 11,
      stackLevel: 1,
      chargingProfilePurpose: 'TxProfile',
      chargingProfileKind: 'Relative',
      transactionId: tx,
      chargingSchedule: [
        { id: 2, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 7_000 }] },
      ],
    },
  });
  h.tick(60_000);
  h.tick(60_000);
  h.tick(10_000);
  save(
    'charging-ocpp201',
    '2.0.1 charging on EVSE 1 (remoteStartId 42) under a TxProfile of 7 kW and a TxDefault of 11 kW, two samples sent',
    h,
  );
}

// 1.6, a transaction the CSMS numbered 100, then the link went: offline with StartTransaction
// delivered and two MeterValues queued, reconnecting with backoff.
{
  const h = harness('ocpp1.6', {
    connect: 'manual',
    input: { timings: { reconnectBaseMs: 200_000, reconnectMaxMs: 200_000 } },
  });
  h.deploy();
  h.link.sendBack!({ type: 'link.open' });
  h.send({ type: 'PLUG_IN', connectorId: 2 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'TAG-7' });
  h.send({ type: 'DISCONNECT' });
  h.tick(60_000);
  h.tick(60_000);
  save(
    'offline-outbox-ocpp16',
    '1.6 offline (reconnect due at +150 s) with transaction 100 on connector 2 and two MeterValues queued',
    h,
  );
}

// 2.0.1, the CSMS answered the BootNotification Pending with a 40 s interval: registering, waiting.
{
  const h = harness('ocpp2.0.1', {
    answers: {
      BootNotification: () => ({ status: 'Pending', currentTime: new Date().toISOString(), interval: 40 }),
    },
  });
  h.deploy();
  h.tick(5_000);
  save('boot-pending-ocpp201', '2.0.1 registering: BootNotification Pending, retry in 40 s', h);
}

// 1.6, stopped by the user after having been online.
{
  const h = harness('ocpp1.6');
  h.deploy();
  h.send({ type: 'STOP' });
  save('stopped-ocpp16', '1.6 stopped after having been online (attempt 1)', h);
}
