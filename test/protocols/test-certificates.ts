import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/**
 * A throwaway CA, a server certificate for 127.0.0.1 and a client certificate (CN = identity),
 * made with the openssl CLI (EC P-256: fast to generate).
 */
export function makeTestCertificates(clientIdentity: string): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'evsim-certs-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    const newKey = (name: string) =>
      openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file(name));
    newKey('ca.key');
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      file('ca.key'),
      '-subj',
      '/CN=evsim test CA',
      '-days',
      '2',
      '-out',
      file('ca.pem'),
    );
    const issue = (name: string, subject: string, extensions: string) => {
      newKey(`${name}.key`);
      openssl('req', '-new', '-key', file(`${name}.key`), '-subj', subject, '-out', file(`${name}.csr`));
      writeFileSync(file(`${name}.ext`), extensions);
      openssl(
        'x509',
        '-req',
        '-in',
        file(`${name}.csr`),
        '-CA',
        file('ca.pem'),
        '-CAkey',
        file('ca.key'),
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        file(`${name}.ext`),
        '-out',
        file(`${name}.pem`),
      );
    };
    issue('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    issue('client', `/CN=${clientIdentity}`, 'extendedKeyUsage=clientAuth\n');
    const read = (name: string) => readFileSync(file(name), 'utf8');
    return {
      ca: read('ca.pem'),
      serverCert: read('server.pem'),
      serverKey: read('server.key'),
      clientCert: read('client.pem'),
      clientKey: read('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
