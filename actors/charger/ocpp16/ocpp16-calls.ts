// The CSMS's OCPP 1.6 calls: one line each from the action to the block that handles it, reading
// the 1.6 payload and writing the 1.6 answer. Anything not here is answered NotImplemented.
// Each handler's `p` is its action's 1.6 request and its answer must be the 1.6 response
// (core/csms-calls.ts); the link validated `p` against the official schema before.
import { dataTransfer } from '../blocks/data-transfer.ts';
import type { CsmsCalls } from '../core/csms-calls.ts';
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';
import { SETTINGS, getSetting } from '../core/settings.ts';
import { authStatus, iso } from '../wire/basics.ts';
import { chargingProfile, clearedAnswer, compositePeriod, purposeFrom } from '../wire/charging-profile.ts';
import { clearCache } from '../blocks/authorization.ts';
import { changeAvailability } from '../blocks/availability.ts';
import { changeSetting } from '../blocks/configuration.ts';
import { localListEnabled, localListVersion, updateLocalList } from '../blocks/local-list.ts';
import { remoteStart, remoteStop, reset, trigger, unlock } from '../blocks/remote-control.ts';
import { clearProfiles, compositeLimit, setProfile } from '../blocks/smart-charging.ts';
import { connectorByCsmsId } from '../blocks/transactions.ts';
import { cancelReservation, reserve } from '../blocks/reservation.ts';
import { PURPOSE_16 } from './ocpp16-names.ts';
import {
  FIRMWARE_16_CALLS,
  extendedTriggerTransferStatus16,
  triggerTransferStatus16,
} from './ocpp16-firmware.ts';
import {
  certificateSigned,
  deleteCertificate,
  installCertificate,
  installedCertificates,
  requestCertificate,
} from '../blocks/certificates.ts';

type Profile16 = OcppRequest<'ocpp1.6', 'SetChargingProfile'>['csChargingProfiles'];

const profile16 = (connectorId: number, p: Profile16, now: number) =>
  chargingProfile(
    {
      id: p.chargingProfileId,
      connectorId,
      purpose: purposeFrom(PURPOSE_16, p.chargingProfilePurpose) ?? 'Tx',
      schedule: p.chargingSchedule,
    },
    p,
    now,
  );

