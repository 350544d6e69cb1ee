// Every EV and operator command, declared once: its event_type (stored, shown by E16), its path
// under /evcharger/commands/, its payload (validated by the API, defaults filled in), and the
// charger machine event it becomes. What differs between OCPP versions (connector numbering, a
// 1.6 key or a 2.0.1 variable, the statuses a local list may carry) the charger's wire adapter
// decides. The API's bodies and routes (api/schemas/commands.ts, api/routers/commands-router.ts)
// are made from this list; the event's type must be one the machine dispatches (actors/charger/
// dispatch.ts, COMMANDS), so a command missing a handler does not compile.
import { z } from 'zod';
import type { CommandEvent, OcppVersion } from '../../actors/charger/charger-ports.ts';
import { OCPP_WIRES, wireFor } from '../../actors/charger/ocpp-wires.ts';

type Wire = ReturnType<typeof wireFor>;
type Built = { event: CommandEvent } | { problem: string };

interface CommandKind<P extends z.ZodType> {
  /** Under /evcharger/commands/. */
  path: string;
  payload: P;
  /** The machine event for a payload as queued, or why this charger's version cannot take it. */
  event(payload: z.output<P>, wire: Wire, version: OcppVersion): CommandEvent | { problem: string };
}

const kind = <P extends z.ZodType>(k: CommandKind<P>) => k;

const id = z.number().int().min(1).max(1000);
/** A configuration value: OCPP carries strings; numbers and booleans are written as such. */
const configValue = z
  .union([z.string().max(1000), z.number().min(-1e15).max(1e15), z.boolean()])
  .transform(String);
const authStatus = z.enum([
  'Accepted',
  'Blocked',
  'Expired',
  'Invalid',
  'ConcurrentTx',
  'NoCredit',
  'NotAllowedTypeEVSE',
  'NotAtThisLocation',
  'NotAtThisTime',
  'Unknown',
]);
const idTag = z.string().min(1).max(36);

/** A payload that may be left out; its defaults are filled in either way. */
const optionalPayload = <S extends z.ZodObject>(shape: S) => shape.prefault({} as z.input<S>);

const connectorPayload = z.strictObject({ connector_id: id.default(1), evse_id: id.optional() });

/** The charger's connector for a payload's connector_id / evse_id, as its version numbers them. */
const connectorOf = (wire: Wire, p: { connector_id: number; evse_id?: number }) =>
  wire.connectorOf({ connectorId: p.connector_id, evseId: p.evse_id });

/** The grid events a 2.1 charger's DER inverter detects (2.1 GridEventFaultEnumType). */
export const GRID_EVENT_FAULTS = [
  'CurrentImbalance',
  'LocalEmergency',
  'LowInputPower',
  'OverCurrent',
  'OverFrequency',
  'OverVoltage',
  'PhaseRotation',
  'RemoteEmergency',
  'UnderFrequency',
  'UnderVoltage',
  'VoltageImbalance',
] as const;

