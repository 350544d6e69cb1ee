// TRANSFER_ALLOWED_HOSTS reaches the chargers of the service: a firmware URL on a host outside the
// list is never fetched, and the charger tells its central system DownloadFailed. (The list's
// matching rules are specified in test/engine/platform/allowed-fetch.test.ts.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../../support/strict-csms.ts';
import { startTransferServer, type TransferServer } from '../../charger/transfer-server.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../../deployments/deployment-helpers.ts';

const ID = 'ALLOW-16';
let svc: TestService;
let csms: StrictCsms;
let files: TransferServer;

before(async () => {
  files = await startTransferServer();
  files.file('/fw/image.bin', Buffer.from('firmware image'));
  csms = await startStrictCsms();
  svc = await startTestService({ env: { TRANSFER_ALLOWED_HOSTS: 'firmware.example.org' } });
  const as = svc.as('org-allow');
  const res = await as('POST', '/evcharger/deployment', {
    body: { identity: ID, model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' },
  });
  assert.equal(res.status, 201, res.text);
  await eventually(
    () => eventsOf(as, ID),
    (ev) => ev.some((e) => e.stage === 'online'),
  );
});

after(async () => {
  await svc?.close();
  await csms?.close();
  await files?.close();
});

test('a firmware URL outside TRANSFER_ALLOWED_HOSTS is not fetched: the charger reports DownloadFailed', async () => {
  const answer = await csms.call(ID, 'UpdateFirmware', {
    location: `${files.url}/fw/image.bin`,
    retrieveDate: new Date().toISOString(),
  });
  assert.deepEqual(answer, {});
  const statuses = () =>
    csms.received
      .filter((r) => r.identity === ID && r.action === 'FirmwareStatusNotification')
      .map((r) => (r.params as { status: string }).status);
  await csms.waitFor(() => statuses().includes('DownloadFailed'));
  assert.ok(!statuses().includes('Downloaded'), statuses().join(' '));
  assert.equal(files.hits('/fw/image.bin'), 0, 'the refused host got no request');
});
