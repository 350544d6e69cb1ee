// The hash data OCPP names an installed certificate by (1.6 security whitepaper, 2.x
// CertificateHashDataType): a pure computation on the PEM, so the charger names a certificate the
// moment it installs it and the engine names it the same way.
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';

export interface OcppCertificateHashData {
  hashAlgorithm: 'SHA256';
  issuerNameHash: string;
  issuerKeyHash: string;
  serialNumber: string;
}

const sha256 = (data: ArrayBuffer) => createHash('sha256').update(Buffer.from(data)).digest('hex');

/**
 * The hash data of the first certificate of `certPem`. The issuer's key is the certificate's own for
 * a self-signed root (the certificates a central system installs); for any other it is its own key
 * too, as the issuer's is not at hand. Throws when the PEM is no certificate.
 */
export function certificateHashData(certPem: string): OcppCertificateHashData {
  const cert = new x509.X509Certificate(certPem);
  const spki = AsnConvert.parse(cert.publicKey.rawData, SubjectPublicKeyInfo);
  return {
    hashAlgorithm: 'SHA256',
    issuerNameHash: sha256(cert.issuerName.toArrayBuffer()),
    issuerKeyHash: sha256(spki.subjectPublicKey),
    serialNumber: cert.serialNumber.replace(/^0+(?=.)/, '').toLowerCase(),
  };
}