export const COMMAND_KINDS = {
  'proxy-message': kind({
    path: 'proxy-message',
    payload: z.strictObject({
      action: z.string().min(1).max(100),
      payload: z.record(z.string().max(128), z.unknown()).default({}),
    }),
    event: (p) => ({ type: 'PROXY_CALL', action: p.action, payload: p.payload }),
  }),
  'ev-stops-energy': kind({
    path: 'ev-stops-energy',
    payload: optionalPayload(z.strictObject({ evse_id: id.default(1), connector_id: id.default(1) })),
    event: (p, wire) => ({ type: 'EV_STOPS_ENERGY', connectorId: connectorOf(wire, p) }),
  }),
  configuration: kind({
    path: 'configuration',
    payload: z.strictObject({
      key: z.string().min(1).max(50).optional(),
      component: z.string().min(1).max(50).optional(),
      variable: z.string().min(1).max(50).optional(),
      value: configValue,
      instance: z.string().min(1).max(50).optional(),
      evse_id: id.optional(),
    }),
    event: (p, wire, version) =>
      wire.configurationCommand(
        {
          key: p.key,
          component: p.component,
          variable: p.variable,
          value: p.value,
          instance: p.instance,
          evseId: p.evse_id,
        },
        version,
      ),
  }),
  'cache-reset': kind({
    path: 'cache/reset',
    payload: optionalPayload(z.strictObject({})),
    event: () => ({ type: 'CLEAR_CACHE' }),
  }),
  'local-auth-list': kind({
    path: 'local-auth-list',
    payload: z.strictObject({
      list_version: z.number().int().min(0).max(2_147_483_647),
      update_type: z.enum(['Full', 'Differential']),
      entries: z
        .array(
          z.strictObject({
            id_tag: idTag,
            id_tag_info: z
              .strictObject({
                status: authStatus,
                expiry_date: z.iso.datetime({ offset: true }).max(64).optional(),
                parent_id_tag: idTag.optional(),
              })
              .optional(),
          }),
        )
        .max(10_000)
        .default([]),
    }),
    event: (p, wire) => {
      const list = {
        version: p.list_version,
        updateType: p.update_type,
        entries: p.entries.map((e) => ({
          idTag: e.id_tag,
          ...(e.id_tag_info
            ? {
                status: e.id_tag_info.status,
                ...(e.id_tag_info.expiry_date ? { expiryDate: e.id_tag_info.expiry_date } : {}),
                ...(e.id_tag_info.parent_id_tag ? { parentIdTag: e.id_tag_info.parent_id_tag } : {}),
              }
            : {}),
        })),
      };
      const problem = wire.localListProblem(list);
      return problem ? { problem } : { type: 'SEND_LOCAL_LIST', list };
    },
  }),
  'plug-in': kind({
    path: 'plug-in',
    payload: optionalPayload(
      connectorPayload.extend({
        ev_max_power_kw: z.number().positive().max(1000).optional(),
        soc_percent: z.number().min(0).max(100).optional(),
        battery_kwh: z.number().positive().max(1000).optional(),
        // V2X (2.1 block Q): an EV that can give energy back, down to its minimum state of charge.
        bidirectional: z.boolean().optional(),
        max_discharge_kw: z.number().positive().max(1000).optional(),
        min_soc_percent: z.number().min(0).max(100).optional(),
      }),
    ).refine(
      (p) => p.bidirectional || (p.max_discharge_kw === undefined && p.min_soc_percent === undefined),
      {
        message: 'max_discharge_kw and min_soc_percent describe a bidirectional EV: set bidirectional true',
        path: ['bidirectional'],
      },
    ),
    event: (p, wire) => ({
      type: 'PLUG_IN',
      connectorId: connectorOf(wire, p),
      ...(p.ev_max_power_kw !== undefined ? { evMaxPowerKw: p.ev_max_power_kw } : {}),
      ...(p.soc_percent !== undefined ? { socPercent: p.soc_percent } : {}),
      ...(p.battery_kwh !== undefined ? { batteryKwh: p.battery_kwh } : {}),
      ...(p.bidirectional ? { bidirectional: true } : {}),
      ...(p.max_discharge_kw !== undefined ? { maxDischargeKw: p.max_discharge_kw } : {}),
      ...(p.min_soc_percent !== undefined ? { minSocPercent: p.min_soc_percent } : {}),
    }),
  }),
  'present-token': kind({
    path: 'present-token',
    payload: connectorPayload.extend({ id_tag: idTag }),
    event: (p, wire) => ({ type: 'PRESENT_TOKEN', connectorId: connectorOf(wire, p), idTag: p.id_tag }),
  }),
  unplug: kind({
    path: 'unplug',
    payload: optionalPayload(connectorPayload),
    event: (p, wire) => ({ type: 'UNPLUG', connectorId: connectorOf(wire, p) }),
  }),
  fault: kind({
    path: 'fault',
    payload: optionalPayload(connectorPayload.extend({ error_code: z.string().min(1).max(50).optional() })),
    event: (p, wire) => ({
      type: 'FAULT',
      connectorId: connectorOf(wire, p),
      ...(p.error_code ? { errorCode: p.error_code } : {}),
    }),
  }),
  // K11-K13: an external limit (a local EMS, the grid operator) on an EVSE / connector, 0 the whole
  // charger; limit_w null releases it.
  'external-limit': kind({
    path: 'external-limit',
    payload: z.strictObject({
      connector_id: z.number().int().min(0).max(1000).default(0),
      evse_id: z.number().int().min(0).max(1000).optional(),
      limit_w: z.number().min(0).max(10_000_000).nullable(),
      source: z.enum(['EMS', 'SO', 'Other']).default('EMS'),
      grid_critical: z.boolean().optional(),
    }),
    event: (p, wire) => ({
      type: 'EXTERNAL_LIMIT',
      connectorId: wire.connectorOf({ connectorId: p.connector_id, evseId: p.evse_id }),
      source: p.source,
      limitW: p.limit_w,
      ...(p.grid_critical !== undefined ? { gridCritical: p.grid_critical } : {}),
    }),
  }),
  // V2X: the grid frequency the frequency operation modes (2.1 CentralFrequency, LocalFrequency) follow.
  'grid-frequency': kind({
    path: 'grid-frequency',
    payload: z.strictObject({ frequency_hz: z.number().min(45).max(65) }),
    event: (p) => ({ type: 'GRID_FREQUENCY', hz: p.frequency_hz }),
  }),
  // 2.1 DER control: a grid event the simulated inverter detects (NotifyDERAlarm; a must-trip
  // control held for it stops the charger), or its end.
  'grid-event': kind({
    path: 'grid-event',
    payload: z.strictObject({
      fault: z.enum(GRID_EVENT_FAULTS),
      ended: z.boolean().default(false),
      extra_info: z.string().max(200).optional(),
    }),
    event: (p) => ({
      type: 'GRID_EVENT',
      fault: p.fault,
      ended: p.ended,
      ...(p.extra_info !== undefined ? { extraInfo: p.extra_info } : {}),
    }),
  }),
  'clear-fault': kind({
    path: 'clear-fault',
    payload: optionalPayload(connectorPayload),
    event: (p, wire) => ({ type: 'CLEAR_FAULT', connectorId: connectorOf(wire, p) }),
  }),
  disconnect: kind({
    path: 'disconnect',
    payload: optionalPayload(z.strictObject({})),
    event: () => ({ type: 'DISCONNECT' }),
  }),
};

