// Request body of E22 POST /cpo/charge-points and the charge point path parameter. Every string,
// number and list is bounded (docs/operations.md).
import { z } from 'zod';
import { OCPP_VERSIONS } from '../../protocols/ocpp/versions.ts';

/** OCPP identifierString (2.0.1): what a charger may put in its connection URL. */
export const chargePointIdentity = z
  .string()
  .min(1)
  .max(48)
  .regex(/^[A-Za-z0-9*\-_=:+|@.]+$/, 'charge_point_id may hold letters, digits and * - _ = : + | @ .');

export const createChargePointBody = z.strictObject({
  charge_point_id: chargePointIdentity,
  ocpp_version: z.enum(OCPP_VERSIONS).optional(),
  charge_point_vendor: z.string().max(50).optional(),
  charge_point_model: z.string().max(50).optional(),
  location_id: z.number().int().min(1).max(2_147_483_647).optional(),
  coordinates: z.string().max(64).optional(),
  floor_level: z.string().max(16).optional(),
  parking_restrictions: z.array(z.string().max(64)).max(20).optional(),
  capabilities: z.array(z.string().max(64)).max(50).optional(),
  max_power_kw: z.number().min(0).max(100_000).optional(),
  connector_type: z.string().max(64).optional(),
  connector_count: z.number().int().min(1).max(64).optional(),
  accessibility: z.string().max(64).optional(),
  use_status_notification_0: z.boolean().default(true),
  image_url: z.string().max(2048).optional(),
  is_roaming: z.boolean().default(false),
});
export type CreateChargePointBody = z.infer<typeof createChargePointBody>;

export const chargePointPath = z.object({ charge_point_id: z.string().min(1).max(48) });
export const operationPath = z.object({ tracking_id: z.uuid() });

/**
 * POST /cpo/charge-points/{charge_point_id}/calls: a CALL the built-in central system sends. The
 * action is one of the connected version's; the payload is checked against its official schema
 * by the engine (which knows the version), after this shape.
 */
export const chargePointCallBody = z.strictObject({
  action: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9]{1,64}$/, 'action is an OCPP action name, e.g. TriggerMessage')
    .meta({
      description:
        "An action of the charge point's OCPP version (e.g. 1.6 `ChangeConfiguration`, 2.0.1 `SetVariables`)",
    }),
  payload: z
    .record(z.string().max(128), z.unknown())
    .default({})
    .meta({ description: "The CALL's payload, checked against the version's official schema" }),
});
export type ChargePointCallBody = z.infer<typeof chargePointCallBody>;
