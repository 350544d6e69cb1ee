// Payload builders for what a central system sends a charger, in the charger's version: each
// returns [action, payload] for `h.csmsCall(...)`, with defaults a test overrides by name.
import type { OcppVersion } from '../../../actors/charger/charger-ports.ts';

type Call = [action: string, payload: Record<string, unknown>];
const v16 = (v: OcppVersion) => v === 'ocpp1.6';

/** F01/F02: RemoteStartTransaction (1.6) / RequestStartTransaction (2.x). */
export function aRemoteStart(
  version: OcppVersion,
  o: { connectorId?: number; idTag?: string; remoteStartId?: number } = {},
): Call {
  const { connectorId = 1, idTag = 'REMOTE-1', remoteStartId = 7 } = o;
  return v16(version)
    ? ['RemoteStartTransaction', { connectorId, idTag }]
    : [
        'RequestStartTransaction',
        { evseId: connectorId, remoteStartId, idToken: { idToken: idTag, type: 'Central' } },
      ];
}

/** F03: RemoteStopTransaction (1.6, the CSMS's number) / RequestStopTransaction (2.x, the charger's id). */
export function aRemoteStop(version: OcppVersion, transactionId: number | string): Call {
  return v16(version)
    ? ['RemoteStopTransaction', { transactionId }]
    : ['RequestStopTransaction', { transactionId }];
}

/** K01: SetChargingProfile with one period. */
export function aChargingProfile(
  version: OcppVersion,
  o: {
    id?: number;
    connectorId?: number;
    stackLevel?: number;
    purpose?: 'TxDefaultProfile' | 'TxProfile' | 'MaxProfile';
    limit?: number;
    unit?: 'W' | 'A';
    transactionId?: number | string;
  } = {},
): Call {
  const { id = 1, connectorId = 1, stackLevel = 0, limit = 6000, unit = 'W' } = o;
  const purpose =
    o.purpose === 'MaxProfile'
      ? v16(version)
        ? 'ChargePointMaxProfile'
        : 'ChargingStationMaxProfile'
      : (o.purpose ?? 'TxDefaultProfile');
  const schedule = { chargingRateUnit: unit, chargingSchedulePeriod: [{ startPeriod: 0, limit }] };
  const tx = o.transactionId !== undefined ? { transactionId: o.transactionId } : {};
  return v16(version)
    ? [
        'SetChargingProfile',
        {
          connectorId,
          csChargingProfiles: {
            chargingProfileId: id,
            stackLevel,
            chargingProfilePurpose: purpose,
            chargingProfileKind: 'Relative',
            ...tx,
            chargingSchedule: schedule,
          },
        },
      ]
    : [
        'SetChargingProfile',
        {
          evseId: connectorId,
          chargingProfile: {
            id,
            stackLevel,
            chargingProfilePurpose: purpose,
            chargingProfileKind: 'Relative',
            ...tx,
            chargingSchedule: [{ id, ...schedule }],
          },
        },
      ];
}

/** K05: ClearChargingProfile by id. */
export function aClearChargingProfile(version: OcppVersion, id: number): Call {
  return ['ClearChargingProfile', v16(version) ? { id } : { chargingProfileId: id }];
}

/** K08: GetCompositeSchedule. */
export function aCompositeScheduleRequest(
  version: OcppVersion,
  o: { connectorId?: number; duration?: number; unit?: 'W' | 'A' } = {},
): Call {
  const { connectorId = 1, duration = 3600, unit = 'W' } = o;
  return [
    'GetCompositeSchedule',
    v16(version)
      ? { connectorId, duration, chargingRateUnit: unit }
      : { evseId: connectorId, duration, chargingRateUnit: unit },
  ];
}

/** The composite schedule of a GetCompositeSchedule answer, wherever the version puts it. */
export const compositeOf = (version: OcppVersion, answer: any) =>
  v16(version) ? answer.chargingSchedule : answer.schedule;

