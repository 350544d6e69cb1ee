// Certificate management of the security block (OCPP 1.6 security whitepaper, 2.0.1 A02/A03 and
// M03-M05): the charger's own certificate made from a key and CSR of its own (SignCertificate,
// CertificateSigned; the next security profile 3 connection uses it), and the CA certificates the
// central system installs, lists and deletes. Keys, PEMs and their checks are the engine's (a
// `security.request`, answered by a `security.result` event); the machine keeps only hash data.
import type { CertificateHashData, ChargerEvent } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import { call } from '../wire/basics.ts';
import { securityEvent, type SecurityEventType } from './security-events.ts';
import { askEngine } from './security.ts';
import { certificateHashData } from '../../../protocols/ocpp/certificate-hash-data.ts';

declare module '../core/context.ts' {
  interface ChargerContext {
    /** A CSR was made and its certificate not yet installed: the event a bad certificate is reported as. */
    csrPending?: SecurityEventType;
    /**
     * CA certificates installed by the central system, by their hash data (the PEMs are sealed by
     * the engine); a manufacturer root keeps its PEM too (public), to check firmware signers with.
     */
    certificates?: { certificateType: string; hashData: CertificateHashData; pem?: string }[];
    /** Manufacturer roots sent to the engine before they were listed at once (snapshots of before): listed when it answers. */
    rootsPending?: string[];
  }
}

/** The certificate type that vouches for firmware signers (both versions name it so). */
const MANUFACTURER_ROOT = 'ManufacturerRootCertificate';

/** The PEMs of the installed manufacturer roots (firmware signing certificates must chain to one). */
export function manufacturerRoots(s: Step): string[] {
  const roots: string[] = [];
  for (const c of s.ctx.certificates ?? [])
    if (c.pem && c.certificateType === MANUFACTURER_ROOT) roots.push(c.pem);
  return roots;
}

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/;

/**
 * 1.6 ExtendedTriggerMessage SignChargePointCertificate, 2.0.1 TriggerMessage
 * SignChargingStationCertificate (A02): a new key pair, and SignCertificate with its CSR.
 * `invalid` is the version's name of the event a certificate that does not fit is reported as.
 */
export function requestCertificate(s: Step, invalid: SecurityEventType): 'Accepted' {
  s.patch({ csrPending: invalid });
  askEngine(s, { op: 'csr' });
  return 'Accepted';
}

/** CertificateSigned: a certificate chain for the key of the last CSR (the engine checks that it fits). */
export function certificateSigned(
  s: Step,
  chain: string,
  invalid: SecurityEventType,
): 'Accepted' | 'Rejected' {
  if (!CERTIFICATE.test(chain) || !s.ctx.csrPending) {
    securityEvent(
      s,
      invalid,
      s.ctx.csrPending ? 'not a PEM certificate' : 'no certificate signing request waits',
    );
    return 'Rejected';
  }
  askEngine(s, { op: 'certificate', pem: chain });
  return 'Accepted';
}

/**
 * InstallCertificate (M05): a CA certificate the charger trusts from now on. It is listed from the
 * answer on (the charger names it by its hash data itself); the engine keeps the PEM (a central
 * system's root is trusted for the next TLS connection) and its answer changes nothing listed.
 */
export function installCertificate(s: Step, certificateType: string, pem: string): 'Accepted' | 'Rejected' {
  const block = pem.match(CERTIFICATE)?.[0];
  if (!block) return 'Rejected';
  let hashData: CertificateHashData;
  try {
    hashData = certificateHashData(block);
  } catch {
    return 'Rejected';
  }
  const kept = (s.ctx.certificates ?? []).filter(
    (c) => !(c.certificateType === certificateType && sameHash(c.hashData, hashData)),
  );
  const own = certificateType === MANUFACTURER_ROOT ? { pem: block } : {};
  s.patch({ certificates: [...kept, { certificateType, hashData, ...own }] });
  askEngine(s, { op: 'install', certificateType, pem });
  return 'Accepted';
}

const serial = (n: string) => n.replace(/^0+(?=.)/, '').toLowerCase();
const sameHash = (a: CertificateHashData, b: CertificateHashData) =>
  a.issuerNameHash === b.issuerNameHash &&
  a.issuerKeyHash === b.issuerKeyHash &&
  serial(a.serialNumber) === serial(b.serialNumber);

/** GetInstalledCertificateIds (M03): the installed certificates of these types (all when none is given). */
export function installedCertificates(
  s: Step,
  types: string[] | undefined,
): { certificateType: string; hashData: CertificateHashData }[] {
  return (s.ctx.certificates ?? []).filter((c) => !types?.length || types.includes(c.certificateType));
}

/** DeleteCertificate (M04). */
export function deleteCertificate(s: Step, h: CertificateHashData): 'Accepted' | 'NotFound' {
  const all = s.ctx.certificates ?? [];
  const same = (c: { hashData: CertificateHashData }) => sameHash(c.hashData, h);
  if (!all.some(same)) return 'NotFound';
  s.patch({ certificates: all.filter((c) => !same(c)) });
  askEngine(s, { op: 'delete', hashData: h });
  return 'Accepted';
}

/** The engine's answer to a certificate request. */
export function securityResult(s: Step, e: ChargerEvent): void {
  switch (e.type) {
    case 'security.csr':
      s.call(call('SignCertificate', { csr: e.csr }));
      return;
    case 'security.certificate':
      if (e.ok)
        s.patch({
          csrPending: undefined,
          security: {
            profile: s.ctx.security?.profile ?? 0,
            password: false,
            ...s.ctx.security,
            clientCert: true,
          },
        });
      else securityEvent(s, s.ctx.csrPending ?? 'InvalidChargePointCertificate', e.reason);
      return;
    case 'security.installed': {
      // Listed when it was installed; a snapshot from before that (its root still pending) is listed now.
      const [pem, ...rest] = e.certificateType === MANUFACTURER_ROOT ? (s.ctx.rootsPending ?? []) : [];
      if (pem !== undefined) s.patch({ rootsPending: rest.length ? rest : undefined });
      const hashData = e.hashData;
      // Listed at InstallCertificate already: adding it again here would bring back one that
      // DeleteCertificate removed while the engine was still storing it.
      if (!hashData || pem === undefined) return;
      const listed = (s.ctx.certificates ?? []).some(
        (c) => c.certificateType === e.certificateType && sameHash(c.hashData, hashData),
      );
      if (!listed)
        s.patch({
          certificates: [
            ...(s.ctx.certificates ?? []),
            { certificateType: e.certificateType, hashData, ...(pem ? { pem } : {}) },
          ],
        });
      return;
    }
  }
}
