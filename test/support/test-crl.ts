// Certificate revocation lists made in the test with @peculiar/x509's X509CrlGenerator, signed by
// a CA of the product's X.509 wrapper, written as OpenSSL reads them (-----BEGIN X509 CRL-----).
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CertificateAuthority } from '../../engine/platform/certificates/x509.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const DAY_MS = 86_400_000;

/** The serial number of a PEM certificate, as @peculiar/x509 writes it (hex). */
export const serialOf = (certPem: string): string => new x509.X509Certificate(certPem).serialNumber;

/** A CRL of `ca`, valid from a minute ago for a day, revoking these certificates (PEMs). */
export async function makeCrl(ca: CertificateAuthority, revokedPems: readonly string[]): Promise<string> {
  const signingKey = await webcrypto.subtle.importKey(
    'pkcs8',
    x509.PemConverter.decodeFirst(ca.keyPem),
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  const now = Date.now();
  const crl = await x509.X509CrlGenerator.create({
    issuer: new x509.X509Certificate(ca.certPem).subject,
    thisUpdate: new Date(now - 60_000),
    nextUpdate: new Date(now + DAY_MS),
    entries: revokedPems.map((pem) => ({
      serialNumber: serialOf(pem),
      revocationDate: new Date(now - 60_000),
    })),
    signingKey: signingKey as unknown as Parameters<typeof x509.X509CrlGenerator.create>[0]['signingKey'],
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  // @peculiar/x509 writes "BEGIN CRL"; OpenSSL (Node's TLS) reads "BEGIN X509 CRL".
  return x509.PemConverter.encode(crl.rawData, 'X509 CRL');
}
