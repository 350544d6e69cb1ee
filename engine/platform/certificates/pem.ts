// Checks PEM given by users (CA bundles, client certificate chains, private keys) with Node's own
// X.509 and key parsers, so what passes here is exactly what Node's TLS will load.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM bundle, first first; a string saying what is wrong otherwise. */
export function parseCertificates(pem: string): X509Certificate[] | string {
  const blocks = pem.match(CERT_BLOCK);
  if (!blocks) return 'no PEM certificate (-----BEGIN CERTIFICATE-----) found';
  const certs: X509Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      certs.push(new X509Certificate(block));
    } catch {
      return `certificate ${i + 1} of the PEM does not parse`;
    }
  }
  return certs;
}

/** The private key of a PEM; a string saying what is wrong otherwise. */
export function parsePrivateKey(pem: string): KeyObject | string {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem))
    return 'encrypted private keys are not supported: give the key unencrypted (it is sealed at rest)';
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem))
    return 'no PEM private key (-----BEGIN PRIVATE KEY-----) found';
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return 'the private key does not parse';
  }
}

/** Whether `key` is the private key of `cert`. */
export function keyMatchesCertificate(cert: X509Certificate, key: KeyObject): boolean {
  try {
    return cert.checkPrivateKey(key);
  } catch {
    return false;
  }
}
