// Firmware updates end to end (see e2e-suite.ts): 1.6 UpdateFirmware, the 1.6 security extension's
// SignedUpdateFirmware and 2.0.1 UpdateFirmware (L01 secure, L02 plain, L03 scheduled), with the
// image downloaded from a real HTTP server and its signature made here with @peculiar/x509 and
// WebCrypto.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createSign, webcrypto } from 'node:crypto';
import { after, before, test } from 'node:test';
import * as x509 from '@peculiar/x509';
import { VERSIONS, e2eSuite, type E2e, type Json } from './e2e-suite.ts';
import { startTransferServer, type TransferServer } from './transfer-server.ts';
import { createCertificateAuthority, issueCertificate } from '../../engine/platform/certificates/x509.ts';
import { installs } from './certificate-installs.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A firmware signer: a self-signed certificate and a function signing bytes with its key. */
async function makeSigner() {
  const keys = (await webcrypto.subtle.generateKey(ECDSA, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=EVSim Firmware Signing',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: ECDSA,
    keys,
  });
  return {
    certPem: cert.toString('pem'),
    async sign(bytes: Buffer): Promise<string> {
      return Buffer.from(await webcrypto.subtle.sign(ECDSA, keys.privateKey, bytes)).toString('base64');
    },
  };
}

const IMAGE = Buffer.from('EVSim firmware image\n'.repeat(100));
const NEW_VERSION = '2.4.1';

/** The charger's CALLs in order, firmware statuses written as `Action:status`. */
function callsOf(e: E2e, id: string): string[] {
  return e
    .fromCharger(id)
    .filter((f: Json) => f[0] === 2)
    .map((f: Json) =>
      /FirmwareStatusNotification$/.test(f[2])
        ? `${f[2]}:${f[3].status}`
        : f[2] === 'TransactionEvent'
          ? `${f[2]}:${f[3].eventType}`
          : f[2],
    );
}

