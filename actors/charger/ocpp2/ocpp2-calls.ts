// The CSMS's OCPP 2.0.1 / 2.1 calls: one line each from the action to the block that handles it,
// reading the 2.x payload and writing the 2.x answer. Anything not here is answered NotImplemented.
// Each handler's `p` is its action's 2.0.1 request and its answer must be the 2.0.1 response
// (core/csms-calls.ts; 2.1 payloads are read through 2.0.1's types, see ocpp-wires.ts); the link
// validated `p` against the official schema of the charger's version before.
import { dataTransfer } from '../blocks/data-transfer.ts';
import { costUpdated } from '../blocks/tariff-cost.ts';
import { customerInformation } from '../blocks/customer-information.ts';
import type { CsmsCalls } from '../core/csms-calls.ts';
import { RpcError } from '../../../protocols/ocpp/rpc-error.ts';
import type { Step } from '../core/step.ts';
import type { OcppRequest, OcppResponse } from '../../../protocols/ocpp/ocpp-types.ts';
import { authStatus, call, iso } from '../wire/basics.ts';
import { chargingProfile, clearedAnswer, compositePeriod, purposeFrom } from '../wire/charging-profile.ts';
import { clearCache } from '../blocks/authorization.ts';
import { changeAvailability } from '../blocks/availability.ts';
import { localListVersion, updateLocalList } from '../blocks/local-list.ts';
import { remoteStart, remoteStop, reset, trigger, unlock } from '../blocks/remote-control.ts';
import { clearProfiles, compositeLimit, profilePages, setProfile } from '../blocks/smart-charging.ts';
import type { ChargingProfile } from '../core/context.ts';
import { connectorByTxId, transactionStatus } from '../blocks/transactions.ts';
import { cancelReservation, reserve } from '../blocks/reservation.ts';
import {
  clearDisplayMessage,
  reportDisplayMessages,
  setDisplayMessage,
  type DisplayMessage,
} from '../blocks/display-messages.ts';
import { getBaseReport, getReport, getVariables, setVariables } from './device-model.ts';
import { PURPOSE, PURPOSE_2 } from './ocpp2-names.ts';
import { FIRMWARE_2_CALLS, triggerTransferStatus2 } from './ocpp2-firmware.ts';
import { MONITORING_2_CALLS } from './ocpp2-monitoring.ts';
import { setNetworkProfile } from '../blocks/security.ts';
import {
  certificateSigned,
  deleteCertificate,
  installCertificate,
  installedCertificates,
  requestCertificate,
} from '../blocks/certificates.ts';

type CertificateIdUse = NonNullable<
  OcppResponse<'ocpp2.0.1', 'GetInstalledCertificateIds'>['certificateHashDataChain']
>[number]['certificateType'];

type Profile2 = OcppRequest<'ocpp2.0.1', 'SetChargingProfile'>['chargingProfile'];

const profile2 = (evseId: number, p: Profile2, now: number) =>
  chargingProfile(
    {
      id: p.id,
      connectorId: evseId,
      purpose: PURPOSE[p.chargingProfilePurpose] ?? 'Tx',
      schedule: p.chargingSchedule[0],
    },
    p,
    now,
  );

/** A profile as 2.x writes it (K09 ReportChargingProfiles): its schedule has the profile's id. */
function profileOut2(s: Step, p: ChargingProfile): Profile2 {
  const txId =
    p.purpose === 'Tx' ? s.ctx.connectors.find((c) => c.tx && c.tx.ref === p.txRef)?.tx?.id : undefined;
  const transactionId = txId ?? (p.transactionId !== undefined ? String(p.transactionId) : undefined);
  return {
    id: p.id,
    stackLevel: p.stackLevel,
    chargingProfilePurpose: (p.source
      ? 'ChargingStationExternalConstraints'
      : PURPOSE_2[p.purpose]) as Profile2['chargingProfilePurpose'],
    chargingProfileKind: p.startAt ? 'Absolute' : 'Relative',
    ...(p.validTo ? { validTo: iso(p.validTo) } : {}),
    ...(transactionId !== undefined ? { transactionId } : {}),
    chargingSchedule: [
      {
        id: p.id,
        chargingRateUnit: p.unit,
        ...(p.startAt ? { startSchedule: iso(p.startAt) } : {}),
        ...(p.duration !== undefined ? { duration: p.duration } : {}),
        chargingSchedulePeriod: p.periods.map((x) => ({ ...x })),
      },
    ],
  };
}

