// Provisioning: the charger registers with its central system, and boots again after a reset.
// OCPP 1.6 Core BootNotification; 2.0.1 block B: B01-B03 cold boot (Accepted, Pending, Rejected)
// and the reboot that follows an accepted Reset (B11, B12; the Reset call is remote-control's).
// Each boot says why it happens (ctx.bootReason, 2.0.1's BootReasonEnumType; the 1.6 adapter
// ignores it): set by whoever causes the reboot, kept through Pending/Rejected retries, cleared
// once a boot is accepted.
import type { BootReason, CallMeta } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import type { Answer } from '../core/wire.ts';
import { withSetting } from '../core/settings.ts';
import { securityEventAfterReboot } from './security-events.ts';

export function sendBoot(s: Step): void {
  // A reconnect while a reset waits is no reboot yet: the reason is the reboot's, later.
  s.send(s.wire.bootNotification(s.ctx.reset ? { ...s.ctx, bootReason: undefined } : s.ctx));
}

/** F06 TriggerMessage BootNotification: a boot now, whatever the charger is doing (even Pending). */
export function sendTriggeredBoot(s: Step): void {
  s.send(s.wire.bootNotification({ ...s.ctx, bootReason: 'Triggered' }));
}

/**
 * B01 (and B02 when the accepted boot was a triggered one): the CSMS accepted the boot; its
 * interval is the heartbeat interval from now on, and the reboot's reason is told.
 */
export function bootAccepted(s: Step, id: string, payload: Answer<'BootNotification'>): void {
  s.dropCall(id);
  s.patch({ reconnects: 0, ...(s.ctx.reset ? {} : { bootReason: undefined }) });
  applyBootInterval(s, s.wire.bootResult(payload).interval);
}

/** B02/B03: Pending, Rejected or a failed call: boot again after the interval (or the default). */
export function bootNotAccepted(
  s: Step,
  id: string,
  answer: { payload: Answer<'BootNotification'> } | { code: string; description?: string },
): void {
  s.dropCall(id);
  const r = 'payload' in answer ? s.wire.bootResult(answer.payload) : undefined;
  const retrySec = r && r.interval > 0 ? r.interval : s.timing('bootRetryDefaultSec');
  s.patch({ bootRetryAt: s.now + retrySec * 1000 });
  if (!r) {
    const { code, description } = answer as { code: string; description?: string };
    const detail = `${code}${description ? ` ${description}` : ''}`;
    s.emitStage(
      'registering',
      'failed',
      'BOOT_FAILED',
      `BootNotification failed: ${detail}; retrying in ${retrySec} s`,
    );
  } else if (r.status === 'Rejected')
    s.emitStage(
      'registering',
      'failed',
      'BOOT_REJECTED',
      `the central system rejected the BootNotification; retrying in ${retrySec} s`,
    );
  else
    s.emitStage(
      'registering',
      'in_progress',
      'BOOT_PENDING',
      `the central system answered Pending; retrying in ${retrySec} s`,
    );
}

function applyBootInterval(s: Step, interval: number): void {
  if (interval > 0) s.patch({ settings: withSetting(s.ctx, 'HeartbeatInterval', String(interval)) });
}

/** A BootNotification sent while online (TriggerMessage, a proxied one) was answered: its interval applies. */
export function bootAnswered(
  s: Step,
  _meta: CallMeta,
  ok: boolean,
  payload: Answer<'BootNotification'> | undefined,
): boolean {
  if (ok) applyBootInterval(s, s.wire.bootResult(payload!).interval);
  return false;
}

/** B11/B12: the reason the boot after this reset will give (a reset that waited is a scheduled one). */
export function resetReason(s: Step, reason: BootReason): void {
  s.patch({ bootReason: reason });
}

/** B11/B12: a reset to carry out now reboots after a short grace (the Reset's answer leaves first). */
export function scheduleReboot(s: Step): void {
  if (s.ctx.reset === 'now' && s.online) s.setTimer('reboot', s.now + s.timing('rebootDelayMs'));
}

/**
 * Timer `reboot`: the lifecycle goes back to `starting` and boots again. The security extension's
 * events of a reboot (1.6 whitepaper and 2.0.1 A04: ResetOrReboot, then StartupOfTheDevice) are
 * told once the charger is online again.
 */
export function rebootDue(s: Step): void {
  s.clearTimer('reboot');
  if (s.ctx.reset !== 'now' || !s.online) return;
  securityEventAfterReboot(s, 'ResetOrReboot', rebootCause(s.ctx.bootReason));
  securityEventAfterReboot(s, 'StartupOfTheDevice');
  s.raises.push({ type: 'internal.reboot' });
}

const rebootCause = (reason: BootReason | undefined): string | undefined =>
  reason === 'RemoteReset' || reason === 'ScheduledReset'
    ? 'reset by the central system'
    : reason === 'FirmwareUpdate'
      ? 'firmware update'
      : undefined;