for (const version of VERSIONS)
  e2eSuite(
    version,
    'firmware update',
    (e) => {
      let http: TransferServer;
      let signer: Awaited<ReturnType<typeof makeSigner>>;

      before(async () => {
        http = await startTransferServer();
        signer = await makeSigner();
        http.file(`/fw/evsim-ac-${NEW_VERSION}.bin`, IMAGE);
        http.file('/fw/latest.bin', IMAGE);
        http.status('/fw/missing.bin', 404);
      });
      after(() => http.close());

      /** The signed update's call and status message in this version. */
      const SIGNED = e.v16 ? 'SignedUpdateFirmware' : 'UpdateFirmware';
      const STATUS = e.v16 ? 'SignedFirmwareStatusNotification' : 'FirmwareStatusNotification';
      const statuses = (id: string, action = STATUS) => e.received(id, action).map((r) => r.params.status);
      const waitStatus = (id: string, status: string, action = STATUS) =>
        e.csms().waitFor(() => statuses(id, action).includes(status), 12_000);
      const signedUpdate = (requestId: number, path: string, signature: string, extra: Json = {}) => ({
        requestId,
        firmware: {
          location: `${http.url}${path}`,
          retrieveDateTime: new Date().toISOString(),
          signingCertificate: signer.certPem,
          signature,
          ...extra,
        },
      });
      const bootVersion = (boot: Json) =>
        e.v16 ? boot.params.firmwareVersion : boot.params.chargingStation.firmwareVersion;

      if (e.v16) {
        test('1.6 UpdateFirmware: Downloading, Downloaded, Installing, a reboot whose boot carries the new version, then Installed', async () => {
          const id = `${e.tag}-FW-OK`;
          await e.online(e.deploy(id));
          const answer = await e.call(id, 'UpdateFirmware', {
            location: `${http.url}/fw/evsim-ac-${NEW_VERSION}.bin`,
            retrieveDate: new Date().toISOString(),
          });
          assert.deepEqual(answer, {});
          await waitStatus(id, 'Installed', 'FirmwareStatusNotification');
          const seq = callsOf(e, id).filter(
            (a) => a.startsWith('FirmwareStatus') || a === 'BootNotification',
          );
          assert.deepEqual(seq, [
            'BootNotification',
            'FirmwareStatusNotification:Downloading',
            'FirmwareStatusNotification:Downloaded',
            'FirmwareStatusNotification:Installing',
            'BootNotification',
            'FirmwareStatusNotification:Installed',
          ]);
          const boots = e.received(id, 'BootNotification');
          assert.equal(bootVersion(boots[0]), '1.2.3');
          assert.equal(bootVersion(boots[1]), NEW_VERSION);
          assert.equal(http.hits(`/fw/evsim-ac-${NEW_VERSION}.bin`), 1);
        });

        test('1.6 UpdateFirmware: a download that keeps failing is tried retries + 1 times, then DownloadFailed', async () => {
          const id = `${e.tag}-FW-404`;
          await e.online(e.deploy(id));
          await e.call(id, 'UpdateFirmware', {
            location: `${http.url}/fw/missing.bin`,
            retrieveDate: new Date().toISOString(),
            retries: 2,
            retryInterval: 1,
          });
          await waitStatus(id, 'DownloadFailed', 'FirmwareStatusNotification');
          assert.deepEqual(statuses(id, 'FirmwareStatusNotification'), ['Downloading', 'DownloadFailed']);
          assert.equal(http.hits('/fw/missing.bin'), 3);
          assert.equal(e.received(id, 'BootNotification').length, 1);
        });

        test('1.6 UpdateFirmware: an image that names no version is not installed (InstallationFailed), no reboot', async () => {
          const id = `${e.tag}-FW-NOVERSION`;
          await e.online(e.deploy(id));
          await e.call(id, 'UpdateFirmware', {
            location: `${http.url}/fw/latest.bin`,
            retrieveDate: new Date().toISOString(),
          });
          await waitStatus(id, 'InstallationFailed', 'FirmwareStatusNotification');
          assert.deepEqual(statuses(id, 'FirmwareStatusNotification'), [
            'Downloading',
            'Downloaded',
            'InstallationFailed',
          ]);
          assert.equal(e.received(id, 'BootNotification').length, 1);
        });

        test('1.6 TriggerMessage FirmwareStatusNotification without an update says Idle', async () => {
          const id = `${e.tag}-FW-IDLE`;
          await e.online(e.deploy(id));
          assert.deepEqual(
            await e.call(id, 'TriggerMessage', { requestedMessage: 'FirmwareStatusNotification' }),
            { status: 'Accepted' },
          );
          await waitStatus(id, 'Idle', 'FirmwareStatusNotification');
        });
      }

      if (!e.v16) {
        test('L02 UpdateFirmware without a signature: Downloading, Downloaded, Installing, InstallRebooting, a boot with the new version and reason FirmwareUpdate, Installed', async () => {
          const id = `${e.tag}-FW-L02`;
          await e.online(e.deploy(id));
          const answer = await e.call(id, 'UpdateFirmware', {
            requestId: 5,
            firmware: {
              location: `${http.url}/fw/evsim-ac-${NEW_VERSION}.bin`,
              retrieveDateTime: new Date().toISOString(),
            },
          });
          assert.deepEqual(answer, { status: 'Accepted' });
          await waitStatus(id, 'Installed');
          assert.deepEqual(
            e.received(id, STATUS).map((r) => [r.params.status, r.params.requestId]),
            [
              ['Downloading', 5],
              ['Downloaded', 5],
              ['Installing', 5],
              ['InstallRebooting', 5],
              ['Installed', 5],
            ],
          );
          const boots = e.received(id, 'BootNotification');
          assert.equal(boots.length, 2);
          assert.equal(bootVersion(boots[1]), NEW_VERSION);
          assert.equal(boots[1].params.reason, 'FirmwareUpdate');
        });

        test('L02 a charger restored from its snapshot while downloading carries on and installs', async () => {
          const id = `${e.tag}-FW-RESTORE`;
          const c = e.deploy(id);
          await e.online(c);
          http.file('/fw/slow-5.0.0.bin', IMAGE, {}, 1500);
          await e.call(id, 'UpdateFirmware', {
            requestId: 9,
            firmware: {
              location: `${http.url}/fw/slow-5.0.0.bin`,
              retrieveDateTime: new Date().toISOString(),
            },
          });
          await waitStatus(id, 'Downloading');
          const snapshot = JSON.parse(JSON.stringify(c.actor.getPersistedSnapshot()));
          c.stop();
          const restored = e.restore(snapshot);
          restored.actor.send({ type: 'RESUME' });
          await waitStatus(id, 'Installed');
          assert.deepEqual(statuses(id), [
            'Downloading',
            'Downloaded',
            'Installing',
            'InstallRebooting',
            'Installed',
          ]);
          assert.equal(bootVersion(e.received(id, 'BootNotification').at(-1)), '5.0.0');
        });

        test('L01 UpdateFirmware whose download fails after the retries: DownloadFailed with the requestId', async () => {
          const id = `${e.tag}-FW-L01-404`;
          await e.online(e.deploy(id));
          const before = http.hits('/fw/missing.bin');
          await e.call(id, 'UpdateFirmware', {
            requestId: 6,
            retries: 1,
            retryInterval: 1,
            firmware: { location: `${http.url}/fw/missing.bin`, retrieveDateTime: new Date().toISOString() },
          });
          await waitStatus(id, 'DownloadFailed');
          assert.deepEqual(
            e.received(id, STATUS).map((r) => [r.params.status, r.params.requestId]),
            [
              ['Downloading', 6],
              ['DownloadFailed', 6],
            ],
          );
          assert.equal(http.hits('/fw/missing.bin') - before, 2);
        });

        test('L03 UpdateFirmware for later: DownloadScheduled first, the download at retrieveDateTime', async () => {
          const id = `${e.tag}-FW-L03`;
          await e.online(e.deploy(id));
          http.file('/fw/l03-3.0.0.bin', IMAGE);
          await e.call(id, 'UpdateFirmware', {
            requestId: 8,
            firmware: {
              location: `${http.url}/fw/l03-3.0.0.bin`,
              retrieveDateTime: new Date(Date.now() + 1500).toISOString(),
            },
          });
          await waitStatus(id, 'DownloadScheduled');
          assert.equal(http.hits('/fw/l03-3.0.0.bin'), 0);
          await waitStatus(id, 'Installed');
          assert.deepEqual(statuses(id).slice(0, 3), ['DownloadScheduled', 'Downloading', 'Downloaded']);
          assert.equal(http.hits('/fw/l03-3.0.0.bin'), 1);
        });
      }

      test(`L01 ${SIGNED} with a good signature: SignatureVerified, installed, boot carries the new version, FirmwareUpdated security event`, async () => {
        const id = `${e.tag}-FW-SIGNED`;
        await e.online(e.deploy(id));
        const answer = await e.call(
          id,
          SIGNED,
          signedUpdate(11, `/fw/evsim-ac-${NEW_VERSION}.bin`, await signer.sign(IMAGE)),
        );
        assert.deepEqual(answer, { status: 'Accepted' });
        await waitStatus(id, 'Installed');
        assert.deepEqual(
          e.received(id, STATUS).map((r) => [r.params.status, r.params.requestId]),
          [
            ['Downloading', 11],
            ['Downloaded', 11],
            ['SignatureVerified', 11],
            ['Installing', 11],
            ['InstallRebooting', 11],
            ['Installed', 11],
          ],
        );
        assert.equal(bootVersion(e.received(id, 'BootNotification')[1]), NEW_VERSION);
        // The reboot's own events (ResetOrReboot, StartupOfTheDevice), then the update's.
        const events = await e.waitReceived(id, 'SecurityEventNotification', 3);
        assert.deepEqual(
          events.map((r) => r.params.type),
          ['ResetOrReboot', 'StartupOfTheDevice', 'FirmwareUpdated'],
        );
      });

      test(`L01 ${SIGNED} with a bad signature: InvalidSignature, an InvalidFirmwareSignature security event, nothing installed`, async () => {
        const id = `${e.tag}-FW-BADSIG`;
        await e.online(e.deploy(id));
        const tampered = await signer.sign(Buffer.concat([IMAGE, Buffer.from('tampered')]));
        await e.call(id, SIGNED, signedUpdate(12, `/fw/evsim-ac-${NEW_VERSION}.bin`, tampered));
        await waitStatus(id, 'InvalidSignature');
        const [event] = await e.waitReceived(id, 'SecurityEventNotification');
        assert.equal(event.params.type, 'InvalidFirmwareSignature');
        assert.deepEqual(statuses(id), ['Downloading', 'Downloaded', 'InvalidSignature']);
        assert.equal(e.received(id, 'BootNotification').length, 1);
      });

      test(`L01 ${SIGNED} waits for the running transaction to end before installing`, async () => {
        const id = `${e.tag}-FW-WAIT`;
        const c = e.deploy(id);
        await e.online(c);
        c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
        c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-FW' });
        await c.until(() => c.ctx().connectors[0].tx !== undefined && c.ctx().outbox.length === 0);
        await e.call(
          id,
          SIGNED,
          signedUpdate(13, `/fw/evsim-ac-${NEW_VERSION}.bin`, await signer.sign(IMAGE)),
        );
        await waitStatus(id, 'SignatureVerified');
        // The transaction ends only now: Installing must come after its end.
        c.actor.send({ type: 'UNPLUG', connectorId: 1 });
        await waitStatus(id, 'Installed');
        const ended = e.v16 ? 'StopTransaction' : 'TransactionEvent:Ended';
        const seq = callsOf(e, id).filter(
          (a) => a === ended || a === `${STATUS}:SignatureVerified` || a === `${STATUS}:Installing`,
        );
        assert.deepEqual(seq.slice(-3), [`${STATUS}:SignatureVerified`, ended, `${STATUS}:Installing`]);
      });

      test(`L01.FR.02 ${SIGNED} with a ManufacturerRootCertificate installed: a signer it did not issue is InvalidCertificate, one it issued installs`, async () => {
        const id = `${e.tag}-FW-ROOT`;
        const c = e.deploy(id);
        await e.online(c);
        const root = await createCertificateAuthority('EVSim Manufacturer Root');
        const ours = await issueCertificate(root, { commonName: 'EVSim Firmware Signing' });
        assert.deepEqual(
          await e.call(id, 'InstallCertificate', {
            certificateType: 'ManufacturerRootCertificate',
            certificate: root.certPem,
          }),
          { status: 'Accepted' },
        );
        await c.until(() => c.ctx().certificates?.[0]?.pem !== undefined);
        const refused = await e.call(
          id,
          SIGNED,
          signedUpdate(15, `/fw/evsim-ac-${NEW_VERSION}.bin`, await signer.sign(IMAGE)),
        );
        assert.deepEqual(refused, { status: 'InvalidCertificate' });
        const [event] = await e.waitReceived(id, 'SecurityEventNotification');
        assert.equal(event.params.type, 'InvalidFirmwareSigningCertificate');
        const signature = createSign('sha256').update(IMAGE).sign(ours.keyPem).toString('base64');
        const update = signedUpdate(16, `/fw/evsim-ac-${NEW_VERSION}.bin`, signature);
        update.firmware.signingCertificate = ours.certPem;
        assert.deepEqual(await e.call(id, SIGNED, update), { status: 'Accepted' });
        await waitStatus(id, 'Installed');
        assert.deepEqual(
          e
            .received(id, STATUS)
            .map((r) => [r.params.status, r.params.requestId])
            .slice(0, 3),
          [
            ['Downloading', 16],
            ['Downloaded', 16],
            ['SignatureVerified', 16],
          ],
        );
      });

      test(`L01.FR.07 ${SIGNED} waiting for a transaction holds the other connector Unavailable until the install's reboot`, async () => {
        const id = `${e.tag}-FW-HOLD`;
        const c = e.deploy(id);
        await e.online(c);
        c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
        c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-FW' });
        await c.until(() => c.ctx().connectors[0].tx !== undefined && c.ctx().outbox.length === 0);
        await e.call(
          id,
          SIGNED,
          signedUpdate(14, `/fw/evsim-ac-${NEW_VERSION}.bin`, await signer.sign(IMAGE)),
        );
        await e.csms().waitFor(() => e.connectorStatuses(id, 2).includes('Unavailable'), 12_000);
        assert.deepEqual(e.connectorStatuses(id, 2), ['Available', 'Unavailable']);
        c.actor.send({ type: 'UNPLUG', connectorId: 1 });
        await waitStatus(id, 'Installed');
        // The transaction's connector joined the hold when it ended; the boot after the install frees both.
        assert.equal(e.connectorStatuses(id, 1).at(-2), 'Unavailable');
        assert.equal(e.connectorStatuses(id, 1).at(-1), 'Available');
        assert.deepEqual(e.connectorStatuses(id, 2), ['Available', 'Unavailable', 'Available']);
      });
    },
    installs,
  );
