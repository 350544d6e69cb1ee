// Firmware management: OCPP 1.6 Firmware Management UpdateFirmware, the 1.6 security extension's
// SignedUpdateFirmware, and 2.0.1 block L: L01 secure firmware update, L02 non-secure update,
// L03 an update scheduled for later. One job at a time, as ctx.firmware, moved by the `firmware`
// timer and the transfers port's answers:
//
//   scheduled ─(retrieveAt)─▶ downloading ─ok─▶ [signature checked] ─▶ waiting ─(no transaction,
//   installAt)─▶ installing ─▶ rebooting ─(online again)─▶ Installed
//   downloading ─failed─▶ retry (retryInterval, `retries` times) ─▶ DownloadFailed
//
// While an install waits for running transactions, every connector not in one is held Unavailable
// (2.0.1 L01.FR.07; 1.6 5.19 recommends the same) and each one whose transaction ends joins them,
// so no new session starts; they come back at the reboot (its boot says every status) or when the
// job ends otherwise (a new request replaces it).
//
// Each status goes to the CSMS with the message and names the adapter gave (FirmwareReport): 1.6
// FirmwareStatusNotification lacks the signed-update statuses, so it never hears them.
import type { Step } from '../core/step.ts';
import type { TransferResult } from '../core/transfers.ts';
import { moveConnector, nextStatus, pending } from '../core/connector-status.ts';
import { call } from '../wire/basics.ts';
import { scheduleReboot } from './provisioning.ts';
import { revokedProblem, signingChainProblem } from '../core/signing-chain.ts';
import { securityEvent } from './security-events.ts';
import { manufacturerRoots } from './certificates.ts';
import { hasTransaction } from '../core/transaction.ts';

export type FirmwareStatus =
  | 'Idle'
  | 'DownloadScheduled'
  | 'Downloading'
  | 'Downloaded'
  | 'DownloadFailed'
  | 'SignatureVerified'
  | 'InvalidSignature'
  | 'InstallScheduled'
  | 'Installing'
  | 'InstallRebooting'
  | 'Installed'
  | 'InstallationFailed';

/** How the version reports a job: the message, its requestId, the statuses it has (others are not sent). */
export interface FirmwareReport {
  action: string;
  requestId?: number;
  statuses: readonly FirmwareStatus[];
}

export interface FirmwareRequest {
  location: string;
  retrieveAt: number;
  installAt?: number;
  /** Retries after a failed download (attempts = retries + 1). */
  retries?: number;
  retryIntervalSec?: number;
  /** Signed firmware: base64 signature over the image, and the PEM certificate of its key. */
  signature?: string;
  certificate?: string;
  report: FirmwareReport;
}

type Phase = 'scheduled' | 'downloading' | 'retry' | 'waiting' | 'installing' | 'rebooting';

interface FirmwareJob extends Omit<FirmwareRequest, 'retries' | 'retryIntervalSec'> {
  phase: Phase;
  retriesLeft: number;
  retryMs: number;
  /** The transfer this job waits for. */
  transfer?: string;
  version?: string;
}

declare module '../core/context.ts' {
  interface ChargerContext {
    firmware?: FirmwareJob;
    /** The last firmware status reported, and how (TriggerMessage FirmwareStatusNotification repeats it). */
    firmwareStatus?: { status: FirmwareStatus; report: FirmwareReport };
  }
  interface ChargerTimers {
    firmware?: number;
  }
  interface Connector {
    /** L01.FR.07: held Unavailable while a firmware install waits for the transactions to end. */
    firmwareHold?: true;
  }
}

/** A download that gives no answer for this long counts as failed (a restored charger lost it). */
const DOWNLOAD_DEADLINE_MS = 5 * 60_000;
/** While transactions run, the install is looked at again this often (only a charger with a job). */
const WAIT_CHECK_MS = 2_000;
/** Installing takes this long before the reboot. */
const INSTALL_MS = 500;
const DEFAULT_RETRY_INTERVAL_SEC = 60;

