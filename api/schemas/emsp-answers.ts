// Shapes of the answers of the eMSP area, the roaming partners and E26, and of E27 (health), for
// the API description.
import { z } from 'zod';
import { TOKEN_TYPES, WHITELIST_TYPES } from '../../protocols/ocpi/token.ts';
import { TOKEN_STATUSES } from '../../engine/emsp/token-status.ts';
import { tariffBodySchema } from '../../protocols/ocpi/tariff.ts';

const dateTime = z.iso.datetime({ offset: true });
const nullable = <T extends z.ZodType>(s: T) => s.nullable();

export const token = z.object({
  id: z.number().int(),
  organization_id: z.string(),
  uid: z.string(),
  type: z.enum(TOKEN_TYPES),
  contract_id: z.string(),
  issuer: z.string(),
  country_code: z.string(),
  party_id: z.string(),
  whitelist: z.enum(WHITELIST_TYPES),
  ocpi_version: z.string(),
  status: z.enum(TOKEN_STATUSES),
  visual_number: nullable(z.string()),
  group_id: nullable(z.string()),
  language: nullable(z.string()),
  valid_from: nullable(dateTime),
  valid_until: nullable(dateTime),
  metadata: nullable(z.record(z.string(), z.unknown())),
  status_reason: nullable(z.string()),
  invalidated_at: nullable(dateTime),
  created_at: dateTime,
  last_updated: dateTime,
});

export const empIdentity = z.object({
  emp_identity_id: z.number().int(),
  country_code: z.string(),
  party_id: z.string(),
  protocol: z.string(),
  default_network_access: z.boolean(),
  status: z.string(),
  label: nullable(z.string()),
  contact_email: nullable(z.string()),
  contact_phone: nullable(z.string()),
  created_at: dateTime,
  updated_at: dateTime,
});

/** The stored tariff: the OCPI 2.2.1 Tariff with its id and last_updated. */
export const tariff = tariffBodySchema.extend({ id: z.string(), last_updated: dateTime });

export const roamingPartner = z.object({
  id: z.number().int(),
  organization_id: z.string(),
  name: z.string(),
  role: z.enum(['CPO', 'EMSP']),
  country_code: z.string(),
  party_id: z.string(),
  ocpi_version: z.string(),
  endpoints: z.record(z.string(), z.string()),
  created_at: dateTime,
  updated_at: dateTime,
});
export const roamingPartners = z.object({ items: z.array(roamingPartner) });

export const chargingProfileOutcome = z.object({
  partner_id: nullable(z.number().int()),
  operation: nullable(z.string()),
  session_id: nullable(z.string()),
  result: nullable(z.enum(['ACCEPTED', 'REJECTED', 'FAILED', 'TIMEOUT'])),
  response_result: nullable(z.string()),
  timeout: nullable(z.number().int()).meta({ description: 'The timeout of the call, in milliseconds' }),
  http_status: nullable(z.number().int()),
  ocpi_status_code: nullable(z.number().int()),
  duration_ms: nullable(z.number().int()),
  error: nullable(z.string()),
});

export const readiness = z.object({
  status: z.enum(['ok', 'not_ready']),
  database: z.enum(['ok', 'error']),
  mqtt: z.enum(['ok', 'error']),
});
