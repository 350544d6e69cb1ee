// Request bodies of the CPO locations (POST /cpo/locations, E21 PATCH) in OCPI 2.2.1 shape.
// Nested shapes are strict: an unknown field is a 422, as in the rest of the API.
import { z } from 'zod';

export const LOCATION_ROLES = ['CPO', 'EMSP', 'HUB', 'NAP', 'NSP', 'OTHER', 'SCSP'] as const;
export const LOCATION_ORIGINS = ['LOCAL', 'PARTNER'] as const;
export const OCPI_VERSIONS = ['2.1.1', '2.2.1', '2.3.0'] as const;
export const PARKING_TYPES = [
  'ALONG_MOTORWAY',
  'PARKING_GARAGE',
  'PARKING_LOT',
  'ON_DRIVEWAY',
  'ON_STREET',
  'UNDERGROUND_GARAGE',
] as const;

const opt = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

function decimalIn(max: number, what: string) {
  return z
    .string()
    .regex(/^-?\d{1,3}(\.\d{1,10})?$/, `${what} must be a decimal number as a string, e.g. "52.37403"`)
    .refine((v) => Math.abs(Number(v)) <= max, `${what} must be between -${max} and ${max}`);
}

export const geoLocation = z.strictObject({
  latitude: decimalIn(90, 'latitude'),
  longitude: decimalIn(180, 'longitude'),
});
export const displayText = z.strictObject({ language: z.string().min(2).max(2), text: z.string().max(512) });
export const image = z.strictObject({
  url: z.string().min(1),
  thumbnail: opt(z.string()),
  category: z.string().min(1),
  type: z.string().min(1).max(4),
  width: opt(z.number().int().min(0)),
  height: opt(z.number().int().min(0)),
});
export const publishToken = z.strictObject({
  uid: z.string().max(36),
  type: z.string(),
  visual_number: opt(z.string()),
  issuer: opt(z.string()),
  group_id: opt(z.string()),
});
export const relatedLocation = z.strictObject({
  latitude: decimalIn(90, 'latitude'),
  longitude: decimalIn(180, 'longitude'),
  name: opt(displayText),
});
export const businessDetails = z.strictObject({
  name: z.string().min(1),
  website: opt(z.string()),
  logo: opt(image),
});
const period = z.strictObject({
  period_begin: z.iso.datetime({ offset: true }),
  period_end: z.iso.datetime({ offset: true }),
});
export const openingTimes = z.strictObject({
  twentyfourseven: opt(z.boolean()),
  regular_hours: opt(
    z.array(
      z.strictObject({
        weekday: z.number().int().min(1).max(7),
        period_begin: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'period_begin must be HH:MM'),
        period_end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'period_end must be HH:MM'),
      }),
    ),
  ),
  exceptional_openings: opt(z.array(period)),
  exceptional_closings: opt(z.array(period)),
});
export const energyMix = z.strictObject({
  is_green_energy: z.boolean(),
  energy_sources: opt(z.array(z.strictObject({ source: z.string(), percentage: z.number() }))),
  environ_impact: opt(z.array(z.strictObject({ category: z.string(), amount: z.number() }))),
  supplier_name: opt(z.string()),
  energy_product_name: opt(z.string()),
});
export const parkingPlace = z.strictObject({
  id: z.string().min(1),
  vehicle_types: z.array(z.string()),
  restricted_to_type: z.boolean(),
  reservation_required: z.boolean(),
  physical_reference: opt(z.string()),
  max_vehicle_weight: opt(z.number()),
  max_vehicle_height: opt(z.number()),
  max_vehicle_length: opt(z.number()),
  max_vehicle_width: opt(z.number()),
  parking_space_length: opt(z.number()),
  parking_space_width: opt(z.number()),
  dangerous_goods_allowed: opt(z.boolean()),
  direction: opt(z.string()),
  drive_through: opt(z.boolean()),
  time_limit: opt(z.number()),
  roofed: opt(z.boolean()),
  images: opt(z.array(image)),
  lighting: opt(z.boolean()),
  refrigeration_outlet: opt(z.boolean()),
  standards: opt(z.array(z.string())),
  apds_reference: opt(z.string()),
});

const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz.includes('/') || tz === 'UTC';
  } catch {
    return false;
  }
}, 'time_zone must be an IANA time zone, e.g. "Europe/Amsterdam"');

/** The required Location fields a PATCH may change but never clear. */
const requiredEditable = {
  publish: z.boolean(),
  address: z.string().min(1).max(45),
  city: z.string().min(1).max(45),
  country: z.string().regex(/^[A-Z]{3}$/, 'country must be an ISO 3166-1 alpha-3 code, e.g. "NLD"'),
  coordinates: geoLocation,
  time_zone: timeZone,
};

/** The optional Location fields: null clears them. */
const optionalEditable = {
  publish_allowed_to: opt(z.array(publishToken)),
  name: opt(z.string().max(255)),
  postal_code: opt(z.string().max(10)),
  state: opt(z.string().max(20)),
  related_locations: opt(z.array(relatedLocation)),
  parking_type: opt(z.enum(PARKING_TYPES)),
  parking_places: opt(z.array(parkingPlace)),
  directions: opt(z.array(displayText)),
  operator: opt(businessDetails),
  suboperator: opt(businessDetails),
  owner: opt(businessDetails),
  facilities: opt(z.array(z.string())),
  opening_times: opt(openingTimes),
  charging_when_closed: opt(z.boolean()),
  images: opt(z.array(image)),
  energy_mix: opt(energyMix),
  help_phone: opt(z.string().max(64)),
};

export const createLocationBody = z.strictObject({
  location_id: z.string().min(1).max(36),
  country_code: z
    .string()
    .regex(/^[A-Z]{2}$/, 'country_code must be 2 upper-case letters (ISO 3166-1 alpha-2)'),
  party_id: z.string().regex(/^[A-Z0-9]{3}$/, 'party_id must be 3 upper-case letters or digits'),
  ...requiredEditable,
  publish: z.boolean().default(true),
  role: z.enum(LOCATION_ROLES).default('CPO'),
  origin: z.enum(LOCATION_ORIGINS).default('LOCAL'),
  ocpi_version: z.enum(OCPI_VERSIONS).default('2.2.1'),
  ocpp_version: opt(z.string().max(16)),
  ...optionalEditable,
});
export type CreateLocationBody = z.infer<typeof createLocationBody>;

export const patchLocationBody = z.strictObject({
  expected_revision: z.number().int().min(1).optional(),
  publish: requiredEditable.publish.optional(),
  address: requiredEditable.address.optional(),
  city: requiredEditable.city.optional(),
  country: requiredEditable.country.optional(),
  coordinates: requiredEditable.coordinates.optional(),
  time_zone: requiredEditable.time_zone.optional(),
  ...optionalEditable,
});
export type PatchLocationBody = z.infer<typeof patchLocationBody>;

export const locationPath = z.object({ location_id: z.string().min(1).max(36) });
