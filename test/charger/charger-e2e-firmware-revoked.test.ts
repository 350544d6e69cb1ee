// Signed firmware against the certificate revocation lists a charger holds, end to end (see
// e2e-suite.ts): 2.0.1 UpdateFirmware and the 1.6 security extension's SignedUpdateFirmware answer
// RevokedCertificate for a signing chain a held CRL revokes, with a root installed or not. The
// charger gets what its CRLs revoke as the engine gives it, with its connection settings
// (engine/deployments/charger-security.ts; through the API in test/security/revocation.test.ts).
// Certificates and CRLs are made here with @peculiar/x509.
import assert from 'node:assert/strict';
import { createSign } from 'node:crypto';
import { after, before, test } from 'node:test';
import { VERSIONS, e2eSuite, type Json } from './e2e-suite.ts';
import { startTransferServer, type TransferServer } from './transfer-server.ts';
import {
  createCertificateAuthority,
  issueCertificate,
  type CertificateAuthority,
  type KeyAndCertificate,
} from '../../engine/platform/certificates/x509.ts';
import { revokedEntries } from '../../engine/platform/certificates/crl.ts';
import { installs } from './certificate-installs.ts';
import { makeCrl, serialOf } from '../support/test-crl.ts';

const IMAGE = Buffer.from('EVSim firmware image\n'.repeat(100));
const sign = (signer: KeyAndCertificate) =>
  createSign('sha256').update(IMAGE).sign(signer.keyPem).toString('base64');

let ca: CertificateAuthority;
let revoked: KeyAndCertificate;
let kept: KeyAndCertificate;
let crl: string;

before(async () => {
  ca = await createCertificateAuthority('EVSim Manufacturer Root');
  [revoked, kept] = await Promise.all([
    issueCertificate(ca, { commonName: 'EVSim Firmware Signing (revoked)' }),
    issueCertificate(ca, { commonName: 'EVSim Firmware Signing' }),
  ]);
  crl = await makeCrl(ca, [revoked.certPem]);
});

for (const version of VERSIONS)
  e2eSuite(
    version,
    'firmware signers a held CRL revokes',
    (e) => {
      let http: TransferServer;
      before(async () => {
        http = await startTransferServer();
        http.file('/fw/evsim-ac-3.0.0.bin', IMAGE);
        // Slow enough that the job still runs when the revoked update comes.
        http.file('/fw/slow-3.1.0.bin', IMAGE, {}, 1500);
      });
      after(() => http.close());

      const SIGNED = e.v16 ? 'SignedUpdateFirmware' : 'UpdateFirmware';
      const STATUS = e.v16 ? 'SignedFirmwareStatusNotification' : 'FirmwareStatusNotification';
      const update = (
        requestId: number,
        path: string,
        signer: KeyAndCertificate,
        chain = signer.certPem,
      ) => ({
        requestId,
        firmware: {
          location: `${http.url}${path}`,
          retrieveDateTime: new Date().toISOString(),
          signingCertificate: chain,
          signature: sign(signer),
        },
      });
      const statuses = (id: string) =>
        e.received(id, STATUS).map((r: Json) => [r.params.status, r.params.requestId]);

      /** A charger online with the CRL's revoked entries in its connection settings, as the engine gives them. */
      async function holdingCrl(id: string) {
        e.settings.set(id, { revoked: revokedEntries(crl) });
        const c = e.deploy(id);
        await e.online(c);
        return c;
      }

      test(`${SIGNED} signed by a revoked certificate: RevokedCertificate and an InvalidFirmwareSigningCertificate event, the running job carries on; a certificate not revoked is taken`, async () => {
        const id = `${e.tag}-FW-CRL`;
        const c = await holdingCrl(id);
        assert.equal(
          c.ctx().security?.revoked?.[0]?.serial,
          serialOf(revoked.certPem)
            .toLowerCase()
            .replace(/^0+(?=.)/, ''),
        );
        assert.deepEqual(await e.call(id, SIGNED, update(21, '/fw/slow-3.1.0.bin', kept)), {
          status: 'Accepted',
        });
        await e.csms().waitFor(() => statuses(id).some(([s]) => s === 'Downloading'), 5000);
        assert.deepEqual(await e.call(id, SIGNED, update(22, '/fw/evsim-ac-3.0.0.bin', revoked)), {
          status: 'RevokedCertificate',
        });
        const [event] = await e.waitReceived(id, 'SecurityEventNotification');
        assert.equal(event.params.type, 'InvalidFirmwareSigningCertificate');
        assert.match(event.params.techInfo, /revoked/);
        // An intermediate further up the given chain is checked too.
        const chain = `${kept.certPem}${revoked.certPem}`;
        assert.deepEqual(await e.call(id, SIGNED, update(23, '/fw/evsim-ac-3.0.0.bin', kept, chain)), {
          status: 'RevokedCertificate',
        });
        // The first job was neither replaced nor stopped.
        await e.csms().waitFor(() => statuses(id).some(([s]) => s === 'Installed'), 12_000);
        assert.deepEqual(statuses(id), [
          ['Downloading', 21],
          ['Downloaded', 21],
          ['SignatureVerified', 21],
          ['Installing', 21],
          ['InstallRebooting', 21],
          ['Installed', 21],
        ]);
      });

      test(`${SIGNED} with a ManufacturerRootCertificate installed: a signer that root issued but its CRL revokes is RevokedCertificate, not Accepted`, async () => {
        const id = `${e.tag}-FW-CRL-ROOT`;
        const c = await holdingCrl(id);
        assert.deepEqual(
          await e.call(id, 'InstallCertificate', {
            certificateType: 'ManufacturerRootCertificate',
            certificate: ca.certPem,
          }),
          { status: 'Accepted' },
        );
        await c.until(() => c.ctx().certificates?.[0]?.pem !== undefined);
        assert.deepEqual(await e.call(id, SIGNED, update(31, '/fw/evsim-ac-3.0.0.bin', revoked)), {
          status: 'RevokedCertificate',
        });
        const [event] = await e.waitReceived(id, 'SecurityEventNotification');
        assert.equal(event.params.type, 'InvalidFirmwareSigningCertificate');
        assert.deepEqual(await e.call(id, SIGNED, update(32, '/fw/evsim-ac-3.0.0.bin', kept)), {
          status: 'Accepted',
        });
        await e.csms().waitFor(() => statuses(id).some(([s]) => s === 'SignatureVerified'), 12_000);
      });
    },
    installs,
  );