export type EventType = keyof typeof COMMAND_KINDS;
export const EVENT_TYPES = Object.keys(COMMAND_KINDS) as EventType[];

/** Payloads as queued (defaults filled in), by event type. */
export type CommandPayloads = { [K in EventType]: z.output<(typeof COMMAND_KINDS)[K]['payload']> };
export type AnyPayload = CommandPayloads[EventType];

/**
 * The machine event for a queued payload, or why the payload does not fit this charger: its
 * version wants another shape, or it names a connector beyond the model's `connectorCount`.
 */
export function chargerEvent(
  type: EventType,
  payload: AnyPayload,
  version: OcppVersion,
  connectorCount?: number | null,
): Built {
  if (!Object.hasOwn(OCPP_WIRES, version)) return { problem: `no charger speaks OCPP version '${version}'` };
  const k = COMMAND_KINDS[type] as CommandKind<z.ZodType>;
  const built = k.event(payload, wireFor(version), version);
  if ('problem' in built) return built;
  if ('connectorId' in built && connectorCount && built.connectorId > connectorCount)
    return {
      problem: `connector ${built.connectorId} does not exist: the charger's model has ${connectorCount} connectors, numbered 1-${connectorCount} (connector_id on OCPP 1.6, evse_id on 2.0.1 and 2.1)`,
    };
  return { event: built };
}
