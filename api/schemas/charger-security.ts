// The `security` object of E5's body and of each E7 charger (OCPP security profiles 0-3).
// Parsed into a ChargerSecurity, which never prints its secrets; the rules that need the URL
// (wss:// for profiles 2 and 3, none without ws_url) are checked by the deployment service.
import { z } from 'zod';
import {
  keyMatchesCertificate,
  parseCertificates,
  parsePrivateKey,
} from '../../engine/platform/certificates/pem.ts';
import { parseCrls } from '../../engine/platform/certificates/crl.ts';
import {
  ChargerSecurity,
  SECURITY_PROFILES,
  type SecurityProfile,
} from '../../engine/deployments/charger-security.ts';

/**
 * OCPP's Basic auth password: 2.0.1 A00.FR.205 wants 16 characters up to BasicAuthPassword's
 * maxLimit (our chargers report 40) from passwordString's set; 1.6's AuthorizationKey is 16-20
 * bytes, or 32-40 hex digits that many central systems compare verbatim. One rule covers both.
 */
export const PASSWORD_MIN = 16;
export const PASSWORD_MAX = 40;
const PASSWORD_CHARS = /^[A-Za-z0-9*\-_=:+|@.]*$/;
/** Bounds of the PEM fields (characters): a CA bundle, a few CRLs, a chain of a few certificates, one key. */
export const CA_PEM_MAX = 65_536;
export const CRL_PEM_MAX = 65_536;
export const CLIENT_CERT_PEM_MAX = 32_768;
export const CLIENT_KEY_PEM_MAX = 16_384;

const password = z
  .string()
  .min(PASSWORD_MIN)
  .max(PASSWORD_MAX)
  .regex(
    PASSWORD_CHARS,
    "password may hold only letters, digits and * - _ = : + | @ . (OCPP's passwordString)",
  );

type Ctx = z.core.$RefinementCtx<unknown>;

function problem(ctx: Ctx, path: string, message: string, type = 'value_error'): void {
  // zod reports the whole object as the issue's input: the validation helper echoes nothing of a
  // `security` object but its profile.
  ctx.addIssue({ code: 'custom', path: [path], message, params: { type } });
}

// crl_pem at every profile: over TLS it checks the server, at any profile firmware signers.
const FIELDS_OF: Record<SecurityProfile, readonly string[]> = {
  0: ['crl_pem'],
  1: ['password', 'crl_pem'],
  2: ['password', 'ca_pem', 'crl_pem'],
  3: ['ca_pem', 'crl_pem', 'client_cert_pem', 'client_key_pem'],
};
const REQUIRED_OF: Record<SecurityProfile, readonly string[]> = {
  0: [],
  1: ['password'],
  2: ['password'],
  3: ['client_cert_pem', 'client_key_pem'],
};

export const chargerSecurity = z
  .strictObject({
    profile: z.literal(SECURITY_PROFILES),
    password: password.optional(),
    ca_pem: z.string().max(CA_PEM_MAX).optional(),
    crl_pem: z.string().max(CRL_PEM_MAX).optional(),
    client_cert_pem: z.string().max(CLIENT_CERT_PEM_MAX).optional(),
    client_key_pem: z.string().max(CLIENT_KEY_PEM_MAX).optional(),
  })
  .superRefine((s, ctx) => {
    const given = (['password', 'ca_pem', 'crl_pem', 'client_cert_pem', 'client_key_pem'] as const).filter(
      (f) => s[f] !== undefined,
    );
    for (const f of REQUIRED_OF[s.profile])
      if (!given.includes(f as (typeof given)[number]))
        problem(ctx, f, `Security profile ${s.profile} needs ${f}`, 'missing');
    for (const f of given)
      if (!FIELDS_OF[s.profile].includes(f))
        problem(
          ctx,
          f,
          s.profile === 0
            ? `Security profile 0 takes no ${f}`
            : `Security profile ${s.profile} takes no ${f} (${f === 'password' ? 'profile 3 authenticates with the client certificate' : f === 'ca_pem' ? 'profiles 2 and 3 run over TLS' : 'client certificates are profile 3'})`,
          'extra_forbidden',
        );
    if (s.ca_pem !== undefined) {
      const cas = parseCertificates(s.ca_pem);
      if (typeof cas === 'string') problem(ctx, 'ca_pem', `ca_pem: ${cas}`);
    }
    if (s.crl_pem !== undefined) {
      const crls = parseCrls(s.crl_pem);
      if (typeof crls === 'string') problem(ctx, 'crl_pem', `crl_pem: ${crls}`);
    }
    let cert;
    if (s.client_cert_pem !== undefined) {
      const chain = parseCertificates(s.client_cert_pem);
      if (typeof chain === 'string') problem(ctx, 'client_cert_pem', `client_cert_pem: ${chain}`);
      else cert = chain[0];
    }
    if (s.client_key_pem !== undefined) {
      const key = parsePrivateKey(s.client_key_pem);
      if (typeof key === 'string') problem(ctx, 'client_key_pem', `client_key_pem: ${key}`);
      else if (cert && !keyMatchesCertificate(cert, key))
        problem(ctx, 'client_key_pem', 'client_key_pem is not the private key of client_cert_pem');
    }
  })
  .transform(({ profile, ...secrets }) => new ChargerSecurity(profile, secrets));
