// CA certificates the central system installs (blocks/certificates.ts): listed from the answer on,
// whatever the engine is still doing with the PEM. Certificates made by the product's X.509 wrapper.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { online } from '../charger-harness.ts';
import {
  createCertificateAuthority,
  type CertificateAuthority,
} from '../../../../engine/platform/certificates/x509.ts';
import { certificateHashData } from '../../../../protocols/ocpp/certificate-hash-data.ts';

let csmsRoot: CertificateAuthority;
before(async () => {
  csmsRoot = await createCertificateAuthority('CSMS Root');
});

const CASES = [
  ['ocpp1.6', 'CentralSystemRootCertificate', { certificateType: 'CentralSystemRootCertificate' }],
  ['ocpp2.0.1', 'CSMSRootCertificate', { certificateType: ['CSMSRootCertificate'] }],
] as const;

for (const [version, type, query] of CASES)
  test(`${version}: M05/M03 after InstallCertificate ${type} Accepted, GetInstalledCertificateIds lists it at once`, async () => {
    const h = online(version);
    assert.equal((await h.csmsCall('GetInstalledCertificateIds', query)).status, 'NotFound');
    const installed = await h.csmsCall('InstallCertificate', {
      certificateType: type,
      certificate: csmsRoot.certPem,
    });
    assert.equal(installed.status, 'Accepted');
    // The engine has not answered yet (it stores the PEM first): the charger lists it anyway.
    const listed = await h.csmsCall('GetInstalledCertificateIds', query);
    assert.equal(listed.status, 'Accepted');
    const hash =
      version === 'ocpp1.6'
        ? listed.certificateHashData[0]
        : listed.certificateHashDataChain[0].certificateHashData;
    assert.deepEqual(hash, certificateHashData(csmsRoot.certPem));
    if (version === 'ocpp2.0.1') assert.equal(listed.certificateHashDataChain[0].certificateType, type);
    // The engine's answer, when it comes, does not list it twice.
    h.send({
      type: 'security.installed',
      certificateType: type,
      hashData: certificateHashData(csmsRoot.certPem),
    });
    const again = await h.csmsCall('GetInstalledCertificateIds', query);
    assert.equal((again.certificateHashData ?? again.certificateHashDataChain).length, 1);
    assert.equal((await h.csmsCall('DeleteCertificate', { certificateHashData: hash })).status, 'Accepted');
    assert.equal((await h.csmsCall('GetInstalledCertificateIds', query)).status, 'NotFound');
    h.finish();
  });

test('ocpp2.0.1: M05 a PEM that is no certificate is Rejected and not listed', async () => {
  const h = online('ocpp2.0.1');
  const bogus = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----';
  assert.equal(
    (await h.csmsCall('InstallCertificate', { certificateType: 'CSMSRootCertificate', certificate: bogus }))
      .status,
    'Rejected',
  );
  assert.equal((await h.csmsCall('GetInstalledCertificateIds', {})).status, 'NotFound');
  h.finish();
});

for (const type of ['V2GRootCertificate', 'MORootCertificate'] as const)
  test(`ocpp2.0.1: M05/M03 a ${type} installed is listed under its type, and only when asked for it (or for all)`, async () => {
    const h = online('ocpp2.0.1');
    const installed = await h.csmsCall('InstallCertificate', {
      certificateType: type,
      certificate: csmsRoot.certPem,
    });
    assert.equal(installed.status, 'Accepted');
    const listed = await h.csmsCall('GetInstalledCertificateIds', { certificateType: [type] });
    assert.deepEqual(
      listed.certificateHashDataChain.map((c: any) => c.certificateType),
      [type],
    );
    assert.equal(
      (await h.csmsCall('GetInstalledCertificateIds', { certificateType: ['CSMSRootCertificate'] })).status,
      'NotFound',
    );
    assert.equal((await h.csmsCall('GetInstalledCertificateIds', {})).certificateHashDataChain.length, 1);
    h.finish();
  });

for (const [version, type, query] of CASES)
  test(`${version}: M04 a certificate deleted before the engine finished storing it stays deleted`, async () => {
    const h = online(version);
    await h.csmsCall('InstallCertificate', { certificateType: type, certificate: csmsRoot.certPem });
    const hashData = certificateHashData(csmsRoot.certPem);
    assert.equal(
      (await h.csmsCall('DeleteCertificate', { certificateHashData: hashData })).status,
      'Accepted',
    );
    // The engine's answer to the install arrives late, after the delete.
    h.send({ type: 'security.installed', certificateType: type, hashData });
    assert.equal((await h.csmsCall('GetInstalledCertificateIds', query)).status, 'NotFound');
    h.finish();
  });
