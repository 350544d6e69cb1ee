// Checks PEM given by users (CA bundles, client certificate chains, private keys) with Node's own
// X.509 and key parsers, so what passes here is exactly what Node's TLS will load. Revocation
// lists are checked block by block the same way (crl.ts).
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Every block of a PEM that `block` matches (a global regex), parsed, first first; a string saying
 * what is wrong otherwise: none found (`none`), or which one does not parse (`what` n).
 */
export function parsePemBlocks<T>(
  pem: string,
  block: RegExp,
  parse: (block: string) => T,
  none: string,
  what: string,
): T[] | string {
  const blocks = pem.match(block);
  if (!blocks) return none;
  const parsed: T[] = [];
  for (const [i, text] of blocks.entries()) {
    try {
      parsed.push(parse(text));
    } catch {
      return `${what} ${i + 1} of the PEM does not parse`;
    }
  }
  return parsed;
}

/** Every certificate of a PEM bundle, first first; a string saying what is wrong otherwise. */
export function parseCertificates(pem: string): X509Certificate[] | string {
  return parsePemBlocks(
    pem,
    CERT_BLOCK,
    (b) => new X509Certificate(b),
    'no PEM certificate (-----BEGIN CERTIFICATE-----) found',
    'certificate',
  );
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