/**
 * L01/L02/L03 and 1.6 UpdateFirmware: a new job replaces a running one (AcceptedCanceled). A
 * signing chain with a certificate a held CRL revokes is refused at once (RevokedCertificate), as
 * is a signing certificate that does not chain to an installed manufacturer root when the charger
 * has one (L01.FR.02, InvalidCertificate); either way the running job carries on.
 */
export function updateFirmware(
  s: Step,
  r: FirmwareRequest,
): 'Accepted' | 'AcceptedCanceled' | 'InvalidCertificate' | 'RevokedCertificate' {
  const revoked =
    r.certificate !== undefined ? revokedProblem(r.certificate, s.ctx.security?.revoked ?? []) : undefined;
  if (revoked) {
    securityEvent(s, 'InvalidFirmwareSigningCertificate', revoked);
    return 'RevokedCertificate';
  }
  const roots = r.certificate !== undefined ? manufacturerRoots(s) : [];
  const problem = roots.length > 0 ? signingChainProblem(r.certificate!, roots, s.now) : undefined;
  if (problem) {
    securityEvent(s, 'InvalidFirmwareSigningCertificate', problem);
    return 'InvalidCertificate';
  }
  const canceled = s.ctx.firmware !== undefined && s.ctx.firmware.phase !== 'rebooting';
  if (canceled) releaseConnectors(s, false);
  const { retries, retryIntervalSec, ...rest } = r;
  const job: FirmwareJob = {
    ...rest,
    phase: 'scheduled',
    retriesLeft: Math.max(0, retries ?? 0),
    retryMs: (retryIntervalSec ?? DEFAULT_RETRY_INTERVAL_SEC) * 1000,
  };
  s.patch({ firmware: job });
  s.setTimer('firmware', Math.max(s.now, r.retrieveAt));
  if (r.retrieveAt > s.now) report(s, 'DownloadScheduled');
  return canceled ? 'AcceptedCanceled' : 'Accepted';
}

/** Timer `firmware`: the job's next step is due. */
export function firmwareDue(s: Step): void {
  const job = s.ctx.firmware;
  if (!job) return;
  switch (job.phase) {
    case 'scheduled':
    case 'retry':
      return download(s, job);
    case 'downloading':
      return downloadFailed(s, job);
    case 'waiting':
      return installWhenFree(s, job);
    case 'installing':
      return reboot(s, job);
    case 'rebooting':
      return installed(s, job);
  }
}

/** The transfers port answered; false when the answer is not this block's. */
export function firmwareTransferred(s: Step, r: TransferResult): boolean {
  const job = s.ctx.firmware;
  if (!job || job.phase !== 'downloading' || job.transfer !== r.id) return false;
  if (!r.ok) {
    downloadFailed(s, r.error === 'unsupported' ? { ...job, retriesLeft: 0 } : job);
    return true;
  }
  report(s, 'Downloaded');
  if (job.signature !== undefined) {
    if (r.signature !== 'valid') {
      report(s, 'InvalidSignature');
      securityEvent(
        s,
        r.signature === 'invalid-certificate'
          ? 'InvalidFirmwareSigningCertificate'
          : 'InvalidFirmwareSignature',
        r.detail ?? job.location,
      );
      return (end(s), true);
    }
    report(s, 'SignatureVerified');
  }
  if (!r.firmwareVersion) {
    report(s, 'InstallationFailed');
    return (end(s), true);
  }
  put(s, { ...job, phase: 'waiting', transfer: undefined, version: r.firmwareVersion });
  installWhenFree(s, s.ctx.firmware!);
  return true;
}

function download(s: Step, job: FirmwareJob): void {
  const id = `fw-${s.now}`;
  if (job.phase === 'scheduled') report(s, 'Downloading');
  put(s, { ...job, phase: 'downloading', transfer: id });
  s.transfers.push({
    type: 'transfer.download',
    id,
    url: job.location,
    ...(job.signature !== undefined
      ? { verify: { signature: job.signature, certificate: job.certificate ?? '' } }
      : {}),
  });
  s.setTimer('firmware', s.now + DOWNLOAD_DEADLINE_MS);
}

function downloadFailed(s: Step, job: FirmwareJob): void {
  if (job.retriesLeft > 0) {
    put(s, { ...job, phase: 'retry', transfer: undefined, retriesLeft: job.retriesLeft - 1 });
    s.setTimer('firmware', s.now + job.retryMs);
    return;
  }
  report(s, 'DownloadFailed');
  end(s);
}