export const OCPP16_CALLS: CsmsCalls<'ocpp1.6'> = {
  // Configuration
  ChangeConfiguration: (p, s) => ({ status: changeSetting(s, p.key, p.value) }),
  GetConfiguration: (p, s) => {
    const asked: readonly string[] = Array.isArray(p.key) && p.key.length > 0 ? p.key : s.wire.settings;
    const known = asked.filter((k) => s.wire.settings.includes(k));
    const unknown = asked.filter((k) => !s.wire.settings.includes(k));
    return {
      configurationKey: known.map((key) => ({
        key,
        readonly: SETTINGS[key].readonly,
        value: getSetting(s.ctx, key)!.slice(0, 500),
      })),
      ...(unknown.length ? { unknownKey: unknown } : {}),
    };
  },

  // Remote control (1.6 has no Scheduled: a soft reset stops the transactions gracefully, then reboots)
  Reset: (p, s) => {
    reset(s, p.type === 'Hard' ? 'hard' : 'soft');
    return { status: 'Accepted' };
  },
  RemoteStartTransaction: (p, s) => {
    const profile = p.chargingProfile ? profile16(p.connectorId ?? 0, p.chargingProfile, s.now) : undefined;
    return { status: remoteStart(s, { connectorId: p.connectorId, idTag: p.idTag, profile }).status };
  },
  RemoteStopTransaction: (p, s) => ({ status: remoteStop(s, connectorByCsmsId(s, p.transactionId)?.id) }),
  UnlockConnector: (p, s) => ({
    status: unlock(s, p.connectorId) === 'Unlocked' ? 'Unlocked' : 'UnlockFailed',
  }),
  TriggerMessage: (p, s) => {
    switch (p.requestedMessage) {
      case 'BootNotification':
      case 'Heartbeat':
      case 'StatusNotification':
      case 'MeterValues':
        return { status: trigger(s, p.requestedMessage, p.connectorId) };
      // The running firmware update's or diagnostics upload's status, else Idle.
      case 'DiagnosticsStatusNotification':
      case 'FirmwareStatusNotification':
        triggerTransferStatus16(s, p.requestedMessage);
        return { status: 'Accepted' };
      default:
        return { status: 'NotImplemented' };
    }
  },

  // Authorization and the local list
  ClearCache: (_p, s) => ({ status: clearCache(s) }),
  SendLocalList: (p, s) => ({
    status: updateLocalList(s, {
      version: p.listVersion,
      full: p.updateType === 'Full',
      entries: (p.localAuthorizationList ?? []).map((e) => ({
        idTag: e.idTag,
        status: e.idTagInfo ? authStatus(e.idTagInfo.status) : undefined,
        group: e.idTagInfo?.parentIdTag,
      })),
    }),
  }),
  GetLocalListVersion: (_p, s) => ({ listVersion: localListEnabled(s) ? localListVersion(s) : -1 }),

  // Availability
  ChangeAvailability: (p, s) => ({ status: changeAvailability(s, p.connectorId, p.type === 'Operative') }),

  // Smart charging
  SetChargingProfile: (p, s) => ({
    status: setProfile(s, profile16(p.connectorId, p.csChargingProfiles, s.now)),
  }),
  ClearChargingProfile: (p, s) => {
    const cleared = clearProfiles(s, {
      id: p.id,
      connectorId: p.connectorId,
      purpose: purposeFrom(PURPOSE_16, p.chargingProfilePurpose),
      stackLevel: p.stackLevel,
    });
    return clearedAnswer(cleared);
  },
  GetCompositeSchedule: (p, s) => {
    const composite = compositeLimit(s, p.connectorId, p.chargingRateUnit);
    if (!composite) return { status: 'Rejected' };
    return {
      status: 'Accepted',
      connectorId: p.connectorId,
      scheduleStart: iso(s.now),
      chargingSchedule: { startSchedule: iso(s.now), ...compositePeriod(composite, p.duration) },
    };
  },

  // A cooperative simulator: any vendor's data is accepted and echoed.
  DataTransfer: (p, s) => {
    const status = dataTransfer(s, p.vendorId);
    return { status, ...(status === 'Accepted' && p.data !== undefined ? { data: String(p.data) } : {}) };
  },

  // Reservation
  ReserveNow: (p, s) => ({
    status: reserve(s, {
      id: p.reservationId,
      connectorId: p.connectorId,
      idTag: p.idTag,
      ...(p.parentIdTag ? { parentIdTag: p.parentIdTag } : {}),
      expiresAt: Date.parse(p.expiryDate),
    }),
  }),
  CancelReservation: (p, s) => ({ status: cancelReservation(s, p.reservationId) }),
  // Firmware management and diagnostics (ocpp16-firmware.ts)
  ...FIRMWARE_16_CALLS,
  // Security whitepaper (blocks/security.ts, blocks/certificates.ts)
  ExtendedTriggerMessage: (p, s) => {
    switch (p.requestedMessage) {
      case 'SignChargePointCertificate':
        return { status: requestCertificate(s, 'InvalidChargePointCertificate') };
      case 'BootNotification':
      case 'Heartbeat':
      case 'StatusNotification':
      case 'MeterValues':
        return { status: trigger(s, p.requestedMessage, p.connectorId) };
      case 'FirmwareStatusNotification':
      case 'LogStatusNotification':
        extendedTriggerTransferStatus16(s, p.requestedMessage);
        return { status: 'Accepted' };
      default:
        return { status: 'NotImplemented' };
    }
  },
  CertificateSigned: (p, s) => ({
    status: certificateSigned(s, p.certificateChain, 'InvalidChargePointCertificate'),
  }),
  InstallCertificate: (p, s) => ({ status: installCertificate(s, p.certificateType, p.certificate) }),
  DeleteCertificate: (p, s) => ({ status: deleteCertificate(s, p.certificateHashData) }),
  GetInstalledCertificateIds: (p, s) => {
    const found = installedCertificates(s, [p.certificateType]);
    return found.length
      ? { status: 'Accepted', certificateHashData: found.map((c) => c.hashData) }
      : { status: 'NotFound' };
  },
};
