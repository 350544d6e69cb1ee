// The CSMS's OCPP 2.0.1 firmware and log calls: L01-L03 UpdateFirmware and N01 GetLog, how 2.x
// reads them and names their statuses. The behaviour is the firmware and diagnostics blocks'.
import type { CsmsCalls } from '../core/csms-calls.ts';
import type { Step } from '../core/step.ts';
import { firmwareStatusNow, updateFirmware, type FirmwareStatus } from '../blocks/firmware.ts';
import { requestLog, uploadStatusNow } from '../blocks/diagnostics.ts';
import { LOG_STATUS_NAMES, epochOf, getLogAnswer, getLogRequest } from '../wire/get-log.ts';

const STATUSES: readonly FirmwareStatus[] = [
  'DownloadScheduled',
  'Downloading',
  'Downloaded',
  'DownloadFailed',
  'SignatureVerified',
  'InvalidSignature',
  'InstallScheduled',
  'Installing',
  'InstallRebooting',
  'Installed',
  'InstallationFailed',
];

export const FIRMWARE_2_CALLS: CsmsCalls<'ocpp2.0.1'> = {
  UpdateFirmware: (p, s) => ({
    status: updateFirmware(s, {
      location: p.firmware.location,
      retrieveAt: Date.parse(p.firmware.retrieveDateTime),
      installAt: epochOf(p.firmware.installDateTime),
      // L01 secure update when signed; L02 (no signature) installs what it downloaded.
      ...(p.firmware.signature !== undefined
        ? { signature: p.firmware.signature, certificate: p.firmware.signingCertificate ?? '' }
        : {}),
      retries: p.retries,
      retryIntervalSec: p.retryInterval,
      report: { action: 'FirmwareStatusNotification', requestId: p.requestId, statuses: STATUSES },
    }),
  }),
  GetLog: (p, s) => getLogAnswer(requestLog(s, getLogRequest(p, LOG_STATUS_NAMES))),
};

/** TriggerMessage FirmwareStatusNotification / LogStatusNotification: the running job's, else Idle. */
export function triggerTransferStatus2(s: Step, what: string): void {
  if (what === 'FirmwareStatusNotification') firmwareStatusNow(s, what);
  else uploadStatusNow(s, what, LOG_STATUS_NAMES);
}