type MessageInfo2 = OcppRequest<'ocpp2.0.1', 'SetDisplayMessage'>['message'];

/** A display message as 2.x writes it (O04 NotifyDisplayMessages). */
function messageOut2(s: Step, m: DisplayMessage): MessageInfo2 {
  const transactionId =
    m.txRef === undefined ? undefined : s.ctx.connectors.find((c) => c.tx?.ref === m.txRef)?.tx?.id;
  return {
    id: m.id,
    priority: m.priority,
    ...(m.state ? { state: m.state } : {}),
    ...(m.startAt !== undefined ? { startDateTime: iso(m.startAt) } : {}),
    ...(m.endAt !== undefined ? { endDateTime: iso(m.endAt) } : {}),
    ...(transactionId !== undefined ? { transactionId } : {}),
    message: {
      format: m.format as MessageInfo2['message']['format'],
      ...(m.language ? { language: m.language } : {}),
      content: m.content,
    },
  };
}

/** The local ref of the transaction the charger named `id`: running, or with messages still queued. */
function txRefOf2(s: Step, id: string): number | null {
  const running = connectorByTxId(s, id)?.tx?.ref;
  if (running !== undefined) return running;
  const queued = s.ctx.outbox.find(
    (x) => (x.payload.transactionInfo as { transactionId?: string } | undefined)?.transactionId === id,
  );
  return queued?.tx ?? null;
}

/**
 * F01/F02: a remote start with its charging profile already read (2.1 reads its own V2X fields);
 * the fields both versions' requests share.
 */
export function requestStart(
  p: { evseId?: number; idToken: { idToken: string; type: string }; remoteStartId: number },
  s: Step,
  profile: ChargingProfile | undefined,
): OcppResponse<'ocpp2.0.1', 'RequestStartTransaction'> {
  const r = remoteStart(s, {
    connectorId: p.evseId,
    idTag: p.idToken.idToken,
    idType: p.idToken.type,
    remoteStartId: p.remoteStartId,
    profile,
  });
  const tx = r.connectorId !== undefined ? s.connector(r.connectorId)?.tx : undefined;
  return { status: r.status, ...(tx?.id ? { transactionId: tx.id } : {}) };
}

