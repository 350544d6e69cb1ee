// Firmware and logs in the machine alone (blocks/firmware.ts, blocks/diagnostics.ts), on simulated
// time: what is decided before any byte moves. The transfers themselves are tested end to end
// (test/charger/charger-e2e-firmware.test.ts, charger-e2e-diagnostics.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T0, VERSIONS, online } from '../charger-harness.ts';
import { aRemoteStart } from '../builders.ts';
import { statusesOf } from '../observations.ts';

const later = (ms: number) => new Date(T0 + ms).toISOString();

/** UpdateFirmware in each version's words (2.0.1 and 1.6 SignedUpdateFirmware carry a requestId). */
const update2 = (requestId: number, retrieveAt: string) => ({
  requestId,
  firmware: { location: 'http://127.0.0.1:9/fw/evsim-2.0.0.bin', retrieveDateTime: retrieveAt },
});

test('ocpp2.0.1: L03 UpdateFirmware for later says DownloadScheduled and nothing else until retrieveDateTime', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await h.csmsCall('UpdateFirmware', update2(1, later(3_600_000))), { status: 'Accepted' });
  h.tick(3_000_000);
  assert.deepEqual(
    h.callsOf('FirmwareStatusNotification').map((c) => c.payload),
    [{ status: 'DownloadScheduled', requestId: 1 }],
  );
  h.finish();
});

test('ocpp2.0.1: L01 a second UpdateFirmware replaces the scheduled one: AcceptedCanceled', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall('UpdateFirmware', update2(1, later(3_600_000)));
  assert.deepEqual(await h.csmsCall('UpdateFirmware', update2(2, later(7_200_000))), {
    status: 'AcceptedCanceled',
  });
  assert.equal(h.ctx().firmware?.report.requestId, 2);
  h.finish();
});

test('ocpp2.0.1: L03 a scheduled update survives a restart from the snapshot and starts at retrieveDateTime', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall('UpdateFirmware', update2(3, later(600_000)));
  h.restart();
  h.resume();
  h.tick(600_000);
  // Without the engine's transfers actor the download fails: the job ran on time after the restore.
  assert.deepEqual(
    h.callsOf('FirmwareStatusNotification').map((c) => c.payload.status),
    ['DownloadScheduled', 'Downloading', 'DownloadFailed'],
  );
  h.finish();
});

test('ocpp1.6: UpdateFirmware retries the download `retries` times, retryInterval apart, then DownloadFailed', async () => {
  const h = online('ocpp1.6');
  await h.csmsCall('UpdateFirmware', {
    location: 'http://127.0.0.1:9/fw/evsim-2.0.0.bin',
    retrieveDate: later(0),
    retries: 2,
    retryInterval: 30,
  });
  h.tick(0);
  assert.deepEqual(
    h.callsOf('FirmwareStatusNotification').map((c) => c.payload.status),
    ['Downloading'],
  );
  h.tick(30_000);
  assert.equal(h.callsOf('FirmwareStatusNotification').length, 1, 'the first retry failed, one is left');
  h.tick(30_000);
  assert.deepEqual(
    h.callsOf('FirmwareStatusNotification').map((c) => c.payload.status),
    ['Downloading', 'DownloadFailed'],
  );
  assert.equal(h.ctx().firmware, undefined);
  h.finish();
});

test('ocpp2.0.1: N01 a second GetLog while one waits for its retry replaces it: AcceptedCanceled', async () => {
  const h = online('ocpp2.0.1');
  const getLog = (requestId: number) => ({
    logType: 'DiagnosticsLog',
    requestId,
    retries: 3,
    retryInterval: 600,
    log: { remoteLocation: 'http://127.0.0.1:9/logs/' },
  });
  assert.equal((await h.csmsCall('GetLog', getLog(1))).status, 'Accepted');
  h.tick(0);
  const second = await h.csmsCall('GetLog', getLog(2));
  assert.equal(second.status, 'AcceptedCanceled');
  assert.equal(h.ctx().upload?.report.requestId, 2);
  h.finish();
});

// L01.FR.07 (1.6 5.19 recommends the same): an install that waits for a transaction holds the
// other connectors Unavailable. The engine's transfers are faked: every download succeeds.
const downloads = { transfers: () => ({ ok: true, firmwareVersion: '2.0.0' }) };
const updateNow = (version: (typeof VERSIONS)[number]): [string, object] => [
  'UpdateFirmware',
  version === 'ocpp1.6'
    ? { location: 'http://127.0.0.1:9/fw/evsim-2.0.0.bin', retrieveDate: later(0) }
    : update2(7, later(0)),
];

/** Online, a transaction on connector 1, and an update downloaded that now waits for it. */
async function installWaiting(version: (typeof VERSIONS)[number]) {
  const h = online(version, downloads);
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(version));
  await h.csmsCall(...updateNow(version));
  h.tick(0);
  return h;
}

for (const version of VERSIONS) {
  test(`${version}: L01.FR.07 while the install waits for a transaction, the connector not in use is Unavailable`, async () => {
    const h = await installWaiting(version);
    assert.equal(h.ctx().firmware?.phase, 'waiting');
    assert.deepEqual(statusesOf(h, 2), ['Available', 'Unavailable']);
    assert.equal(h.connector(1).status, 'Charging');
    h.finish();
  });

  test(`${version}: L01.FR.07 no new session starts on a connector held for the install (remote start Rejected)`, async () => {
    const h = await installWaiting(version);
    h.send({ type: 'PLUG_IN', connectorId: 2 });
    const answer = await h.csmsCall(...aRemoteStart(version, { connectorId: 2, idTag: 'TAG-2' }));
    assert.equal(answer.status, 'Rejected');
    assert.equal(h.connector(2).tx, undefined);
    assert.equal(h.connector(2).status, 'Unavailable');
    h.finish();
  });

  test(`${version}: L01.FR.07 the connector whose transaction ends while the install waits becomes Unavailable too`, async () => {
    const h = await installWaiting(version);
    h.send({ type: 'UNPLUG', connectorId: 1 });
    assert.equal(statusesOf(h, 1).at(-1), 'Unavailable');
    assert.equal(h.connector(1).status, 'Unavailable');
    h.finish();
  });

  test(`${version}: L01.FR.07 after the install's reboot every connector is Available again`, async () => {
    const h = await installWaiting(version);
    h.send({ type: 'UNPLUG', connectorId: 1 });
    h.tick(2_000); // the wait is over: Installing
    h.tick(500); // the reboot
    h.tick(1_000);
    assert.equal(h.callsOf('BootNotification').length, 2);
    assert.equal(statusesOf(h, 1).at(-1), 'Available');
    assert.equal(statusesOf(h, 2).at(-1), 'Available');
    assert.ok(h.ctx().connectors.every((c) => c.firmwareHold === undefined));
    h.finish();
  });

  test(`${version}: L01.FR.07 a new UpdateFirmware replacing the waiting install brings the held connectors back`, async () => {
    const h = await installWaiting(version);
    const replace =
      version === 'ocpp1.6'
        ? { location: 'http://127.0.0.1:9/fw/evsim-3.0.0.bin', retrieveDate: later(3_600_000) }
        : update2(8, later(3_600_000));
    await h.csmsCall('UpdateFirmware', replace);
    assert.deepEqual(statusesOf(h, 2), ['Available', 'Unavailable', 'Available']);
    assert.equal(h.connector(1).status, 'Charging');
    h.finish();
  });
}
