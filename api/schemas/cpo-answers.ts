// Shapes of the answers of the CPO area (locations, groups, tariff keys, charge points and what the
// built-in central system recorded), for the API description.
import { z } from 'zod';
import { LOCATION_ORIGINS, LOCATION_ROLES } from './cpo-locations.ts';

const dateTime = z.iso.datetime({ offset: true });
const nullable = <T extends z.ZodType>(s: T) => s.nullable();
/** OCPI sub-objects as stored (shapes of the request body). */
const ocpiValue = nullable(z.unknown()).optional();

export const locationRecord = z.looseObject({
  id: z.number().int().meta({ description: 'The record id (token groups refer to it)' }),
  organization_id: z.string(),
  location_id: z.string(),
  country_code: z.string(),
  party_id: z.string(),
  publish: z.boolean(),
  publish_allowed_to: ocpiValue,
  name: nullable(z.string()).optional(),
  address: z.string(),
  city: z.string(),
  postal_code: nullable(z.string()).optional(),
  state: nullable(z.string()).optional(),
  country: z.string(),
  coordinates: z.object({ latitude: z.string(), longitude: z.string() }),
  related_locations: ocpiValue,
  parking_type: nullable(z.string()).optional(),
  parking_places: ocpiValue,
  directions: ocpiValue,
  operator: ocpiValue,
  suboperator: ocpiValue,
  owner: ocpiValue,
  facilities: nullable(z.array(z.string())).optional(),
  time_zone: z.string(),
  opening_times: ocpiValue,
  charging_when_closed: nullable(z.boolean()).optional(),
  images: ocpiValue,
  energy_mix: ocpiValue,
  help_phone: nullable(z.string()).optional(),
  role: z.enum(LOCATION_ROLES),
  origin: z.enum(LOCATION_ORIGINS),
  ocpi_version: z.string(),
  ocpp_version: nullable(z.string()).optional(),
  last_updated: dateTime,
  revision: z.number().int(),
  created_at: dateTime,
  updated_at: dateTime,
  deleted_at: nullable(dateTime).optional(),
});

export const tokenGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  location_ids: z.array(z.number().int()),
});
export const groupLocations = z.object({
  items: z.array(locationRecord),
  offset: z.number().int(),
  limit: z.number().int(),
  next_offset: nullable(z.number().int()),
});
export const voucherGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  voucher_count: z.number().int(),
});
export const signingKey = z.object({ key_id: z.string(), algorithm: z.string(), public_key_pem: z.string() });

export const chargePoint = z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  charge_point_id: z.string(),
  is_online: z.boolean(),
  is_roaming: z.boolean(),
  use_status_notification_0: z.boolean(),
  revision: z.number().int(),
  ocpp_version: nullable(z.string()),
  charge_point_vendor: nullable(z.string()),
  charge_point_model: nullable(z.string()),
  charge_point_serial_number: nullable(z.string()),
  charge_box_serial_number: nullable(z.string()),
  firmware_version: nullable(z.string()),
  last_heartbeat: nullable(dateTime),
  iccid: nullable(z.string()),
  imsi: nullable(z.string()),
  meter_type: nullable(z.string()),
  meter_serial_number: nullable(z.string()),
  coordinates: nullable(z.string()),
  floor_level: nullable(z.string()),
  parking_restrictions: nullable(z.array(z.string())),
  capabilities: nullable(z.array(z.string())),
  max_power_kw: nullable(z.number()),
  connector_type: nullable(z.string()),
  connector_count: nullable(z.number().int()),
  accessibility: nullable(z.string()),
  location_id: nullable(z.number().int()),
  image_url: nullable(z.string()),
  proxy_urls: nullable(z.record(z.string(), z.unknown())),
  responded_at: nullable(dateTime),
  has_credentials: z.boolean(),
  created_at: dateTime,
  updated_at: dateTime,
});

export const credentials = z.object({
  username: z.string().meta({ description: 'The charge point id' }),
  password: z.string().meta({ description: 'Shown once: only its hash is kept' }),
});

export const rebootSent = z.looseObject({
  tracking_id: z.string(),
  charge_point_id: z.string(),
  ocpp_version: z.string(),
  version_path: z.string(),
  payload_type: z.string(),
  payload: z.unknown(),
  status: z.string().meta({ description: "The charger's answer: Accepted, Rejected or Scheduled" }),
});

export const connectorStatuses = z.object({
  items: z.array(
    z.object({
      evse_id: z.number().int(),
      connector_id: z.number().int(),
      status: z.string(),
      error_code: nullable(z.string()),
      updated_at: dateTime,
    }),
  ),
});

export const sessions = z.object({
  items: z.array(
    z.object({
      transaction_id: z.string(),
      evse_id: nullable(z.number().int()),
      connector_id: nullable(z.number().int()),
      id_tag: nullable(z.string()),
      status: z.string(),
      meter_start_wh: nullable(z.number()),
      meter_last_wh: nullable(z.number()),
      meter_stop_wh: nullable(z.number()),
      started_at: nullable(dateTime),
      stopped_at: nullable(dateTime),
      stop_reason: nullable(z.string()),
    }),
  ),
});

export const operation = z.object({
  tracking_id: z.string(),
  charge_point_id: z.string(),
  action: z.string(),
  request: z.unknown(),
  status: z.string().meta({ description: 'Pending, the answer status (Accepted, ...), Failed or TimedOut' }),
  response: z.unknown(),
  error: nullable(z.string()),
  created_at: dateTime,
  responded_at: nullable(dateTime),
});

/** The charge point's answer to a CALL sent through the built-in central system. */
export const chargePointCallAnswer = z.object({
  action: z.string(),
  response: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'The CALLRESULT payload (absent when the charge point answered with a CALLERROR)' }),
  error: z
    .object({
      code: z.string().meta({ description: 'The OCPP-J error code, e.g. NotImplemented' }),
      description: z.string(),
      details: z.record(z.string(), z.unknown()),
    })
    .optional()
    .meta({
      description:
        "The CALLERROR the charge point answered with (or the central system's, when the answer broke the response's schema)",
    }),
});
