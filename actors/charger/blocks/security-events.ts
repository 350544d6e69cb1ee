// Security events (OCPP 1.6 security whitepaper "Security events" and 2.0.1 A04): the charger tells
// the CSMS with SecurityEventNotification, which both versions write the same way. Blocks that
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
  | 'InvalidTLSVersion'
  | 'InvalidTLSCipherSuite';

/** Sends SecurityEventNotification now (dropped when not connected, like any non-transaction CALL). */
export function securityEvent(s: Step, type: SecurityEventType, techInfo?: string): void {
  s.call(
    call('SecurityEventNotification', {
      type,
      timestamp: iso(s.now),
      ...(techInfo ? { techInfo: techInfo.slice(0, 255) } : {}),
    }),
  );
}
