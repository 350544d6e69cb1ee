// Security (OCPP 1.6 security whitepaper, 2.0.1 block A): the central system changes the charger's
// credentials and security profile. 1.6 ChangeConfiguration AuthorizationKey / 2.0.1 SetVariables
// SecurityCtrlr.BasicAuthPassword set a new Basic auth password; 1.6 SecurityProfile raises the
// profile; 2.0.1 SetNetworkProfile stores a connection profile in a slot and NetworkConfigurationPriority
// puts it first. The charger answers, reports ReconfigurationOfSecurityParameters, drops its
// connection and connects with the new settings; if that first connection fails it goes back to
// the previous ones (1.6 whitepaper 1.3.1, 2.0.1 A05.FR.07 and B10.FR.05).
//
// The machine never holds a secret: the password goes to the engine in a security request (a
// `link.security` command to its link, never persisted), which seals it and keeps the previous
// credentials until the new connection opens (op `confirm`) or fails (the engine sees the failure).
import type { ChargerEvent, LinkSecurity, SecurityRequest } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import { withSetting, type ChangeOutcome } from '../core/settings.ts';
import { securityEvent } from './security-events.ts';

declare module '../core/context.ts' {
  interface ChargerContext {
    /** How the last connection authenticated and what the charger holds (no secret); absent until one opened. */
    security?: LinkSecurity;
    /** Credentials changed and not yet used: the profile and URL to go back to if they fail. */
    securityChange?: { profile: number; url?: string; at?: number };
    /** 2.0.1 network connection profiles by configuration slot (SetNetworkProfile; no secret). */
    networkProfiles?: Record<string, { url: string; profile: number }>;
  }
  interface ChargerTimers {
    /** Drop the connection to use changed credentials (once the answer and the event left). */
    securityReconnect?: number;
  }
}

/** OCPP 2.0.1 passwordString, 16 to 40 characters: also what 1.6 AuthorizationKey takes here (docs/security.md). */
const PASSWORD = /^[A-Za-z0-9*\-_=:+|@.]{16,40}$/;
/** Time for the answer and the SecurityEventNotification to leave before the connection drops. */
const RECONNECT_AFTER_MS = 500;
/** The charger waits for answers to its CALLs in flight (the event) at most this long before it drops. */
const ANSWERS_WAIT_MS = 5_000;

/** The profile the charger connects with now (the last connection's; 0 before any). */
export function securityProfile(s: Step): number {
  return s.ctx.security?.profile ?? 0;
}

/**
 * A CSMS's or operator's change of a security setting (configuration.ts asks first); undefined for
 * any other setting.
 */
export function securitySetting(s: Step, key: string, value: string): ChangeOutcome | undefined {
  const security =
    key === 'AuthorizationKey' || key === 'SecurityProfile' || key === 'NetworkConfigurationPriority';
  // Only a connected charger can hand a change to the engine (an operator's command may come offline).
  if (security && !linked(s)) return 'Rejected';
  switch (key) {
    case 'AuthorizationKey':
      return changePassword(s, value);
    case 'SecurityProfile':
      return raiseProfile(s, Number(value));
    case 'NetworkConfigurationPriority':
      return networkPriority(s, value);
    default:
      return undefined;
  }
}

/** 1.6 AuthorizationKey, 2.0.1 BasicAuthPassword (A01): used from the next connection. */
export function changePassword(s: Step, password: string): ChangeOutcome {
  if (!PASSWORD.test(password)) return 'Rejected';
  apply(s, { profile: securityProfile(s), password }, 'password changed');
  return 'Accepted';
}

/** 1.6 SecurityProfile: only raised, and only when what the new profile needs is there. */
export function raiseProfile(s: Step, profile: number): ChangeOutcome {
  const current = securityProfile(s);
  if (profile === current) return 'Accepted';
  if (profile < current || profile > 3) return 'Rejected';
  const url = urlFor(s.ctx.url, profile);
  if (!url || !canUse(s, profile)) return 'Rejected';
  apply(s, { profile, url }, `security profile ${current} -> ${profile}`);
  return 'Accepted';
}

/** 2.0.1 SetNetworkProfile (B09): a connection profile for a slot, used once NetworkConfigurationPriority puts it first. */
export function setNetworkProfile(
  s: Step,
  slot: number,
  p: { url: string; profile: number },
): 'Accepted' | 'Rejected' {
  const tls = p.url.startsWith('wss:');
  if (slot <= 0 || p.profile < securityProfile(s) || tls !== p.profile >= 2 || !canUse(s, p.profile))
    return 'Rejected';
  s.patch({ networkProfiles: { ...s.ctx.networkProfiles, [slot]: { url: p.url, profile: p.profile } } });
  return 'Accepted';
}

