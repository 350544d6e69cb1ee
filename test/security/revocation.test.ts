// Certificate revocation lists a charger holds (E5 `security.crl_pem`), through the API: over TLS
// (profile 2) against Node's own https server, a central system whose certificate a held CRL
// revokes is refused (TLS_ERROR, hint starting CERT_REVOKED) and one it does not list is not; and
// the engine hands the charger what the CRLs revoke, so a revoked firmware signer is refused
// (RevokedCertificate). Certificates and CRLs are made in the test with @peculiar/x509.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { makeCrl } from '../support/test-crl.ts';
import {
  createCertificateAuthority,
  issueCertificate,
  type KeyAndCertificate,
} from '../../engine/platform/certificates/x509.ts';
import {
  DUAL_MODEL,
  eventsOf,
  eventually,
  type As,
  type StageEventBody,
} from '../deployments/deployment-helpers.ts';

const PASSWORD = 'crl-test-password-0123';

const online = (events: StageEventBody[]) =>
  events.some((e) => e.stage === 'online' && e.outcome === 'succeeded');
const tlsFailure = (events: StageEventBody[]) =>
  events.find((e) => e.outcome === 'failed' && e.code === 'TLS_ERROR');

describe(`certificate revocation lists held by a charger (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let ca: string;
  let crl: string;
  /** Central systems serving a certificate the CRL revokes, and one it does not list. */
  let revokedCsms: StrictCsms;
  let keptCsms: StrictCsms;
  /** A plain ws:// central system, for the firmware calls. */
  let plain: StrictCsms;
  let revokedSigner: KeyAndCertificate;
  let keptSigner: KeyAndCertificate;

  before(async () => {
    const authority = await createCertificateAuthority('evsim CRL test CA');
    ca = authority.certPem;
    const server = { commonName: '127.0.0.1', hosts: ['127.0.0.1'], usage: 'server' as const };
    const [revokedServer, keptServer] = await Promise.all([
      issueCertificate(authority, server),
      issueCertificate(authority, server),
    ]);
    [revokedSigner, keptSigner] = await Promise.all([
      issueCertificate(authority, { commonName: 'EVSim Firmware Signing (revoked)' }),
      issueCertificate(authority, { commonName: 'EVSim Firmware Signing' }),
    ]);
    crl = await makeCrl(authority, [revokedServer.certPem, revokedSigner.certPem]);
    [svc, revokedCsms, keptCsms, plain] = await Promise.all([
      startTestService(),
      startStrictCsms({ tls: { cert: revokedServer.certPem, key: revokedServer.keyPem } }),
      startStrictCsms({ tls: { cert: keptServer.certPem, key: keptServer.keyPem } }),
      startStrictCsms(),
    ]);
    as = svc.as('org-crl');
  });
  after(async () => {
    await svc.close();
    await Promise.all([revokedCsms.close(), keptCsms.close(), plain.close()]);
  });

  const deploy = async (identity: string, wsUrl: string, security: Record<string, unknown>) => {
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity, model: DUAL_MODEL, ocpp_version: 'ocpp2.0.1', ws_url: wsUrl, security },
    });
    assert.equal(res.status, 201, res.text);
  };

  test('SP2 holding a CRL that revokes the server certificate: not connected, TLS_ERROR with a hint starting CERT_REVOKED', async () => {
    const identity = 'CRL-SP2-REVOKED';
    await deploy(identity, revokedCsms.url, { profile: 2, password: PASSWORD, ca_pem: ca, crl_pem: crl });
    const failure = tlsFailure(
      await eventually(
        () => eventsOf(as, identity),
        (e) => !!tlsFailure(e),
      ),
    );
    assert.match(failure!.hint!, /^CERT_REVOKED: .*revoked by a CRL the charger holds \(security\.crl_pem\)/);
    assert.ok(!online(await eventsOf(as, identity)));
    assert.equal(
      revokedCsms.received.find((r) => r.identity === identity),
      undefined,
      'no message reached the central system',
    );
  });

  test('SP2 holding a CRL that does not list the server certificate: connects and boots', async () => {
    const identity = 'CRL-SP2-KEPT';
    await deploy(identity, keptCsms.url, { profile: 2, password: PASSWORD, ca_pem: ca, crl_pem: crl });
    await eventually(() => eventsOf(as, identity), online);
    await keptCsms.waitFor(() =>
      keptCsms.received.find((r) => r.identity === identity && r.action === 'BootNotification'),
    );
  });

  test('the engine gives the charger what its CRLs revoke: a revoked firmware signer is RevokedCertificate, another is Accepted', async () => {
    const identity = 'CRL-FW';
    await deploy(identity, plain.url, { profile: 0, crl_pem: crl });
    await eventually(() => eventsOf(as, identity), online);
    const update = (requestId: number, signer: KeyAndCertificate) => ({
      requestId,
      firmware: {
        location: 'http://127.0.0.1:9/fw/evsim-9.9.9.bin',
        retrieveDateTime: new Date(Date.now() + 3_600_000).toISOString(),
        signingCertificate: signer.certPem,
        signature: 'c2lnbmF0dXJl',
      },
    });
    assert.deepEqual(await plain.call(identity, 'UpdateFirmware', update(1, revokedSigner)), {
      status: 'RevokedCertificate',
    });
    const event = await plain.waitFor(() =>
      plain.received.find((r) => r.identity === identity && r.action === 'SecurityEventNotification'),
    );
    assert.equal(event.params.type, 'InvalidFirmwareSigningCertificate');
    assert.match(event.params.techInfo, /revoked/);
    assert.deepEqual(await plain.call(identity, 'UpdateFirmware', update(2, keptSigner)), {
      status: 'Accepted',
    });
    assert.deepEqual(
      [revokedCsms, keptCsms, plain].flatMap((c) => c.schemaErrors),
      [],
    );
  });
});
