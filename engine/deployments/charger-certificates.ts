// The certificate work of a virtual charger's security block (OCPP 1.6 security whitepaper, 2.0.1
// A02/A03, M03-M05), done in the engine because it needs keys and X.509: a key pair and CSR of the
// charger's own, the check that a signed certificate is for that key, and the CA bundle the charger
// trusts, grown and shrunk by the central system. Everything in and out as PEM.
import { createPrivateKey } from 'node:crypto';
import type { CertificateHashData } from '../../actors/charger/charger-ports.ts';
import { keyMatchesCertificate, parseCertificates } from '../platform/certificates/pem.ts';
import { certificateHashData, createCertificateRequest } from '../platform/certificates/x509.ts';

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** A new key pair and a CSR for it, CN = the identity (OCPP asks for the charge point's identity as CN). */
export function certificateRequest(identity: string): Promise<{ csrPem: string; keyPem: string }> {
  return createCertificateRequest(identity);
}

/** The signed chain, when its first certificate is for `keyPem`; what is wrong otherwise. */
export function signedCertificate(chain: string, keyPem: string | undefined): true | string {
  if (!keyPem) return 'no certificate signing request waits for a certificate';
  const certs = parseCertificates(chain);
  if (typeof certs === 'string') return certs;
  if (!keyMatchesCertificate(certs[0], createPrivateKey(keyPem)))
    return 'the certificate is not for the key of the certificate signing request';
  const now = Date.now();
  if (Date.parse(certs[0].validTo) < now) return 'the certificate has expired';
  return true;
}

/** The bundle with `pem` added (once), and its hash data; what is wrong otherwise. */
export function installCa(
  bundle: string | undefined,
  pem: string,
): { bundle: string; hashData: CertificateHashData } | string {
  const certs = parseCertificates(pem);
  if (typeof certs === 'string') return certs;
  const block = pem.match(CERT_BLOCK)![0];
  const hashData = certificateHashData(block);
  const present = (bundle?.match(CERT_BLOCK) ?? []).some((b) => same(certificateHashData(b), hashData));
  return { bundle: present ? bundle! : bundle ? `${bundle.trimEnd()}\n${block}\n` : `${block}\n`, hashData };
}

/** The bundle without the certificate named by `h` (undefined when none is left). */
export function removeCa(bundle: string | undefined, h: CertificateHashData): string | undefined {
  if (!bundle) return bundle;
  const blocks = bundle.match(CERT_BLOCK) ?? [];
  const kept = blocks.filter((b) => !same(certificateHashData(b), h));
  if (kept.length === blocks.length) return bundle;
  return kept.length ? `${kept.join('\n')}\n` : undefined;
}

const serial = (s: string) => s.replace(/^0+(?=.)/, '').toLowerCase();

function same(a: CertificateHashData, b: CertificateHashData): boolean {
  return (
    a.issuerNameHash === b.issuerNameHash &&
    a.issuerKeyHash === b.issuerKeyHash &&
    serial(a.serialNumber) === serial(b.serialNumber)
  );
}
