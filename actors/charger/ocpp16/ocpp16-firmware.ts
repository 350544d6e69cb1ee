// The CSMS's OCPP 1.6 firmware and diagnostics calls (Firmware Management, and the security
// extension's SignedUpdateFirmware and GetLog): how 1.6 reads them and names their statuses. The
// behaviour is the firmware and diagnostics blocks'.
import type { CsmsCalls } from '../core/csms-calls.ts';
import type { Step } from '../core/step.ts';
import { firmwareStatusNow, updateFirmware, type FirmwareStatus } from '../blocks/firmware.ts';
import { requestLog, uploadStatusNow, type LogReport } from '../blocks/diagnostics.ts';
import { LOG_STATUS_NAMES, epochOf, getLogAnswer, getLogRequest } from '../wire/get-log.ts';

/** 1.6 FirmwareStatusNotification's statuses (the signed-update ones are the security extension's). */
const PLAIN: readonly FirmwareStatus[] = [
  'Downloading',
  'Downloaded',
  'DownloadFailed',
  'Installing',
  'Installed',
  'InstallationFailed',
];
const SIGNED: readonly FirmwareStatus[] = [
  ...PLAIN,
  'DownloadScheduled',
  'SignatureVerified',
  'InvalidSignature',
  'InstallScheduled',
  'InstallRebooting',
];

const DIAGNOSTICS: LogReport['names'] = {
  Idle: 'Idle',
  Uploading: 'Uploading',
  Uploaded: 'Uploaded',
  UploadFailed: 'UploadFailed',
};

export const FIRMWARE_16_CALLS: CsmsCalls<'ocpp1.6'> = {
  UpdateFirmware: (p, s) => {
    updateFirmware(s, {
      location: p.location,
      retrieveAt: Date.parse(p.retrieveDate),
      retries: p.retries,
      retryIntervalSec: p.retryInterval,
      report: { action: 'FirmwareStatusNotification', statuses: PLAIN },
    });
    return {};
  },
  SignedUpdateFirmware: (p, s) => ({
    status: updateFirmware(s, {
      location: p.firmware.location,
      retrieveAt: Date.parse(p.firmware.retrieveDateTime),
      installAt: epochOf(p.firmware.installDateTime),
      signature: p.firmware.signature,
      certificate: p.firmware.signingCertificate,
      retries: p.retries,
      retryIntervalSec: p.retryInterval,
      report: { action: 'SignedFirmwareStatusNotification', requestId: p.requestId, statuses: SIGNED },
    }),
  }),
  GetDiagnostics: (p, s) => {
    const { fileName } = requestLog(s, {
      location: p.location,
      log: 'diagnostics',
      from: epochOf(p.startTime),
      to: epochOf(p.stopTime),
      retries: p.retries,
      retryIntervalSec: p.retryInterval,
      report: { action: 'DiagnosticsStatusNotification', names: DIAGNOSTICS },
    });
    return { fileName };
  },
  GetLog: (p, s) => getLogAnswer(requestLog(s, getLogRequest(p, LOG_STATUS_NAMES))),
};

/** TriggerMessage of the firmware or diagnostics status: the running job's, else Idle. */
export function triggerTransferStatus16(s: Step, what: string): void {
  if (what === 'FirmwareStatusNotification') firmwareStatusNow(s, what);
  else uploadStatusNow(s, what, DIAGNOSTICS);
}

/** ExtendedTriggerMessage (security extension): the signed firmware job's or the log upload's status. */
export function extendedTriggerTransferStatus16(s: Step, what: string): void {
  if (what === 'FirmwareStatusNotification') firmwareStatusNow(s, 'SignedFirmwareStatusNotification');
  else uploadStatusNow(s, 'LogStatusNotification', LOG_STATUS_NAMES);
}
