// Diagnostics and logs: OCPP 1.6 Firmware Management GetDiagnostics, the 1.6 security extension's
// GetLog, and 2.0.1 N01 (GetLog). The charger uploads a file holding its recent OCPP log (the
// engine reads it from the message log: the block only names the file and the time window), with
// the retries asked, and tells the CSMS with the message and names the adapter gave (LogReport).
// One upload at a time, as ctx.upload, moved by the `diagnostics` timer and the port's answers.
import type { Step } from '../core/step.ts';
import type { TransferResult } from '../core/transfers.ts';
import { call } from '../wire/basics.ts';

export type UploadStatus = 'Idle' | 'Uploading' | 'Uploaded' | 'UploadFailed' | 'NotSupportedOperation';

/** How the version reports an upload: the message, its requestId, its name of each status (absent: not sent). */
export interface LogReport {
  action: string;
  requestId?: number;
  names: Partial<Record<UploadStatus, string>>;
}

export interface LogRequest {
  location: string;
  log: 'diagnostics' | 'security';
  from?: number;
  to?: number;
  retries?: number;
  retryIntervalSec?: number;
  report: LogReport;
}

interface UploadJob extends Omit<LogRequest, 'retries' | 'retryIntervalSec'> {
  fileName: string;
  retriesLeft: number;
  retryMs: number;
  /** The transfer this job waits for; retried: an attempt failed already (Uploading was said). */
  transfer?: string;
  retried?: boolean;
}

declare module '../core/context.ts' {
  interface ChargerContext {
    upload?: UploadJob;
  }
  interface ChargerTimers {
    diagnostics?: number;
  }
}

/** An upload that gives no answer for this long counts as failed (a restored charger lost it). */
const UPLOAD_DEADLINE_MS = 5 * 60_000;
const DEFAULT_RETRY_INTERVAL_SEC = 60;

/**
 * 1.6 GetDiagnostics, GetLog: starts the upload after the answer (which names the file); a new
 * request replaces a running one (`canceled`).
 */
export function requestLog(s: Step, r: LogRequest): { fileName: string; canceled: boolean } {
  const canceled = s.ctx.upload !== undefined;
  const { retries, retryIntervalSec, ...rest } = r;
  const kind = r.log === 'security' ? 'security' : 'diagnostics';
  const fileName = `${s.ctx.identity}-${kind}-${s.iso().replace(/[:.]/g, '-')}.log`.slice(0, 255);
  s.patch({
    upload: {
      ...rest,
      fileName,
      retriesLeft: Math.max(0, retries ?? 0),
      retryMs: (retryIntervalSec ?? DEFAULT_RETRY_INTERVAL_SEC) * 1000,
    },
  });
  s.setTimer('diagnostics', s.now);
  return { fileName, canceled };
}

/** Timer `diagnostics`: an attempt is due, or the one running gave no answer in time. */
export function uploadDue(s: Step): void {
  const job = s.ctx.upload;
  if (!job) return;
  if (job.transfer !== undefined) return uploadFailed(s, job);
  const id = `log-${s.now}`;
  if (!job.retried) report(s, 'Uploading');
  s.patch({ upload: { ...job, transfer: id } });
  s.transfers.push({
    type: 'transfer.upload',
    id,
    identity: s.ctx.identity,
    url: job.location,
    fileName: job.fileName,
    log: job.log,
    ...(job.from !== undefined ? { from: job.from } : {}),
    ...(job.to !== undefined ? { to: job.to } : {}),
  });
  s.setTimer('diagnostics', s.now + UPLOAD_DEADLINE_MS);
}

/** The transfers port answered; false when the answer is not this block's. */
export function logTransferred(s: Step, r: TransferResult): boolean {
  const job = s.ctx.upload;
  if (!job || job.transfer !== r.id) return false;
  if (r.ok) {
    report(s, 'Uploaded');
    end(s);
  } else if (r.error === 'unsupported') {
    report(s, job.report.names.NotSupportedOperation ? 'NotSupportedOperation' : 'UploadFailed');
    end(s);
  } else uploadFailed(s, job);
  return true;
}

function uploadFailed(s: Step, job: UploadJob): void {
  if (job.retriesLeft > 0) {
    s.patch({ upload: { ...job, transfer: undefined, retriesLeft: job.retriesLeft - 1, retried: true } });
    s.setTimer('diagnostics', s.now + job.retryMs);
    return;
  }
  report(s, 'UploadFailed');
  end(s);
}

function end(s: Step): void {
  s.patch({ upload: undefined });
  s.clearTimer('diagnostics');
}

function report(s: Step, status: UploadStatus): void {
  const r = s.ctx.upload?.report;
  const name = r?.names[status];
  if (!r || !name) return;
  s.call(call(r.action, { status: name, ...(r.requestId !== undefined ? { requestId: r.requestId } : {}) }));
}

/** TriggerMessage of the version's upload status message: Uploading while one runs, else Idle. */
export function uploadStatusNow(s: Step, action: string, names: LogReport['names']): void {
  const job = s.ctx.upload;
  const running = job !== undefined && job.report.action === action;
  const requestId = running ? job.report.requestId : undefined;
  s.call(
    call(action, {
      status: running ? names.Uploading : names.Idle,
      ...(requestId !== undefined ? { requestId } : {}),
    }),
  );
}
