// Certificates made in the test by the product's X.509 wrapper (@peculiar/x509): a CA, a server
// certificate for 127.0.0.1 (IP subjectAltName), a client certificate (CN = identity) and a second,
// unrelated CA with its own client certificate, for the "wrong CA" cases.
import { createCertificateAuthority, issueCertificate } from '../../engine/platform/certificates/x509.ts';

export interface TestCertificates {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A CA that signed none of the above. */
  otherCa: string;
  /** A client certificate (CN = identity) signed by the other CA. */
  otherClientCert: string;
  otherClientKey: string;
  /** Another client certificate of the first CA, for `identity`. */
  issueClient(identity: string): Promise<{ cert: string; key: string }>;
}

export async function makeTestCertificates(clientIdentity: string): Promise<TestCertificates> {
  const [ca, other] = await Promise.all([
    createCertificateAuthority('evsim test CA'),
    createCertificateAuthority('unrelated test CA'),
  ]);
  const [server, client, otherClient] = await Promise.all([
    issueCertificate(ca, { commonName: '127.0.0.1', hosts: ['127.0.0.1'], usage: 'server' }),
    issueCertificate(ca, { commonName: clientIdentity, usage: 'client' }),
    issueCertificate(other, { commonName: clientIdentity, usage: 'client' }),
  ]);
  return {
    ca: ca.certPem,
    serverCert: server.certPem,
    serverKey: server.keyPem,
    clientCert: client.certPem,
    clientKey: client.keyPem,
    otherCa: other.certPem,
    otherClientCert: otherClient.certPem,
    otherClientKey: otherClient.keyPem,
    async issueClient(identity) {
      const c = await issueCertificate(ca, { commonName: identity, usage: 'client' });
      return { cert: c.certPem, key: c.keyPem };
    },
  };
}
