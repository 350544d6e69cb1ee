// Security events (OCPP 1.6 security whitepaper "Security events" and 2.0.1 A04): the charger tells
// the CSMS with SecurityEventNotification, which both versions write the same way; events met
// while not online wait for the next connection. Blocks that
// meet such an event (a reset, a password change, a firmware update, a certificate refused) call
// securityEvent; the security block owns what else a security event means (queuing critical ones
// while offline, the security log).
import type { Step } from '../core/step.ts';
import { call, iso } from '../wire/basics.ts';

/** The event types both specifications list (1.6 whitepaper appendix, 2.0.1 appendix 1). */
export type SecurityEventType =
  | 'FirmwareUpdated'
  | 'FailedToAuthenticateAtCsms'
  | 'CsmsFailedToAuthenticate'
  | 'SettingSystemTime'
  | 'StartupOfTheDevice'
  | 'ResetOrReboot'
  | 'SecurityLogWasCleared'
  | 'ReconfigurationOfSecurityParameters'
  | 'MemoryExhaustion'
  | 'InvalidMessages'
  | 'AttemptedReplayAttacks'
  | 'TamperDetectionActivated'
  | 'InvalidFirmwareSignature'
  | 'InvalidFirmwareSigningCertificate'
  | 'InvalidCsmsCertificate'
  | 'InvalidChargePointCertificate'
  | 'InvalidChargingStationCertificate'
  | 'InvalidTLSVersion'
  | 'InvalidTLSCipherSuite';

declare module '../core/context.ts' {
  interface ChargerContext {
    /** Security events met while not online, sent once it is (2.0.1 A04.FR.02): the latest of each type. */
    securityEventsQueued?: { type: SecurityEventType; at: number; techInfo?: string }[];
  }
}

/** At most this many queued events (one per type, the newest kept). */
const QUEUED_MAX = 10;

/** Sends SecurityEventNotification now, or once online again (the latest of each type is kept). */
export function securityEvent(s: Step, type: SecurityEventType, techInfo?: string): void {
  if (s.online) return send(s, type, s.now, techInfo);
  const queued = (s.ctx.securityEventsQueued ?? []).filter((e) => e.type !== type);
  queued.push({ type, at: s.now, ...(techInfo ? { techInfo } : {}) });
  s.patch({ securityEventsQueued: queued.slice(-QUEUED_MAX) });
}

/**
 * An event of a reboot (ResetOrReboot, StartupOfTheDevice): kept for the connection after it, as
 * the one open now goes with the reboot (sent once online again, with the time it happened).
 */
export function securityEventAfterReboot(s: Step, type: SecurityEventType, techInfo?: string): void {
  const queued = (s.ctx.securityEventsQueued ?? []).filter((e) => e.type !== type);
  queued.push({ type, at: s.now, ...(techInfo ? { techInfo } : {}) });
  s.patch({ securityEventsQueued: queued.slice(-QUEUED_MAX) });
}

/** Online again: the security events met meanwhile, in order, with the time they happened. */
export function sendQueuedSecurityEvents(s: Step): void {
  const queued = s.ctx.securityEventsQueued;
  if (!queued?.length || !s.online) return;
  s.patch({ securityEventsQueued: undefined });
  for (const e of queued) send(s, e.type, e.at, e.techInfo);
}

function send(s: Step, type: SecurityEventType, at: number, techInfo?: string): void {
  s.call(
    call('SecurityEventNotification', {
      type,
      timestamp: iso(at),
      ...(techInfo ? { techInfo: techInfo.slice(0, 255) } : {}),
    }),
  );
}
