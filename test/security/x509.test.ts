// The one X.509 wrapper: what it makes is checked by Node's own X.509 parser and TLS stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import {
  createCertificateAuthority,
  createCertificateRequest,
  issueCertificate,
  signCertificateRequest,
  subjectOf,
} from '../../engine/platform/certificates/x509.ts';

test('a CA issues a server certificate for an IP address that Node verifies against it', async () => {
  const ca = await createCertificateAuthority('wrapper CA');
  const server = await issueCertificate(ca, {
    commonName: '127.0.0.1',
    hosts: ['127.0.0.1', 'csms.test'],
    usage: 'server',
  });
  const caCert = new X509Certificate(ca.certPem);
  const cert = new X509Certificate(server.certPem);
  assert.equal(caCert.ca, true);
  assert.equal(cert.ca, false);
  assert.ok(cert.verify(caCert.publicKey));
  assert.ok(cert.checkIssued(caCert));
  assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
  assert.equal(cert.checkHost('csms.test'), 'csms.test');
  assert.ok(cert.checkPrivateKey(createPrivateKey(server.keyPem)));
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
});

test('a client certificate names the charger identity and is for client authentication', async () => {
  const ca = await createCertificateAuthority('wrapper CA');
  const client = await issueCertificate(ca, { commonName: 'CP-42', usage: 'client' });
  const cert = new X509Certificate(client.certPem);
  assert.equal(cert.subject, 'CN=CP-42');
  assert.equal(subjectOf(client.certPem), 'CN=CP-42');
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  const other = await createCertificateAuthority('unrelated CA');
  assert.equal(cert.verify(new X509Certificate(other.certPem).publicKey), false);
});

test('a certificate request is signed by the CA with the subject and key of the request', async () => {
  const ca = await createCertificateAuthority('wrapper CA');
  const { csrPem, keyPem } = await createCertificateRequest('CP-7', 'Evsim');
  assert.match(csrPem, /-----BEGIN CERTIFICATE REQUEST-----/);
  const signed = new X509Certificate(await signCertificateRequest(ca, csrPem, { usage: 'client' }));
  assert.equal(signed.subject, 'CN=CP-7\nO=Evsim');
  assert.ok(signed.verify(new X509Certificate(ca.certPem).publicKey));
  assert.ok(signed.checkPrivateKey(createPrivateKey(keyPem)));
});

test('a certificate request whose signature does not verify is refused', async () => {
  const ca = await createCertificateAuthority('wrapper CA');
  const { csrPem } = await createCertificateRequest('CP-8');
  const lines = csrPem.trim().split('\n');
  // Flip a character of the signature (the end of the DER, so the last base64 line).
  const last = lines.length - 2;
  const body = lines[last];
  lines[last] = body.slice(0, 5) + (body[5] === 'A' ? 'B' : 'A') + body.slice(6);
  await assert.rejects(signCertificateRequest(ca, lines.join('\n')), /not signed by its own key/);
});
