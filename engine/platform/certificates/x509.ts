// The one X.509 wrapper (over @peculiar/x509 on Node's WebCrypto): key pairs, certificate
// authorities, certificates they issue (server: IP/DNS subjectAltName; client: CN = identity) and
// certificate signing requests. Everything goes in and out as PEM strings.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

export interface KeyAndCertificate {
  certPem: string;
  keyPem: string;
}

/** An issuer: its certificate and its private key. */
export interface CertificateAuthority extends KeyAndCertificate {
  readonly kind: 'ca';
}

export interface CertificateOptions {
  commonName: string;
  /** Default 2 days from now. */
  validDays?: number;
  /** For a server certificate: IP addresses and host names (subjectAltName). */
  hosts?: string[];
  usage?: 'server' | 'client';
}

function newKeyPair(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

function importKey(pem: string): Promise<CryptoKey> {
  return webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(pem), EC_P256, false, ['sign']);
}

function validity(days = 2): { notBefore: Date; notAfter: Date } {
  // A minute back: a peer whose clock is slightly behind still accepts the certificate.
  const now = Date.now();
  return { notBefore: new Date(now - 60_000), notAfter: new Date(now + days * DAY_MS) };
}

/** A self-signed CA (EC P-256, SHA-256). */
export async function createCertificateAuthority(
  commonName: string,
  validDays?: number,
): Promise<CertificateAuthority> {
  const keys = await newKeyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${commonName}`,
    keys,
    signingAlgorithm: SIGNING,
    ...validity(validDays),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { kind: 'ca', certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

async function sign(
  ca: CertificateAuthority,
  subject: string,
  publicKey: CryptoKey | x509.PublicKey,
  opts: Omit<CertificateOptions, 'commonName'>,
): Promise<string> {
  const issuer = new x509.X509Certificate(ca.certPem);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
    new x509.ExtendedKeyUsageExtension([
      opts.usage === 'client' ? x509.ExtendedKeyUsage.clientAuth : x509.ExtendedKeyUsage.serverAuth,
    ]),
    await x509.AuthorityKeyIdentifierExtension.create(issuer),
  ];
  if (opts.hosts?.length)
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        opts.hosts.map((h) => ({ type: isIP(h) ? 'ip' : 'dns', value: h })),
      ),
    );
  const cert = await x509.X509CertificateGenerator.create({
    subject,
    issuer: issuer.subject,
    publicKey,
    signingKey: await importKey(ca.keyPem),
    signingAlgorithm: SIGNING,
    ...validity(opts.validDays),
    extensions,
  });
  return cert.toString('pem');
}

/** A new key pair and a certificate for it, signed by `ca`. */
export async function issueCertificate(
  ca: CertificateAuthority,
  opts: CertificateOptions,
): Promise<KeyAndCertificate> {
  const keys = await newKeyPair();
  const certPem = await sign(ca, `CN=${opts.commonName}`, keys.publicKey, opts);
  return { certPem, keyPem: await keyPem(keys.privateKey) };
}

/** A new key pair and a PKCS #10 request for it (what a charging station sends to get a certificate). */
export async function createCertificateRequest(
  commonName: string,
  organization?: string,
): Promise<{ csrPem: string; keyPem: string }> {
  const keys = await newKeyPair();
  const name = organization ? `CN=${commonName}, O=${organization}` : `CN=${commonName}`;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: SIGNING });
  return { csrPem: csr.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

/** Signs a certificate request whose self-signature verifies; throws otherwise. */
export async function signCertificateRequest(
  ca: CertificateAuthority,
  csrPem: string,
  opts: Omit<CertificateOptions, 'commonName'> = {},
): Promise<string> {
  const csr = new x509.Pkcs10CertificateRequest(csrPem);
  if (!(await csr.verify())) throw new Error('the certificate request is not signed by its own key');
  return sign(ca, csr.subject, csr.publicKey, opts);
}

/** Subject of the first certificate of a PEM, e.g. 'CN=CP-1'. */
export function subjectOf(certPem: string): string {
  return new x509.X509Certificate(certPem).subject;
}

/** OCPP CertificateHashData of a certificate (SHA-256; hex; the serial number without leading zeros). */
export interface CertificateHashData {
  hashAlgorithm: 'SHA256';
  issuerNameHash: string;
  issuerKeyHash: string;
  serialNumber: string;
}

/** The hash data OCPP names an installed certificate by (protocols/ocpp/certificate-hash-data.ts). */
export { certificateHashData } from '../../../protocols/ocpp/certificate-hash-data.ts';
