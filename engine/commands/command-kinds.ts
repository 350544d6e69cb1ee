// The commands a user can send (event_type as stored and shown by E16), their payloads once the
// API has filled in defaults, and how each becomes a charger machine event for the charger's
// OCPP version. Version-specific shapes (configuration, local list) are checked here.
import type { ChargerOcppVersion, CommandEvent } from '../../actors/charger/charger-ports.ts';

export const EVENT_TYPES = [
  'proxy-message',
  'ev-stops-energy',
  'configuration',
  'cache-reset',
  'local-auth-list',
  'plug-in',
  'present-token',
  'unplug',
  'fault',
  'clear-fault',
  'disconnect',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface IdTagInfo {
  status: string;
  expiry_date?: string;
  parent_id_tag?: string;
}

/** Payloads as queued (defaults filled in), by event type. */
export interface CommandPayloads {
  'proxy-message': { action: string; payload: Record<string, unknown> };
  'ev-stops-energy': { evse_id: number; connector_id: number };
  configuration: {
    key?: string;
    component?: string;
    variable?: string;
    value: string;
    instance?: string;
    evse_id?: number;
  };
  'cache-reset': Record<string, never>;
  'local-auth-list': {
    list_version: number;
    update_type: 'Full' | 'Differential';
    entries: { id_tag: string; id_tag_info?: IdTagInfo }[];
  };
  'plug-in': {
    connector_id: number;
    evse_id?: number;
    ev_max_power_kw?: number;
    soc_percent?: number;
    battery_kwh?: number;
  };
  'present-token': { id_tag: string; connector_id: number; evse_id?: number };
  unplug: { connector_id: number; evse_id?: number };
  fault: { connector_id: number; evse_id?: number; error_code?: string };
  'clear-fault': { connector_id: number; evse_id?: number };
  disconnect: Record<string, never>;
}

export type AnyPayload = CommandPayloads[EventType];

/** Statuses an OCPP 1.6 IdTagInfo can carry (2.0.1 knows more). */
const STATUS_16 = new Set(['Accepted', 'Blocked', 'Expired', 'Invalid', 'ConcurrentTx']);

type Built = { event: CommandEvent } | { problem: string };

/**
 * 2.0.1 numbers its connectors per EVSE (one connector each here): the EVSE id picks it. 1.6 has
 * connector ids only.
 */
function connectorOf(version: ChargerOcppVersion, p: { connector_id: number; evse_id?: number }): number {
  return version === 'ocpp2.0.1' ? (p.evse_id ?? p.connector_id) : p.connector_id;
}

/** The machine event for a queued payload, or why the payload does not fit this charger's version. */
export function chargerEvent(type: EventType, payload: AnyPayload, version: ChargerOcppVersion): Built {
  switch (type) {
    case 'proxy-message': {
      const p = payload as CommandPayloads['proxy-message'];
      return { event: { type: 'PROXY_CALL', action: p.action, payload: p.payload } };
    }
    case 'ev-stops-energy':
      return {
        event: {
          type: 'EV_STOPS_ENERGY',
          connectorId: connectorOf(version, payload as CommandPayloads['ev-stops-energy']),
        },
      };
    case 'configuration':
      return configurationEvent(payload as CommandPayloads['configuration'], version);
    case 'cache-reset':
      return { event: { type: 'CLEAR_CACHE' } };
    case 'local-auth-list':
      return localListEvent(payload as CommandPayloads['local-auth-list'], version);
    case 'plug-in': {
      const p = payload as CommandPayloads['plug-in'];
      return {
        event: {
          type: 'PLUG_IN',
          connectorId: connectorOf(version, p),
          ...(p.ev_max_power_kw !== undefined ? { evMaxPowerKw: p.ev_max_power_kw } : {}),
          ...(p.soc_percent !== undefined ? { socPercent: p.soc_percent } : {}),
          ...(p.battery_kwh !== undefined ? { batteryKwh: p.battery_kwh } : {}),
        },
      };
    }
    case 'present-token': {
      const p = payload as CommandPayloads['present-token'];
      return { event: { type: 'PRESENT_TOKEN', connectorId: connectorOf(version, p), idTag: p.id_tag } };
    }
    case 'unplug':
      return {
        event: { type: 'UNPLUG', connectorId: connectorOf(version, payload as CommandPayloads['unplug']) },
      };
    case 'fault': {
      const p = payload as CommandPayloads['fault'];
      return {
        event: {
          type: 'FAULT',
          connectorId: connectorOf(version, p),
          ...(p.error_code ? { errorCode: p.error_code } : {}),
        },
      };
    }
    case 'clear-fault':
      return {
        event: {
          type: 'CLEAR_FAULT',
          connectorId: connectorOf(version, payload as CommandPayloads['clear-fault']),
        },
      };
    case 'disconnect':
      return { event: { type: 'DISCONNECT' } };
  }
}

function configurationEvent(p: CommandPayloads['configuration'], version: ChargerOcppVersion): Built {
  if (version === 'ocpp1.6') {
    if (p.key === undefined || p.component !== undefined || p.variable !== undefined)
      return { problem: 'an OCPP 1.6 charger takes {key, value}' };
    return { event: { type: 'CHANGE_CONFIGURATION', key: p.key, value: p.value } };
  }
  if (p.key !== undefined || p.component === undefined || p.variable === undefined)
    return { problem: 'an OCPP 2.0.1 charger takes {component, variable, value, instance?, evse_id?}' };
  return {
    event: {
      type: 'SET_VARIABLE',
      component: p.component,
      variable: p.variable,
      value: p.value,
      ...(p.instance !== undefined ? { instance: p.instance } : {}),
      ...(p.evse_id !== undefined ? { evseId: p.evse_id } : {}),
    },
  };
}

function localListEvent(p: CommandPayloads['local-auth-list'], version: ChargerOcppVersion): Built {
  if (version === 'ocpp1.6') {
    const bad = p.entries.find((e) => e.id_tag_info && !STATUS_16.has(e.id_tag_info.status));
    if (bad) return { problem: `status '${bad.id_tag_info!.status}' does not exist in OCPP 1.6` };
    return {
      event: {
        type: 'SEND_LOCAL_LIST',
        payload: {
          listVersion: p.list_version,
          updateType: p.update_type,
          localAuthorizationList: p.entries.map((e) => ({
            idTag: e.id_tag,
            ...(e.id_tag_info
              ? {
                  idTagInfo: {
                    status: e.id_tag_info.status,
                    ...(e.id_tag_info.expiry_date ? { expiryDate: e.id_tag_info.expiry_date } : {}),
                    ...(e.id_tag_info.parent_id_tag ? { parentIdTag: e.id_tag_info.parent_id_tag } : {}),
                  },
                }
              : {}),
          })),
        },
      },
    };
  }
  return {
    event: {
      type: 'SEND_LOCAL_LIST',
      payload: {
        versionNumber: p.list_version,
        updateType: p.update_type,
        localAuthorizationList: p.entries.map((e) => ({
          idToken: { idToken: e.id_tag, type: 'Central' },
          ...(e.id_tag_info
            ? {
                idTokenInfo: {
                  status: e.id_tag_info.status,
                  ...(e.id_tag_info.expiry_date ? { cacheExpiryDateTime: e.id_tag_info.expiry_date } : {}),
                  ...(e.id_tag_info.parent_id_tag
                    ? { groupIdToken: { idToken: e.id_tag_info.parent_id_tag, type: 'Central' } }
                    : {}),
                },
              }
            : {}),
        })),
      },
    },
  };
}
