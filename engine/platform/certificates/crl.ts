// Certificate revocation lists given by users (security.crl_pem): each block must parse with
// @peculiar/x509 and load into Node's TLS (so a held CRL never breaks a connection attempt), and
// is read into plain revoked entries, issuer and serial as @peculiar/x509 writes them, which a
// charger machine compares its firmware signers with (parsed by the same library; it compares
// serials case-insensitively without leading zeros).
import 'reflect-metadata';
import { createSecureContext } from 'node:tls';
import * as x509 from '@peculiar/x509';
import { parsePemBlocks } from './pem.ts';
import type { RevokedCertificate } from '../../../actors/charger/charger-ports.ts';

const CRL_BLOCK = /-----BEGIN X509 CRL-----[\s\S]+?-----END X509 CRL-----/g;

function parseCrl(block: string): x509.X509Crl {
  const crl = new x509.X509Crl(block);
  createSecureContext({ crl: block }); // throws what OpenSSL would refuse at the connection
  return crl;
}

/** Every CRL of a PEM, first first; a string saying what is wrong otherwise. */
export function parseCrls(pem: string): x509.X509Crl[] | string {
  return parsePemBlocks(
    pem,
    CRL_BLOCK,
    parseCrl,
    'no PEM certificate revocation list (-----BEGIN X509 CRL-----) found',
    'certificate revocation list',
  );
}

// Read per connection attempt; chargers of one test usually share their CRLs, so a few are kept.
const KEPT = 32;
const read = new Map<string, readonly RevokedCertificate[]>();

/** What the CRLs of a PEM revoke (none for a PEM that does not parse: it was validated when given). */
export function revokedEntries(pem: string): readonly RevokedCertificate[] {
  const known = read.get(pem);
  if (known) return known;
  const crls = parseCrls(pem);
  const entries =
    typeof crls === 'string'
      ? []
      : crls.flatMap((crl) => crl.entries.map((e) => ({ issuer: crl.issuer, serial: e.serialNumber })));
  if (read.size >= KEPT) read.delete(read.keys().next().value!);
  read.set(pem, entries);
  return entries;
}
