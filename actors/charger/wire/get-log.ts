// GetLog (1.6 security extension, 2.0.1 N01): the same request and answer in both versions, and
// the same names of LogStatusNotification's statuses. The upload is the diagnostics block's
// (blocks/diagnostics.ts requestLog takes the request written here; wire/ imports no block).
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';

/** LogStatusNotification's names of the upload statuses (both versions). */
export const LOG_STATUS_NAMES = {
  Idle: 'Idle',
  Uploading: 'Uploading',
  Uploaded: 'Uploaded',
  UploadFailed: 'UploadFailure',
  NotSupportedOperation: 'NotSupportedOperation',
};

/** An ISO time of a payload as epoch ms (absent stays absent). */
export const epochOf = (x: string | undefined) => (x === undefined ? undefined : Date.parse(x));

/** The diagnostics block's request for a GetLog payload, reported with LogStatusNotification in these names. */
export function getLogRequest(
  p: OcppRequest<'ocpp1.6' | 'ocpp2.0.1', 'GetLog'>,
  names: Record<string, string>,
) {
  return {
    location: p.log.remoteLocation,
    log: p.logType === 'SecurityLog' ? ('security' as const) : ('diagnostics' as const),
    from: epochOf(p.log.oldestTimestamp),
    to: epochOf(p.log.latestTimestamp),
    retries: p.retries,
    retryIntervalSec: p.retryInterval,
    report: { action: 'LogStatusNotification', requestId: p.requestId, names },
  };
}

/** GetLog's answer: the file's name, and whether it replaced a running upload. */
export const getLogAnswer = (r: {
  fileName: string;
  canceled: boolean;
}): { status: 'Accepted' | 'AcceptedCanceled'; filename: string } => ({
  status: r.canceled ? 'AcceptedCanceled' : 'Accepted',
  filename: r.fileName,
});
