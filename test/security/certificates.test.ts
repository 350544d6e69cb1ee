// Certificates of the security whitepaper (1.6) and blocks A / M (2.0.1), against ocpp-rpc strict
// servers behind Node's TLS with a CA made in the test: the charger makes its own key and CSR
// (SignCertificate), installs the certificate the central system signed (CertificateSigned) and
// uses it for its next security profile 3 connection; CA certificates are installed, listed and
// deleted; a certificate that does not fit is reported with SecurityEventNotification.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import {
  createCertificateAuthority,
  issueCertificate,
  signCertificateRequest,
  type CertificateAuthority,
} from '../../engine/platform/certificates/x509.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from '../deployments/deployment-helpers.ts';

const PASSWORD = 'Cert-Tests-Passw0rd-01';

describe(`certificates of the charger (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let ca: CertificateAuthority;
  let other: CertificateAuthority;
  let sp2: StrictCsms;
  let sp3: StrictCsms;

  before(async () => {
    [ca, other] = await Promise.all([
      createCertificateAuthority('cert test CA'),
      createCertificateAuthority('another CA'),
    ]);
    const server = await issueCertificate(ca, {
      commonName: '127.0.0.1',
      hosts: ['127.0.0.1'],
      usage: 'server',
    });
    [svc, sp2, sp3] = await Promise.all([
      startTestService(),
      startStrictCsms({
        auth: (_id, pw) => pw === PASSWORD,
        tls: { cert: server.certPem, key: server.keyPem },
      }),
      startStrictCsms({
        tls: { cert: server.certPem, key: server.keyPem, ca: ca.certPem, requestCert: true },
      }),
    ]);
    as = svc.as('org-certs');
  });
  after(async () => {
    await svc.close();
    await Promise.all([sp2.close(), sp3.close()]);
  });

  async function deploySp2(identity: string, version: string): Promise<string> {
    const res = await as('POST', '/evcharger/deployment', {
      body: {
        identity,
        model: DUAL_MODEL,
        ocpp_version: version,
        ws_url: sp2.url,
        security: { profile: 2, password: PASSWORD, ca_pem: ca.certPem },
      },
    });
    assert.equal(res.status, 201, res.text);
    await sp2.waitFor(() =>
      sp2.received.find((r) => r.identity === identity && r.action === 'StatusNotification'),
    );
    return res.body.deployment_id;
  }

  const signCertificateOf = (csms: StrictCsms, identity: string) =>
    csms.waitFor(() => csms.received.find((r) => r.identity === identity && r.action === 'SignCertificate'));

  test('ocpp2.0.1: A02 TriggerMessage SignChargingStationCertificate -> SignCertificate with a CSR of its own key; CertificateSigned; the next profile 3 connection uses it', async () => {
    const identity = 'CERT-201';
    const id = await deploySp2(identity, 'ocpp2.0.1');
    const trigger = await sp2.call(identity, 'TriggerMessage', {
      requestedMessage: 'SignChargingStationCertificate',
    });
    assert.equal(trigger.status, 'Accepted');
    const sign = await signCertificateOf(sp2, identity);
    assert.match(sign.params.csr, /-----BEGIN CERTIFICATE REQUEST-----/);
    const chain = await signCertificateRequest(ca, sign.params.csr, { usage: 'client' });
    const signed = await sp2.call(identity, 'CertificateSigned', {
      certificateChain: chain,
      certificateType: 'ChargingStationCertificate',
    });
    assert.equal(signed.status, 'Accepted');

    // Profile 3 is refused until the certificate is in, then accepted: the charger moves to sp3.
    await eventually(
      () => sp2.call(identity, 'SetNetworkProfile', networkProfile(1, sp3.url, 3)),
      (answer) => answer.status === 'Accepted',
    );
    const answer = await sp2.call(identity, 'SetVariables', {
      setVariableData: [
        {
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'NetworkConfigurationPriority' },
          attributeValue: '1,0',
        },
      ],
    });
    assert.equal(answer.setVariableResult[0].attributeStatus, 'Accepted');
    await sp3.waitFor(
      () => sp3.received.find((r) => r.identity === identity && r.action === 'BootNotification'),
      15_000,
    );
    const detail = await as('GET', `/evcharger/deployments/${id}`);
    assert.deepEqual(detail.body.security, { profile: 3, has_password: true, has_client_cert: true });
    assert.ok(!detail.text.includes('PRIVATE KEY'));
    assert.deepEqual([...sp2.schemaErrors, ...sp3.schemaErrors], []);
  });

  for (const [version, trigger, event] of [
    [
      'ocpp1.6',
      ['ExtendedTriggerMessage', { requestedMessage: 'SignChargePointCertificate' }],
      'InvalidChargePointCertificate',
    ],
    [
      'ocpp2.0.1',
      ['TriggerMessage', { requestedMessage: 'SignChargingStationCertificate' }],
      'InvalidChargingStationCertificate',
    ],
  ] as const)
    test(`${version}: a signed certificate for another key is reported as ${event}, and profile 3 stays refused`, async () => {
      const identity = `CERT-BAD-${version === 'ocpp1.6' ? '16' : '201'}`;
      await deploySp2(identity, version);
      assert.equal((await sp2.call(identity, trigger[0], trigger[1])).status, 'Accepted');
      await signCertificateOf(sp2, identity);
      const stranger = await issueCertificate(other, { commonName: identity, usage: 'client' });
      assert.equal(
        (await sp2.call(identity, 'CertificateSigned', { certificateChain: stranger.certPem })).status,
        'Accepted',
      );
      const reported = await sp2.waitFor(() =>
        sp2.received.find((r) => r.identity === identity && r.action === 'SecurityEventNotification'),
      );
      assert.equal(reported.params.type, event);
      if (version === 'ocpp1.6')
        assert.equal(
          (await sp2.call(identity, 'ChangeConfiguration', { key: 'SecurityProfile', value: '3' })).status,
          'Rejected',
        );
      else
        assert.equal(
          (await sp2.call(identity, 'SetNetworkProfile', networkProfile(1, sp3.url, 3))).status,
          'Rejected',
        );
    });

  test('ocpp1.6: SignCertificate / CertificateSigned, then SecurityProfile 3 is accepted and the charger reconnects with it', async () => {
    const identity = 'CERT-16';
    await deploySp2(identity, 'ocpp1.6');
    await sp2.call(identity, 'ExtendedTriggerMessage', { requestedMessage: 'SignChargePointCertificate' });
    const sign = await signCertificateOf(sp2, identity);
    const chain = await signCertificateRequest(ca, sign.params.csr, { usage: 'client' });
    assert.equal(
      (await sp2.call(identity, 'CertificateSigned', { certificateChain: chain })).status,
      'Accepted',
    );
    const boots = () =>
      sp2.received.filter((r) => r.identity === identity && r.action === 'BootNotification').length;
    const before = boots();
    await eventually(
      () => sp2.call(identity, 'ChangeConfiguration', { key: 'SecurityProfile', value: '3' }),
      (a) => a.status === 'Accepted',
    );
    await sp2.waitFor(() => boots() > before, 15_000);
    await sp2.waitFor(() => sp2.clients.has(identity));
    const conf = await eventually(
      () => sp2.call(identity, 'GetConfiguration', { key: ['SecurityProfile'] }),
      (a) => a.configurationKey?.[0]?.value === '3',
    );
    assert.equal(conf.configurationKey[0].value, '3');
    const events = await eventsOf(as, identity);
    assert.ok(!events.some((e) => e.code === 'TLS_ERROR'));
  });

  for (const [version, type] of [
    ['ocpp1.6', 'CentralSystemRootCertificate'],
    ['ocpp2.0.1', 'CSMSRootCertificate'],
  ] as const)
    test(`${version}: M05 InstallCertificate, M03 GetInstalledCertificateIds, M04 DeleteCertificate`, async () => {
      const identity = `CA-${version === 'ocpp1.6' ? '16' : '201'}`;
      await deploySp2(identity, version);
      const get = () =>
        sp2.call(
          identity,
          'GetInstalledCertificateIds',
          version === 'ocpp1.6' ? { certificateType: type } : { certificateType: [type] },
        );
      assert.equal((await get()).status, 'NotFound');
      assert.equal(
        (
          await sp2.call(identity, 'InstallCertificate', {
            certificateType: type,
            certificate: other.certPem,
          })
        ).status,
        'Accepted',
      );
      const listed = await eventually(get, (a) => a.status === 'Accepted');
      const hash =
        version === 'ocpp1.6'
          ? listed.certificateHashData[0]
          : listed.certificateHashDataChain[0].certificateHashData;
      assert.equal(hash.hashAlgorithm, 'SHA256');
      assert.match(hash.issuerNameHash, /^[0-9a-f]{64}$/);
      assert.equal(
        (await sp2.call(identity, 'DeleteCertificate', { certificateHashData: hash })).status,
        'Accepted',
      );
      assert.equal((await get()).status, 'NotFound');
      assert.equal(
        (await sp2.call(identity, 'DeleteCertificate', { certificateHashData: hash })).status,
        'NotFound',
      );
      assert.deepEqual(
        sp2.schemaErrors.filter((e) => e.identity === identity),
        [],
      );
    });
});

function networkProfile(slot: number, url: string, securityProfile: number) {
  return {
    configurationSlot: slot,
    connectionData: {
      ocppVersion: 'OCPP20',
      ocppTransport: 'JSON',
      ocppCsmsUrl: url,
      messageTimeout: 30,
      securityProfile,
      ocppInterface: 'Wired0',
    },
  };
}
