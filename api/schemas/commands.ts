// Request shapes of the command endpoints (E11-E15 and the EV-session commands): a target plus a
// payload, with the payload's defaults filled in (what the 202 answer and E16 show).
import { z } from 'zod';
import type { EventType } from '../../engine/commands/command-kinds.ts';

/** Spec "Command target": the rules between the fields are checked after parsing (400). */
export const commandTarget = z.strictObject({
  deployment_id: z.string().min(1).optional(),
  identity: z.string().min(1).optional(),
  location_id: z.string().min(1).optional(),
  charger_ids: z.array(z.string().min(1)).max(10_000).optional(),
});

const id = z.number().int().min(1);
/** A configuration value: OCPP carries strings; numbers and booleans are written as such. */
const configValue = z.union([z.string().max(1000), z.number(), z.boolean()]).transform(String);
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

const body = <P extends z.ZodType>(payload: P) => z.strictObject({ target: commandTarget, payload });

/** A payload that may be left out; its defaults are filled in either way. */
const optionalPayload = <S extends z.ZodObject>(shape: S) => shape.prefault({} as z.input<S>);

const connectorPayload = z.strictObject({ connector_id: id.default(1), evse_id: id.optional() });

export const commandBodies = {
  'proxy-message': body(
    z.strictObject({
      action: z.string().min(1).max(100),
      payload: z.record(z.string(), z.unknown()).default({}),
    }),
  ),
  'ev-stops-energy': body(
    optionalPayload(z.strictObject({ evse_id: id.default(1), connector_id: id.default(1) })),
  ),
  configuration: body(
    z.strictObject({
      key: z.string().min(1).max(50).optional(),
      component: z.string().min(1).max(50).optional(),
      variable: z.string().min(1).max(50).optional(),
      value: configValue,
      instance: z.string().min(1).max(50).optional(),
      evse_id: id.optional(),
    }),
  ),
  'cache-reset': body(optionalPayload(z.strictObject({}))),
  'local-auth-list': body(
    z.strictObject({
      list_version: z.number().int().min(0),
      update_type: z.enum(['Full', 'Differential']),
      entries: z
        .array(
          z.strictObject({
            id_tag: idTag,
            id_tag_info: z
              .strictObject({
                status: authStatus,
                expiry_date: z.iso.datetime({ offset: true }).optional(),
                parent_id_tag: idTag.optional(),
              })
              .optional(),
          }),
        )
        .max(10_000)
        .default([]),
    }),
  ),
  'plug-in': body(
    optionalPayload(
      connectorPayload.extend({
        ev_max_power_kw: z.number().positive().max(1000).optional(),
        soc_percent: z.number().min(0).max(100).optional(),
        battery_kwh: z.number().positive().max(1000).optional(),
      }),
    ),
  ),
  'present-token': body(connectorPayload.extend({ id_tag: idTag })),
  unplug: body(optionalPayload(connectorPayload)),
  fault: body(optionalPayload(connectorPayload.extend({ error_code: z.string().min(1).max(50).optional() }))),
  'clear-fault': body(optionalPayload(connectorPayload)),
  disconnect: body(optionalPayload(z.strictObject({}))),
} satisfies Record<EventType, z.ZodType>;

/** The path of each command endpoint under /evcharger/commands/. */
export const COMMAND_PATHS: Record<EventType, string> = {
  'proxy-message': 'proxy-message',
  'ev-stops-energy': 'ev-stops-energy',
  configuration: 'configuration',
  'cache-reset': 'cache/reset',
  'local-auth-list': 'local-auth-list',
  'plug-in': 'plug-in',
  'present-token': 'present-token',
  unplug: 'unplug',
  fault: 'fault',
  'clear-fault': 'clear-fault',
  disconnect: 'disconnect',
};

export const commandIdPath = z.object({ command_id: z.string() });
