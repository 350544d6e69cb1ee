// Request bodies of the CPO locations (POST /cpo/locations, E21 PATCH) in OCPI 2.2.1 shape.
// Nested shapes are strict: an unknown field is a 422, as in the rest of the API. Every string,
// number and list is bounded: OCPI's lengths where it gives them, generous ones elsewhere.
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
const url = z.string().max(2048);
/** A short code or name (OCPI enums, identifiers). */
const code = z.string().max(64);
/** Sizes and weights of OCPI objects (pixels, metres, kilograms, minutes). */
const measure = z.number().min(0).max(1_000_000);

export const image = z.strictObject({
  url: url.min(1),
  thumbnail: opt(url),
  category: code.min(1),
  type: z.string().min(1).max(4),
  width: opt(z.number().int().min(0).max(99_999)),
  height: opt(z.number().int().min(0).max(99_999)),
});
export const publishToken = z.strictObject({
  uid: z.string().max(36),
  type: code,
  visual_number: opt(code),
  issuer: opt(code),
  group_id: opt(z.string().max(36)),
});
export const relatedLocation = z.strictObject({
  latitude: decimalIn(90, 'latitude'),
  longitude: decimalIn(180, 'longitude'),
  name: opt(displayText),
});
export const businessDetails = z.strictObject({
  name: z.string().min(1).max(100),
  website: opt(url),
  logo: opt(image),
});
const period = z.strictObject({
  period_begin: z.iso.datetime({ offset: true }).max(64),
  period_end: z.iso.datetime({ offset: true }).max(64),
});
export const openingTimes = z.strictObject({
  twentyfourseven: opt(z.boolean()),
  regular_hours: opt(
    z
      .array(
        z.strictObject({
          weekday: z.number().int().min(1).max(7),
          period_begin: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'period_begin must be HH:MM'),
          period_end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'period_end must be HH:MM'),
        }),
      )
      .max(100),
  ),
  exceptional_openings: opt(z.array(period).max(500)),
  exceptional_closings: opt(z.array(period).max(500)),
});
export const energyMix = z.strictObject({
  is_green_energy: z.boolean(),
  energy_sources: opt(
    z.array(z.strictObject({ source: code, percentage: z.number().min(0).max(100) })).max(20),
  ),
  environ_impact: opt(z.array(z.strictObject({ category: code, amount: measure })).max(20)),
  supplier_name: opt(code),
  energy_product_name: opt(code),
});
export const parkingPlace = z.strictObject({
  id: z.string().min(1).max(36),
  vehicle_types: z.array(code).max(20),
  restricted_to_type: z.boolean(),
  reservation_required: z.boolean(),
  physical_reference: opt(code),
  max_vehicle_weight: opt(measure),
  max_vehicle_height: opt(measure),
  max_vehicle_length: opt(measure),
  max_vehicle_width: opt(measure),
  parking_space_length: opt(measure),
  parking_space_width: opt(measure),
  dangerous_goods_allowed: opt(z.boolean()),
  direction: opt(code),
  drive_through: opt(z.boolean()),
  time_limit: opt(measure),
  roofed: opt(z.boolean()),
  images: opt(z.array(image).max(20)),
  lighting: opt(z.boolean()),
  refrigeration_outlet: opt(z.boolean()),
  standards: opt(z.array(code).max(20)),
  apds_reference: opt(code),
});

const timeZone = z
  .string()
  .max(64)
  .refine((tz) => {
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
  publish_allowed_to: opt(z.array(publishToken).max(100)),
  name: opt(z.string().max(255)),
  postal_code: opt(z.string().max(10)),
  state: opt(z.string().max(20)),
  related_locations: opt(z.array(relatedLocation).max(100)),
  parking_type: opt(z.enum(PARKING_TYPES)),
  parking_places: opt(z.array(parkingPlace).max(500)),
  directions: opt(z.array(displayText).max(20)),
  operator: opt(businessDetails),
  suboperator: opt(businessDetails),
  owner: opt(businessDetails),
  facilities: opt(z.array(code).max(50)),
  opening_times: opt(openingTimes),
  charging_when_closed: opt(z.boolean()),
  images: opt(z.array(image).max(50)),
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
  // revision is an integer column.
  expected_revision: z.number().int().min(1).max(2_147_483_647).optional(),
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