/** 2.0.1 NetworkConfigurationPriority: slots in order; the first one is connected with now. */
function networkPriority(s: Step, value: string): ChangeOutcome {
  const slots = value.split(',').map((x) => x.trim());
  const profiles = s.ctx.networkProfiles ?? {};
  if (slots.some((x) => x !== '0' && !profiles[x])) return 'Rejected';
  s.patch({ settings: withSetting(s.ctx, 'NetworkConfigurationPriority', slots.join(',')) });
  const first = profiles[slots[0]];
  if (first && (first.url !== s.ctx.url || first.profile !== securityProfile(s)))
    apply(s, { profile: first.profile, url: first.url }, `network profile ${slots[0]}`);
  return 'Accepted';
}

/** What a profile needs: a password (1, 2) or a client certificate (3). */
function canUse(s: Step, profile: number): boolean {
  const has = s.ctx.security;
  if (profile === 3) return has?.clientCert === true;
  if (profile >= 1) return has?.password === true;
  return true;
}

/** The URL for a profile: TLS from 2 on (same host, port and path); none when there is no URL to secure. */
function urlFor(url: string | undefined, profile: number): string | undefined {
  if (profile < 2) return url;
  if (!url) return undefined;
  return url.replace(/^ws:/, 'wss:');
}

function apply(s: Step, to: { profile: number; password?: string; url?: string }, why: string): void {
  const previous = s.ctx.securityChange ?? {
    profile: securityProfile(s),
    ...(s.ctx.url ? { url: s.ctx.url } : {}),
    at: s.now,
  };
  s.patch({ securityChange: previous, ...(to.url ? { url: to.url } : {}) });
  // A password set is held from now on (1.6: AuthorizationKey first, then SecurityProfile 1 or 2).
  if (to.password)
    s.patch({
      security: { profile: securityProfile(s), clientCert: false, ...s.ctx.security, password: true },
    });
  askEngine(s, { op: 'apply', ...to });
  securityEvent(s, 'ReconfigurationOfSecurityParameters', why);
  s.setTimer('securityReconnect', s.now + RECONNECT_AFTER_MS);
}

/** Whether the charger has a link to ask the engine through. */
export function linked(s: Step): boolean {
  return s.ctx.stage === 'online' || s.ctx.stage === 'registering' || s.ctx.stage === 'connecting';
}

/** A request to the engine, through the link (which answers with a SecurityResult event). */
export function askEngine(s: Step, request: DistributiveOmit<SecurityRequest, 'identity'>): void {
  s.sends.push({
    type: 'link.security',
    request: { identity: s.ctx.identity, ...request } as SecurityRequest,
  });
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The securityReconnect timer: drop the connection; the next one uses the new settings. */
export function securityReconnectDue(s: Step): void {
  const change = s.ctx.securityChange;
  if (!change || (s.ctx.stage !== 'online' && s.ctx.stage !== 'registering')) return;
  const waiting = Object.keys(s.ctx.calls).length > 0;
  if (waiting && s.now < (change.at ?? 0) + ANSWERS_WAIT_MS)
    return s.setTimer('securityReconnect', s.now + RECONNECT_AFTER_MS);
  s.sends.push({ type: 'link.drop' });
}

/** The link opened: remember how it authenticated; a change it carried stays. */
export function securityLinkOpened(s: Step, e: ChargerEvent): void {
  if (e.type === 'link.open' && e.security) s.patch({ security: e.security });
  if (!s.ctx.securityChange) return;
  s.patch({ securityChange: undefined });
  askEngine(s, { op: 'confirm' });
}

/**
 * The first connection with changed settings failed: back to the previous profile and URL (the
 * engine, which saw the failure, went back to the previous credentials).
 */
export function securityConnectFailed(s: Step, e: ChargerEvent): void {
  // A04: the central system refused the credentials, or its certificate is not trusted (or revoked).
  if (e.type === 'link.failed' && e.code === 'HTTP_401')
    securityEvent(s, 'FailedToAuthenticateAtCsms', e.hint);
  else if (
    e.type === 'link.failed' &&
    e.code === 'TLS_ERROR' &&
    /does not trust|not valid now|not issued for|^CERT_REVOKED/.test(e.hint)
  )
    securityEvent(s, 'InvalidCsmsCertificate', e.hint);
  const previous = s.ctx.securityChange;
  if (!previous) return;
  s.patch({ securityChange: undefined, url: previous.url });
}
