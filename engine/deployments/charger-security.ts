// Security of a virtual charger (E5 / E7 `security`, OCPP security profiles 0-3): what a request
// gives (ChargerSecurity, which serializes as its public view only), what a row stores (the profile,
// two flags and the secrets as ONE sealed value), what reads answer, and the rules that need more
// than the security object (its profile against the URL scheme, the built-in central system).
import { inspect } from 'node:util';
import type { ChargerConnectionSettings } from '../charger/charger-runtime.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';
import { revokedEntries } from '../platform/certificates/crl.ts';

export const SECURITY_PROFILES = [0, 1, 2, 3] as const;
export type SecurityProfile = (typeof SECURITY_PROFILES)[number];

/** A charger's secrets in clear: only ever in memory, on their way to the seal or to the socket. */
export interface ChargerSecrets {
  /** Basic auth password (profiles 1 and 2); the username is the identity. */
  password?: string;
  /** CA certificates the charger trusts for the server (profiles 2 and 3); default: the system's. */
  ca_pem?: string;
  /**
   * Certificate revocation lists the charger holds (any profile; public, kept sealed with the rest):
   * checked by TLS (profiles 2, 3) and against firmware signing certificates.
   */
  crl_pem?: string;
  /** The charger's certificate chain and private key (profile 3). */
  client_cert_pem?: string;
  client_key_pem?: string;
  /** The key of the charger's last certificate signing request, until its certificate comes (CertificateSigned). */
  pending_key_pem?: string;
}

/** What reads answer. */
export interface SecurityView {
  profile: SecurityProfile;
  has_password: boolean;
  has_client_cert: boolean;
}

/**
 * The parsed `security` of a request. The secrets sit in a private field and every way of
 * printing the object (JSON.stringify, pino, util.inspect) shows the public view: a location
 * body stored as posted, or an object logged by mistake, carries no secret.
 */
export class ChargerSecurity {
  readonly #secrets: Readonly<ChargerSecrets>;

  constructor(
    readonly profile: SecurityProfile,
    secrets: ChargerSecrets,
  ) {
    this.#secrets = Object.freeze({ ...secrets });
  }

  get secrets(): Readonly<ChargerSecrets> {
    return this.#secrets;
  }

  view(): SecurityView {
    return viewOf(this.profile, this.#secrets);
  }

  toJSON(): SecurityView {
    return this.view();
  }

  [inspect.custom](): SecurityView {
    return this.view();
  }
}

function viewOf(profile: SecurityProfile, s: ChargerSecrets): SecurityView {
  return {
    profile,
    has_password: s.password !== undefined,
    has_client_cert: s.client_cert_pem !== undefined,
  };
}

// ---- rows ----

/** What a deployment row (and a stored location job) holds: never a secret in clear. */
export interface SealedSecurity extends SecurityView {
  /** seal(JSON of ChargerSecrets), or null when nothing was given. */
  sealed: string | null;
}

/** The security columns of evc_deployments, for a SELECT (`securityView` reads them back). */
export const SECURITY_COLUMNS = 'security_profile, security_has_password, security_has_client_cert';

export interface SecurityColumns {
  security_profile: number;
  security_has_password: boolean;
  security_has_client_cert: boolean;
}

/** `security` of a read (the charger detail), from a row selected with SECURITY_COLUMNS. */
export function securityView(row: SecurityColumns): SecurityView {
  return {
    profile: row.security_profile as SecurityProfile,
    has_password: row.security_has_password,
    has_client_cert: row.security_has_client_cert,
  };
}

// The seal is bound to the organization and identity of the deployment (unique while it lives),
// so it is known before the row exists and a sealed value cannot be moved to another one.
const sealContext = (orgId: string, identity: string) => `evc-deployment-security:${orgId}:${identity}`;

export function sealSecrets(
  box: SecretBox,
  orgId: string,
  identity: string,
  profile: SecurityProfile,
  secrets: ChargerSecrets,
): SealedSecurity {
  const given = Object.values(secrets).some((v) => v !== undefined);
  return {
    ...viewOf(profile, secrets),
    sealed: given ? box.seal(JSON.stringify(secrets), sealContext(orgId, identity)) : null,
  };
}

export function sealSecurity(
  box: SecretBox,
  orgId: string,
  identity: string,
  security: ChargerSecurity,
): SealedSecurity {
  return sealSecrets(box, orgId, identity, security.profile, security.secrets);
}

export function openSecrets(box: SecretBox, orgId: string, identity: string, sealed: string): ChargerSecrets {
  return JSON.parse(box.open(sealed, sealContext(orgId, identity))) as ChargerSecrets;
}

/** How the link connects with these secrets. */
export function connectionSettingsOf(s: ChargerSecrets): ChargerConnectionSettings {
  const settings: ChargerConnectionSettings = {};
  if (s.password !== undefined) settings.password = s.password;
  if (s.ca_pem !== undefined || s.client_cert_pem !== undefined || s.crl_pem !== undefined) {
    settings.tls = {};
    if (s.ca_pem !== undefined) settings.tls.ca = s.ca_pem;
    if (s.crl_pem !== undefined) settings.tls.crl = s.crl_pem;
    if (s.client_cert_pem !== undefined) settings.tls.cert = s.client_cert_pem;
    if (s.client_key_pem !== undefined) settings.tls.key = s.client_key_pem;
  }
  // The machine checks firmware signers against these (plain data, no PEM in its context).
  if (s.crl_pem !== undefined) settings.revoked = revokedEntries(s.crl_pem);
  return settings;
}

// ---- rules beyond the security object ----

export interface SecurityProblem {
  loc: Array<string | number>;
  msg: string;
  input: unknown;
}

/**
 * The profile against the URL: 2 and 3 need wss://, 0 and 1 ws://. Without ws_url the charger
 * connects to the built-in central system, which issues its credentials (profile 1 on ws://):
 * no `security` may be given then. Inputs named here are never secrets.
 */
export function securityProblems(
  spec: { ws_url?: string; security?: ChargerSecurity },
  at: Array<string | number>,
): SecurityProblem[] {
  const { security } = spec;
  if (!security) return [];
  if (!spec.ws_url)
    return [
      {
        loc: [...at, 'security'],
        msg: 'Without ws_url the charger connects to the built-in central system, which issues its credentials itself (security profile 1): leave security out, or give the ws_url of your own central system',
        input: security.view(),
      },
    ];
  const tls = spec.ws_url.startsWith('wss:');
  if (security.profile >= 2 && !tls)
    return [
      {
        loc: [...at, 'security', 'profile'],
        msg: `Security profile ${security.profile} runs over TLS: it needs a wss:// ws_url`,
        input: security.profile,
      },
    ];
  if (security.profile <= 1 && tls)
    return [
      {
        loc: [...at, 'security', 'profile'],
        msg: `Security profile ${security.profile} runs without TLS: it needs a ws:// ws_url (profiles 2 and 3 are for wss://)`,
        input: security.profile,
      },
    ];
  return [];
}
