// Whether a firmware signing certificate chains to a root the charger trusts (2.0.1 L01.FR.02, the
// 1.6 security extension's SignedUpdateFirmware): Node's own X.509 parser and signature check,
// a pure computation on the PEMs (no I/O), so the CSMS's call can be answered at once.
import { X509Certificate } from 'node:crypto';

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
