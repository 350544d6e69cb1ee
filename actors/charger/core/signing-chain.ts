// Whether a firmware signing certificate chains to a root the charger trusts (2.0.1 L01.FR.02, the
// 1.6 security extension's SignedUpdateFirmware), and whether a CRL the charger holds revokes one
// of its chain: pure computations on the PEMs (no I/O), so the CSMS's call is answered at once.
// The chain is checked with Node's own X.509 parser and signature check; revocation with
// @peculiar/x509, the library the engine read the CRLs with, so names and serials compare as written.
import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { RevokedCertificate } from './events.ts';

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function parse(pem: string): X509Certificate[] | undefined {
  try {
    return (pem.match(CERT_BLOCK) ?? []).map((b) => new X509Certificate(b));
  } catch {
    return undefined;
  }
}

const validAt = (c: X509Certificate, now: number) =>
  Date.parse(c.validFrom) <= now && now <= Date.parse(c.validTo);

const issued = (child: X509Certificate, issuer: X509Certificate) => {
  try {
    return child.checkIssued(issuer) && child.verify(issuer.publicKey);
  } catch {
    return false;
  }
};

/**
 * undefined when the signing certificate (PEM, possibly followed by its intermediates) is valid
 * now and chains to one of `roots` (PEMs); otherwise why not.
 */
export function signingChainProblem(
  signingPem: string,
  roots: readonly string[],
  now: number,
): string | undefined {
  const chain = parse(signingPem);
  if (!chain?.length) return 'the signing certificate does not parse';
  const anchors = roots.flatMap((r) => parse(r) ?? []).filter((r) => validAt(r, now));
  if (!chain.every((c) => validAt(c, now))) return 'the signing certificate is not valid now';
  // Up the given chain: each certificate issued by the next, until one a trusted root issued.
  for (let i = 0; i < chain.length; i++) {
    if (anchors.some((a) => issued(chain[i], a))) return undefined;
    if (i + 1 < chain.length && !issued(chain[i], chain[i + 1])) break;
  }
  return 'the signing certificate does not chain to an installed ManufacturerRootCertificate';
}

/** A serial number as compared: hex, lower case, no leading zeros. */
const serialKey = (hex: string) => hex.toLowerCase().replace(/^0+(?=.)/, '');

/**
 * undefined when no certificate of the signing chain (PEM) is revoked: one is when a held CRL of
 * its issuer's name lists its serial number; otherwise which one and by whom. The CRLs' signatures
 * are not checked: they are configuration the tester gives, like a CA bundle.
 */
export function revokedProblem(
  signingPem: string,
  revoked: readonly RevokedCertificate[],
): string | undefined {
  if (revoked.length === 0) return undefined;
  const listed = new Set(revoked.map((r) => `${r.issuer}\n${serialKey(r.serial)}`));
  for (const [i, block] of (signingPem.match(CERT_BLOCK) ?? []).entries()) {
    let cert: x509.X509Certificate;
    try {
      cert = new x509.X509Certificate(block);
    } catch {
      continue; // what does not parse is the chain check's (and the signature check's) to refuse
    }
    const serial = serialKey(cert.serialNumber);
    if (listed.has(`${cert.issuer}\n${serial}`))
      return `${i === 0 ? 'the signing certificate' : `certificate ${i + 1} of the signing chain`} (${cert.subject}, serial ${serial}) is revoked by a CRL of ${cert.issuer} the charger holds`;
  }
  return undefined;
}
