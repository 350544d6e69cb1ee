// Signed firmware against the charger's manufacturer roots (blocks/firmware.ts, blocks/certificates.ts,
// core/signing-chain.ts): 2.0.1 L01.FR.02 and the 1.6 security extension's SignedUpdateFirmware.
// Certificates are made by the product's X.509 wrapper (@peculiar/x509).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, harness, online, type Harness } from '../charger-harness.ts';
import { serialOf } from '../../../support/test-crl.ts';
import {
  createCertificateAuthority,
  issueCertificate,
  type CertificateAuthority,
} from '../../../../engine/platform/certificates/x509.ts';
import type { OcppVersion } from '../../../../actors/charger/charger-ports.ts';
import { certificateHashData } from '../../../../protocols/ocpp/certificate-hash-data.ts';

let root: CertificateAuthority;
let other: CertificateAuthority;
let signedByRoot: string;
let signedByOther: string;

before(async () => {
  [root, other] = await Promise.all([
    createCertificateAuthority('EVSim Manufacturer Root'),
    createCertificateAuthority('Someone Else'),
  ]);
  [signedByRoot, signedByOther] = await Promise.all([
    issueCertificate(root, { commonName: 'EVSim Firmware Signing' }).then((k) => k.certPem),
    issueCertificate(other, { commonName: 'EVSim Firmware Signing' }).then((k) => k.certPem),
  ]);
});

/** The root's hash data, as the charger and the engine both name it. */
const rootHash = () => certificateHashData(root.certPem);

/** A charger (its clock now: the certificates are valid from now) with the manufacturer root installed, as the engine answers. */
async function withRoot(version: OcppVersion): Promise<Harness> {
  const h = online(version, { at: Date.now() });
  const answer = await h.csmsCall('InstallCertificate', {
    certificateType: 'ManufacturerRootCertificate',
    certificate: root.certPem,
  });
  assert.equal(answer.status, 'Accepted');
  h.send({
    type: 'security.installed',
    certificateType: 'ManufacturerRootCertificate',
    hashData: rootHash(),
  });
  return h;
}

function signedUpdate(h: Harness, signingCertificate: string) {
  return h.csmsCall(h.version === 'ocpp1.6' ? 'SignedUpdateFirmware' : 'UpdateFirmware', {
    requestId: 3,
    firmware: {
      location: 'http://127.0.0.1:9/fw/evsim-2.0.0.bin',
      retrieveDateTime: new Date(h.clock.now()).toISOString(),
      signingCertificate,
      signature: 'c2lnbmF0dXJl',
    },
  });
}

for (const version of VERSIONS) {
  test(`${version}: L01.FR.02 a signing certificate that does not chain to the installed ManufacturerRootCertificate: InvalidCertificate, an InvalidFirmwareSigningCertificate security event, nothing downloaded`, async () => {
    const h = await withRoot(version);
    assert.deepEqual(await signedUpdate(h, signedByOther), { status: 'InvalidCertificate' });
    h.tick(0);
    assert.deepEqual(
      h.callsOf('SecurityEventNotification').map((c) => c.payload.type),
      ['InvalidFirmwareSigningCertificate'],
    );
    assert.equal(h.ctx().firmware, undefined);
    assert.equal(
      h.callsOf(version === 'ocpp1.6' ? 'SignedFirmwareStatusNotification' : 'FirmwareStatusNotification')
        .length,
      0,
    );
    h.finish();
  });

  test(`${version}: L01 a signing certificate issued by the installed ManufacturerRootCertificate is Accepted and the download starts`, async () => {
    const h = await withRoot(version);
    assert.deepEqual(await signedUpdate(h, signedByRoot), { status: 'Accepted' });
    h.tick(0);
    assert.equal(
      h.callsOf(version === 'ocpp1.6' ? 'SignedFirmwareStatusNotification' : 'FirmwareStatusNotification')[0]
        .payload.status,
      'Downloading',
    );
    h.finish();
  });

  test(`${version}: L01 without a ManufacturerRootCertificate installed the signing certificate is taken as given (Accepted)`, async () => {
    const h = online(version, { at: Date.now() });
    assert.deepEqual(await signedUpdate(h, signedByOther), { status: 'Accepted' });
    h.finish();
  });

  test(`${version}: M04 a deleted ManufacturerRootCertificate no longer vouches for its signers`, async () => {
    const h = await withRoot(version);
    assert.deepEqual(await h.csmsCall('DeleteCertificate', { certificateHashData: rootHash() }), {
      status: 'Accepted',
    });
    assert.deepEqual(h.ctx().certificates, []);
    assert.deepEqual(await signedUpdate(h, signedByOther), { status: 'Accepted' });
    h.finish();
  });

  test(`${version}: a signer a held CRL revokes is RevokedCertificate (serials compared without case or leading zeros), after a restore from the snapshot too`, async () => {
    const h = harness(version, { connect: 'manual', at: Date.now() });
    h.deploy();
    // As the engine tells it when the link opens: what the charger's CRLs revoke.
    const revoked = [{ issuer: 'CN=Someone Else', serial: `00${serialOf(signedByOther).toUpperCase()}` }];
    h.link.sendBack!({
      type: 'link.open',
      security: { profile: 0, password: false, clientCert: false, revoked },
    });
    h.tick(0);
    assert.equal(h.stage(), 'online');
    assert.deepEqual(await signedUpdate(h, signedByOther), { status: 'RevokedCertificate' });
    h.tick(0);
    const [event] = h.callsOf('SecurityEventNotification');
    assert.equal(event.payload.type, 'InvalidFirmwareSigningCertificate');
    assert.match(event.payload.techInfo, /CN=EVSim Firmware Signing.*is revoked by a CRL of CN=Someone Else/);
    assert.equal(h.ctx().firmware, undefined);
    h.restart();
    h.link.sendBack!({ type: 'link.open' });
    h.tick(0);
    assert.equal(h.stage(), 'online');
    assert.deepEqual(await signedUpdate(h, signedByOther), { status: 'RevokedCertificate' });
    assert.deepEqual(await signedUpdate(h, signedByRoot), { status: 'Accepted' });
    h.finish();
  });
}