/** Installs once no transaction runs and installAt has come (1.6 and L01.FR.06 wait for the transactions). */
function installWhenFree(s: Step, job: FirmwareJob): void {
  const at = job.installAt ?? 0;
  if (at > s.now) {
    if (s.ctx.firmwareStatus?.status !== 'InstallScheduled') report(s, 'InstallScheduled');
    return s.setTimer('firmware', at);
  }
  if (hasTransaction(s)) {
    holdConnectors(s);
    return s.setTimer('firmware', s.now + WAIT_CHECK_MS);
  }
  report(s, 'Installing');
  put(s, { ...job, phase: 'installing' });
  s.setTimer('firmware', s.now + INSTALL_MS);
}

/** The image is in place: reboot into it; the boot says the new version and why it booted. */
function reboot(s: Step, job: FirmwareJob): void {
  if (hasTransaction(s)) return installWhenFree(s, job);
  report(s, 'InstallRebooting');
  put(s, { ...job, phase: 'rebooting' });
  releaseConnectors(s, true);
  s.patch({
    model: { ...s.ctx.model, firmware_version: job.version },
    bootReason: 'FirmwareUpdate',
    reset: 'now',
  });
  scheduleReboot(s);
  // Installed is said once the charger is back online (looked at until then).
  s.setTimer('firmware', s.now + WAIT_CHECK_MS);
}

function installed(s: Step, job: FirmwareJob): void {
  if (!s.online || s.ctx.reset !== undefined) return s.setTimer('firmware', s.now + WAIT_CHECK_MS);
  report(s, 'Installed');
  // A security event where the job came with the security messages (a requestId): 1.6 plain has none.
  if (job.report.requestId !== undefined) securityEvent(s, 'FirmwareUpdated', `firmware ${job.version}`);
  end(s);
}

function put(s: Step, job: FirmwareJob): void {
  s.patch({ firmware: job });
}

function end(s: Step): void {
  releaseConnectors(s, false);
  s.patch({ firmware: undefined });
  s.clearTimer('firmware');
}

/** L01.FR.07: every connector is held; those not in a transaction go Unavailable now, the others when it ends. */
function holdConnectors(s: Step): void {
  for (const c of s.ctx.connectors) {
    if (c.firmwareHold) continue;
    s.putConnector({ ...c, firmwareHold: true });
    if (!c.tx) moveConnector(s, c.id, ['disable'], c.errorCode);
  }
}

/**
 * The hold ends: each connector settles where its cable, token, reservation and availability put
 * it. `quiet` before the reboot: the boot's StatusNotification of every connector says it.
 */
function releaseConnectors(s: Step, quiet: boolean): void {
  for (const c of s.ctx.connectors) {
    if (!c.firmwareHold) continue;
    const freed = { ...c, firmwareHold: undefined };
    if (freed.tx) {
      s.putConnector(freed);
      continue;
    }
    const events = ['enable' as const, ...pending(freed)];
    if (quiet) s.putConnector({ ...freed, status: nextStatus(c.status, ...events) });
    else {
      s.putConnector(freed);
      moveConnector(s, c.id, events, c.errorCode);
    }
  }
}

/** Sends the status when the job's version has it, and remembers it for a TriggerMessage. */
function report(s: Step, status: FirmwareStatus): void {
  const r = s.ctx.firmware?.report;
  if (!r || !r.statuses.includes(status)) return;
  s.patch({ firmwareStatus: { status, report: r } });
  s.call(call(r.action, { status, ...(r.requestId !== undefined ? { requestId: r.requestId } : {}) }));
}

/** TriggerMessage FirmwareStatusNotification: the last status of a running job, else Idle. */
export function firmwareStatusNow(s: Step, action: string): void {
  const last = s.ctx.firmwareStatus;
  const running = s.ctx.firmware !== undefined && last?.report.action === action;
  const status = running ? last.status : 'Idle';
  const requestId = running ? last.report.requestId : undefined;
  s.call(call(action, { status, ...(requestId !== undefined ? { requestId } : {}) }));
}