/** D01: SendLocalList; status undefined leaves the entry's info out (a removal when differential). */
export function aLocalList(
  version: OcppVersion,
  o: {
    listVersion?: number;
    updateType?: 'Full' | 'Differential';
    /** group: 1.6 parentIdTag, 2.x groupIdToken. */
    entries?: { idTag: string; status?: string; group?: string }[];
  } = {},
): Call {
  const { listVersion = 1, updateType = 'Full', entries = [] } = o;
  return v16(version)
    ? [
        'SendLocalList',
        {
          listVersion,
          updateType,
          localAuthorizationList: entries.map((e) => ({
            idTag: e.idTag,
            ...(e.status
              ? { idTagInfo: { status: e.status, ...(e.group ? { parentIdTag: e.group } : {}) } }
              : {}),
          })),
        },
      ]
    : [
        'SendLocalList',
        {
          versionNumber: listVersion,
          updateType,
          localAuthorizationList: entries.map((e) => ({
            idToken: { idToken: e.idTag, type: 'ISO14443' },
            ...(e.status
              ? {
                  idTokenInfo: {
                    status: e.status,
                    ...(e.group ? { groupIdToken: { idToken: e.group, type: 'Central' } } : {}),
                  },
                }
              : {}),
          })),
        },
      ];
}

/** B05 / 1.6 ChangeConfiguration: a setting by its 1.6 key or its 2.x component/variable. */
export function aConfigurationChange(
  version: OcppVersion,
  setting: { key: string; component: string; variable: string },
  value: string,
): Call {
  return v16(version)
    ? ['ChangeConfiguration', { key: setting.key, value }]
    : [
        'SetVariables',
        {
          setVariableData: [
            {
              component: { name: setting.component },
              variable: { name: setting.variable },
              attributeValue: value,
            },
          ],
        },
      ];
}

export const HEARTBEAT_INTERVAL = {
  key: 'HeartbeatInterval',
  component: 'OCPPCommCtrlr',
  variable: 'HeartbeatInterval',
};

/** F06: TriggerMessage, for a connector (1.6) / EVSE (2.x) or the whole charger. */
export function aTrigger(version: OcppVersion, requestedMessage: string, connectorId?: number): Call {
  if (connectorId === undefined) return ['TriggerMessage', { requestedMessage }];
  return [
    'TriggerMessage',
    v16(version) ? { requestedMessage, connectorId } : { requestedMessage, evse: { id: connectorId } },
  ];
}

/** G03/G04: ChangeAvailability; connectorId 0 is the whole charger. */
export function aChangeAvailability(version: OcppVersion, connectorId: number, operative: boolean): Call {
  return v16(version)
    ? ['ChangeAvailability', { connectorId, type: operative ? 'Operative' : 'Inoperative' }]
    : [
        'ChangeAvailability',
        {
          operationalStatus: operative ? 'Operative' : 'Inoperative',
          ...(connectorId === 0 ? {} : { evse: { id: connectorId } }),
        },
      ];
}

/** F05: UnlockConnector. */
export function anUnlock(version: OcppVersion, connectorId: number): Call {
  return ['UnlockConnector', v16(version) ? { connectorId } : { evseId: connectorId, connectorId: 1 }];
}

/** BootNotification's answer from the CSMS. */
export function aBootAnswer(o: { status?: 'Accepted' | 'Pending' | 'Rejected'; interval?: number } = {}) {
  return {
    status: o.status ?? 'Accepted',
    currentTime: new Date().toISOString(),
    interval: o.interval ?? 300,
  };
}

/** Authorize's answer from the CSMS with this status, as the version writes it. */
export function anAuthorizeAnswer(version: OcppVersion, status = 'Accepted', group?: string) {
  return v16(version)
    ? { idTagInfo: { status, ...(group ? { parentIdTag: group } : {}) } }
    : { idTokenInfo: { status, ...(group ? { groupIdToken: { idToken: group, type: 'Central' } } : {}) } };
}

/** H01: ReserveNow; connectorId 0 (1.6) / no evseId (2.x) reserves any connector. */
export function aReserveNow(
  version: OcppVersion,
  o: {
    id?: number;
    connectorId?: number;
    idTag?: string;
    parentIdTag?: string;
    connectorType?: string;
    expiresAt: number;
  },
): Call {
  const { id = 1, connectorId = 1, idTag = 'RESERVED-1' } = o;
  const expiry = new Date(o.expiresAt).toISOString();
  return v16(version)
    ? [
        'ReserveNow',
        {
          connectorId,
          expiryDate: expiry,
          idTag,
          reservationId: id,
          ...(o.parentIdTag ? { parentIdTag: o.parentIdTag } : {}),
        },
      ]
    : [
        'ReserveNow',
        {
          id,
          expiryDateTime: expiry,
          idToken: { idToken: idTag, type: 'Central' },
          ...(connectorId ? { evseId: connectorId } : {}),
          ...(o.connectorType ? { connectorType: o.connectorType } : {}),
          ...(o.parentIdTag ? { groupIdToken: { idToken: o.parentIdTag, type: 'Central' } } : {}),
        },
      ];
}