export const OCPP2_CALLS: CsmsCalls<'ocpp2.0.1'> = {
  // Configuration (the device model)
  GetVariables: getVariables,
  SetVariables: setVariables,
  GetBaseReport: getBaseReport,
  GetReport: getReport,

  // Remote control
  Reset: (p, s) => {
    if (p.evseId !== undefined) return { status: 'Rejected' };
    return { status: reset(s, p.type === 'Immediate' ? 'hard' : 'idle') };
  },
  RequestStartTransaction: (p, s) =>
    requestStart(p, s, p.chargingProfile ? profile2(p.evseId ?? 0, p.chargingProfile, s.now) : undefined),
  RequestStopTransaction: (p, s) => ({
    status: remoteStop(s, connectorByTxId(s, String(p.transactionId))?.id),
  }),
  UnlockConnector: (p, s) => {
    const c = s.connector(p.evseId);
    if (!c || p.connectorId !== 1) return { status: 'UnknownConnector' };
    if (c.tx) return { status: 'OngoingAuthorizedTransaction' };
    return { status: unlock(s, p.evseId) };
  },
  TriggerMessage: (p, s) => {
    switch (p.requestedMessage) {
      case 'BootNotification':
        // F06.FR.17: only a charger whose boot is not accepted yet (Pending, Rejected) boots on request.
        if (s.online) return { status: 'Rejected' };
        return { status: trigger(s, p.requestedMessage, p.evse?.id) };
      case 'Heartbeat':
      case 'StatusNotification':
      case 'MeterValues':
      case 'TransactionEvent':
        return { status: trigger(s, p.requestedMessage, p.evse?.id) };
      // The running firmware update's or log upload's status, else Idle.
      case 'SignChargingStationCertificate':
        return { status: requestCertificate(s, 'InvalidChargingStationCertificate') };
      case 'FirmwareStatusNotification':
      case 'LogStatusNotification':
        triggerTransferStatus2(s, p.requestedMessage);
        return { status: 'Accepted' };
      default:
        return { status: 'NotImplemented' };
    }
  },

  // Authorization and the local list
  ClearCache: (_p, s) => ({ status: clearCache(s) }),
  SendLocalList: (p, s) => {
    const status = updateLocalList(s, {
      version: p.versionNumber,
      full: p.updateType === 'Full',
      entries: (p.localAuthorizationList ?? []).map((e) => ({
        idTag: e.idToken.idToken,
        status: e.idTokenInfo ? authStatus(e.idTokenInfo.status) : undefined,
        group: e.idTokenInfo?.groupIdToken?.idToken,
      })),
    });
    return { status: status === 'NotSupported' ? 'Failed' : status };
  },
  GetLocalListVersion: (_p, s) => ({ versionNumber: localListVersion(s) }),

  // Availability
  ChangeAvailability: (p, s) => ({
    status: changeAvailability(s, p.evse?.id ?? 0, p.operationalStatus === 'Operative'),
  }),

  // Smart charging
  SetChargingProfile: (p, s) => ({ status: setProfile(s, profile2(p.evseId, p.chargingProfile, s.now)) }),
  ClearChargingProfile: (p, s) => {
    const k = p.chargingProfileCriteria ?? {};
    const cleared = clearProfiles(s, {
      id: p.chargingProfileId,
      connectorId: k.evseId,
      purpose: purposeFrom(PURPOSE_2, k.chargingProfilePurpose),
      stackLevel: k.stackLevel,
    });
    return clearedAnswer(cleared);
  },
  // K09: one ReportChargingProfiles per EVSE and source (paged, tbc on all but the last), after the answer.
  GetChargingProfiles: (p, s) => {
    const k = p.chargingProfile;
    const pages = profilePages(s, {
      connectorId: p.evseId,
      ids: k.chargingProfileId,
      purpose: purposeFrom(PURPOSE_2, k.chargingProfilePurpose),
      stackLevel: k.stackLevel,
      sources: k.chargingLimitSource,
    });
    pages.forEach((page, i) =>
      s.call(
        call('ReportChargingProfiles', {
          requestId: p.requestId,
          chargingLimitSource: page.source,
          evseId: page.connectorId,
          chargingProfile: page.profiles.map((x) => profileOut2(s, x)),
          ...(i < pages.length - 1 ? { tbc: true } : {}),
        }),
      ),
    );
    return { status: pages.length ? 'Accepted' : 'NoProfiles' };
  },
  GetCompositeSchedule: (p, s) => {
    const composite = compositeLimit(s, p.evseId, p.chargingRateUnit);
    if (!composite) return { status: 'Rejected' };
    return {
      status: 'Accepted',
      schedule: { evseId: p.evseId, scheduleStart: iso(s.now), ...compositePeriod(composite, p.duration) },
    };
  },

  // E14: the local transaction a 2.x transactionId names, running or only in the queue (its Ended waits).
  GetTransactionStatus: (p, s) => {
    const ref = p.transactionId === undefined ? undefined : txRefOf2(s, p.transactionId);
    const { ongoing, queued } = transactionStatus(s, ref);
    return { messagesInQueue: queued, ...(ongoing !== undefined ? { ongoingIndicator: ongoing } : {}) };
  },

  // Display messages (block O; blocks/display-messages.ts)
  SetDisplayMessage: (p, s) => {
    const m = p.message;
    const txRef = m.transactionId === undefined ? undefined : connectorByTxId(s, m.transactionId)?.tx?.ref;
    return {
      status: setDisplayMessage(
        s,
        {
          id: m.id,
          priority: m.priority,
          ...(m.state ? { state: m.state } : {}),
          ...(m.startDateTime ? { startAt: Date.parse(m.startDateTime) } : {}),
          ...(m.endDateTime ? { endAt: Date.parse(m.endDateTime) } : {}),
          ...(txRef !== undefined ? { txRef } : {}),
          format: m.message.format,
          ...(m.message.language ? { language: m.message.language } : {}),
          content: m.message.content,
        },
        m.transactionId === undefined || txRef !== undefined,
      ),
    };
  },
  GetDisplayMessages: (p, s) => ({
    status: reportDisplayMessages(s, { ids: p.id, priority: p.priority, state: p.state }, (messages, more) =>
      call('NotifyDisplayMessages', {
        requestId: p.requestId,
        messageInfo: messages.map((m) => messageOut2(s, m)),
        ...(more ? { tbc: true } : {}),
      }),
    ),
  }),
  ClearDisplayMessage: (p, s) => ({ status: clearDisplayMessage(s, p.id) }),

  // Tariff and cost (block I; blocks/tariff-cost.ts)
  CostUpdated: (p, s) => {
    costUpdated(s, connectorByTxId(s, p.transactionId)?.tx?.ref, p.totalCost);
    return {};
  },

  // N09/N10 customer information (blocks/customer-information.ts)
  CustomerInformation: (p, s) => ({
    status: customerInformation(
      s,
      {
        report: p.report,
        clear: p.clear,
        ...(p.idToken ? { idTag: p.idToken.idToken } : {}),
        ...(p.customerCertificate ? { certificate: true } : {}),
        ...(p.customerIdentifier !== undefined ? { customerId: p.customerIdentifier } : {}),
      },
      (data, seqNo, more) =>
        call('NotifyCustomerInformation', {
          data,
          seqNo,
          generatedAt: iso(s.now),
          requestId: p.requestId,
          ...(more ? { tbc: true } : {}),
        }),
    ),
  }),

  DataTransfer: (p, s) => {
    const status = dataTransfer(s, p.vendorId);
    return { status, ...(status === 'Accepted' && p.data !== undefined ? { data: p.data } : {}) };
  },

  // Reservation (H01 by EVSE, by connector type, or any EVSE; H02)
  ReserveNow: (p, s) => ({
    status: reserve(s, {
      id: p.id,
      connectorId: p.evseId ?? 0,
      idTag: p.idToken.idToken,
      ...(p.groupIdToken ? { parentIdTag: p.groupIdToken.idToken } : {}),
      ...(p.connectorType ? { connectorType: p.connectorType } : {}),
      expiresAt: Date.parse(p.expiryDateTime),
    }),
  }),
  CancelReservation: (p, s) => ({ status: cancelReservation(s, p.reservationId) }),
  // Firmware (L01-L03) and logs (N01): ocpp2-firmware.ts
  ...FIRMWARE_2_CALLS,
  // L03/L04: a charging station is not a local controller: it publishes no firmware.
  PublishFirmware: () => {
    throw new RpcError('NotSupported', 'a charging station is not a local controller');
  },
  UnpublishFirmware: () => {
    throw new RpcError('NotSupported', 'a charging station is not a local controller');
  },
  // Monitoring (block N; ocpp2-monitoring.ts)
  ...MONITORING_2_CALLS,
  // Security (block A; blocks/security.ts)
  SetNetworkProfile: (p, s) => ({
    status: setNetworkProfile(s, p.configurationSlot, {
      url: p.connectionData.ocppCsmsUrl,
      profile: p.connectionData.securityProfile,
    }),
  }),
  CertificateSigned: (p, s) => {
    if (p.certificateType === 'V2GCertificate') return { status: 'Rejected' };
    return { status: certificateSigned(s, p.certificateChain, 'InvalidChargingStationCertificate') };
  },
  InstallCertificate: (p, s) => ({ status: installCertificate(s, p.certificateType, p.certificate) }),
  DeleteCertificate: (p, s) => ({ status: deleteCertificate(s, p.certificateHashData) }),
  GetInstalledCertificateIds: (p, s) => {
    const found = installedCertificates(s, p.certificateType);
    return found.length
      ? {
          status: 'Accepted',
          certificateHashDataChain: found.map((c) => ({
            // Kept as this version's InstallCertificate named it, one of GetCertificateIdUse's names.
            certificateType: c.certificateType as CertificateIdUse,
            certificateHashData: c.hashData,
          })),
        }
      : { status: 'NotFound' };
  },
};
