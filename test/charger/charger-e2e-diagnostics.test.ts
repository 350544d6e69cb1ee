// Diagnostics and logs end to end (see e2e-suite.ts): 1.6 GetDiagnostics, GetLog (the 1.6 security
// extension's and 2.0.1 N01), each uploading the charger's recent OCPP log to a real HTTP server.
// The runtime gets the frames its links saw, as the engine hands it the message log's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LogFrame } from '../../engine/charger/transfers.ts';
import { VERSIONS, e2eSuite, type Json } from './e2e-suite.ts';
import { startTransferServer, type TransferServer } from './transfer-server.ts';

const frames = new Map<string, LogFrame[]>();
const logOf = (identity: string) => {
  let list = frames.get(identity);
  if (!list) frames.set(identity, (list = []));
  return list;
};

for (const version of VERSIONS)
  e2eSuite(
    version,
    'diagnostics and logs',
    (e) => {
      let http: TransferServer;
      before(async () => {
        http = await startTransferServer();
        http.status('/broken/', 500);
        http.status('/put-only/', 405, 'POST');
        http.file('/fw/evsim-1.0.0.bin', 'an image');
      });
      after(() => http.close());

      const statuses = (id: string, action: string) =>
        e.received(id, action).map((r) => [r.params.status, r.params.requestId]);
      const waitStatus = (id: string, action: string, status: string) =>
        e.csms().waitFor(() => e.received(id, action).some((r) => r.params.status === status), 10_000);
      const getLog = (requestId: number, path: string, extra: Json = {}) => ({
        logType: 'DiagnosticsLog',
        requestId,
        log: { remoteLocation: path.includes('://') ? path : `${http.url}${path}` },
        ...extra,
      });

      if (e.v16) {
        test('1.6 GetDiagnostics: answers the file name, DiagnosticsStatusNotification Uploading then Uploaded, the file holds the OCPP log', async () => {
          const id = `${e.tag}-DIAG-OK`;
          await e.online(e.deploy(id));
          const answer = await e.call(id, 'GetDiagnostics', { location: `${http.url}/diag/` });
          assert.match(answer.fileName, new RegExp(`^${id}-diagnostics-.+\\.log$`));
          await waitStatus(id, 'DiagnosticsStatusNotification', 'Uploaded');
          assert.deepEqual(statuses(id, 'DiagnosticsStatusNotification'), [
            ['Uploading', undefined],
            ['Uploaded', undefined],
          ]);
          const upload = http.uploads.find((u) => u.fileName === answer.fileName)!;
          assert.equal(upload.method, 'POST');
          assert.equal(upload.path, '/diag/');
          const lines = upload.text.trim().split('\n');
          assert.match(lines[0], /^\S+Z >> \[2,"[^"]+","BootNotification",/);
          assert.ok(
            lines.some((l) => / << \[3,/.test(l)),
            'the CSMS answers are in the log',
          );
        });

        test('1.6 GetDiagnostics to a failing location: tried retries + 1 times, then UploadFailed', async () => {
          const id = `${e.tag}-DIAG-FAIL`;
          await e.online(e.deploy(id));
          const before = http.hits('/broken/');
          await e.call(id, 'GetDiagnostics', {
            location: `${http.url}/broken/`,
            retries: 1,
            retryInterval: 1,
          });
          await waitStatus(id, 'DiagnosticsStatusNotification', 'UploadFailed');
          assert.deepEqual(
            statuses(id, 'DiagnosticsStatusNotification').map(([s]) => s),
            ['Uploading', 'UploadFailed'],
          );
          assert.equal(http.hits('/broken/') - before, 2);
        });

        test('1.6 GetDiagnostics to an ftp location: UploadFailed at once (this charger uploads over HTTP(S) only)', async () => {
          const id = `${e.tag}-DIAG-FTP`;
          await e.online(e.deploy(id));
          await e.call(id, 'GetDiagnostics', {
            location: 'ftp://127.0.0.1/diag/',
            retries: 3,
            retryInterval: 1,
          });
          await waitStatus(id, 'DiagnosticsStatusNotification', 'UploadFailed');
          assert.deepEqual(
            statuses(id, 'DiagnosticsStatusNotification').map(([s]) => s),
            ['Uploading', 'UploadFailed'],
          );
        });

        test('1.6 TriggerMessage DiagnosticsStatusNotification without an upload says Idle', async () => {
          const id = `${e.tag}-DIAG-IDLE`;
          await e.online(e.deploy(id));
          await e.call(id, 'TriggerMessage', { requestedMessage: 'DiagnosticsStatusNotification' });
          await waitStatus(id, 'DiagnosticsStatusNotification', 'Idle');
        });
      }

      test('N01 GetLog: Accepted with the file name, LogStatusNotification Uploading then Uploaded with the requestId', async () => {
        const id = `${e.tag}-LOG-OK`;
        await e.online(e.deploy(id));
        const answer = await e.call(id, 'GetLog', getLog(21, '/logs/'));
        assert.equal(answer.status, 'Accepted');
        assert.match(answer.filename, new RegExp(`^${id}-diagnostics-.+\\.log$`));
        await waitStatus(id, 'LogStatusNotification', 'Uploaded');
        assert.deepEqual(statuses(id, 'LogStatusNotification'), [
          ['Uploading', 21],
          ['Uploaded', 21],
        ]);
        const upload = http.uploads.find((u) => u.fileName === answer.filename)!;
        assert.match(upload.text, /"BootNotification"/);
      });

      test('N01 GetLog to a location that refuses POST: the file is PUT at location + file name', async () => {
        const id = `${e.tag}-LOG-PUT`;
        await e.online(e.deploy(id));
        const answer = await e.call(id, 'GetLog', getLog(22, '/put-only/'));
        await waitStatus(id, 'LogStatusNotification', 'Uploaded');
        const upload = http.uploads.find((u) => u.path === `/put-only/${answer.filename}`)!;
        assert.equal(upload.method, 'PUT');
        assert.match(upload.text, /"BootNotification"/);
      });

      test('N01 GetLog to a failing location: UploadFailure after the retries', async () => {
        const id = `${e.tag}-LOG-FAIL`;
        await e.online(e.deploy(id));
        const before = http.hits('/broken/');
        await e.call(id, 'GetLog', getLog(23, '/broken/', { retries: 1, retryInterval: 1 }));
        await waitStatus(id, 'LogStatusNotification', 'UploadFailure');
        assert.deepEqual(statuses(id, 'LogStatusNotification'), [
          ['Uploading', 23],
          ['UploadFailure', 23],
        ]);
        assert.equal(http.hits('/broken/') - before, 2);
      });

      test('N01 GetLog to an ftp location: NotSupportedOperation', async () => {
        const id = `${e.tag}-LOG-FTP`;
        await e.online(e.deploy(id));
        await e.call(id, 'GetLog', getLog(24, 'ftp://127.0.0.1/logs/'));
        await waitStatus(id, 'LogStatusNotification', 'NotSupportedOperation');
        assert.deepEqual(statuses(id, 'LogStatusNotification'), [
          ['Uploading', 24],
          ['NotSupportedOperation', 24],
        ]);
      });

      test('N01 GetLog SecurityLog: the file holds the security events (and their answers) only', async () => {
        const id = `${e.tag}-LOG-SEC`;
        await e.online(e.deploy(id));
        // A signed firmware update whose certificate does not parse causes a security event.
        await e.call(id, e.v16 ? 'SignedUpdateFirmware' : 'UpdateFirmware', {
          requestId: 30,
          firmware: {
            location: `${http.url}/fw/evsim-1.0.0.bin`,
            retrieveDateTime: new Date().toISOString(),
            signingCertificate: 'not a certificate',
            signature: 'AAAA',
          },
        });
        const [event] = await e.waitReceived(id, 'SecurityEventNotification');
        assert.equal(event.params.type, 'InvalidFirmwareSigningCertificate');
        const answer = await e.call(id, 'GetLog', getLog(25, '/logs/', { logType: 'SecurityLog' }));
        assert.match(answer.filename, /-security-/);
        await waitStatus(id, 'LogStatusNotification', 'Uploaded');
        const upload = http.uploads.find((u) => u.fileName === answer.filename)!;
        // The charger's SecurityEventNotification CALLs and the CSMS's answers to them, nothing else.
        const calls = upload.text.split('\n').filter((l) => / >> \[2,/.test(l));
        assert.deepEqual(
          calls.map((l) =>
            JSON.parse(l.slice(l.indexOf('[')))
              .slice(2, 4)
              .map((x: Json) => x.type ?? x),
          ),
          [['SecurityEventNotification', 'InvalidFirmwareSigningCertificate']],
        );
        assert.doesNotMatch(upload.text, /BootNotification/);
      });

      if (!e.v16)
        test('N01 TriggerMessage LogStatusNotification without an upload says Idle', async () => {
          const id = `${e.tag}-LOG-IDLE`;
          await e.online(e.deploy(id));
          assert.deepEqual(
            await e.call(id, 'TriggerMessage', { requestedMessage: 'LogStatusNotification' }),
            {
              status: 'Accepted',
            },
          );
          await waitStatus(id, 'LogStatusNotification', 'Idle');
        });
    },
    {
      frameObserver: (identity) => (direction, frame, _type, _messageId, action) =>
        logOf(identity).push({ at: Date.now(), direction, action, frame }),
      recentLog: (identity) => logOf(identity),
    },
  );
