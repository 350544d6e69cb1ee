// Firmware and logs in the machine alone (blocks/firmware.ts, blocks/diagnostics.ts), on simulated
// time: what is decided before any byte moves. The transfers themselves are tested end to end
// (test/charger/charger-e2e-firmware.test.ts, charger-e2e-diagnostics.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T0, online } from '../charger-harness.ts';

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
