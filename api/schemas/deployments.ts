// Request shapes of E5-E10 and GET /evcharger/deployments.
import { z } from 'zod';
import { dateTimeString, intString } from '../http/validation.ts';
import { RUNTIME_ACTIONS } from '../../engine/deployments/deployment-service.ts';
import { chargerSecurity } from './charger-security.ts';

/** E10's bound on `limit` (documented in the README). */
export const EVENTS_LIMIT_MAX = 500;
export const DEPLOYMENTS_LIMIT_MAX = 500;

/** Both spellings are accepted; the lower-case form is what the service answers and stores. */
export const ocppVersion = z
  .enum(['OCPP1.6', 'ocpp1.6', 'OCPP2.0.1', 'ocpp2.0.1'])
  .transform((v) => v.toLowerCase() as 'ocpp1.6' | 'ocpp2.0.1');

/** What a charger puts at the end of its connection URL. */
export const chargerIdentity = z
  .string()
  .min(1)
  .max(48)
  .regex(/^[A-Za-z0-9._:-]+$/, 'identity may hold letters, digits and . _ : -');

/** The central system's base URL; the charger connects to `{ws_url}/{identity}`. */
export const wsUrl = z
  .string()
  .max(2048)
  .superRefine((v, ctx) => {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'Input should be a valid URL',
        params: { type: 'url_parsing' },
      });
      return;
    }
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
      ctx.addIssue({
        code: 'custom',
        message: "URL scheme should be 'ws' or 'wss'",
        params: { type: 'url_scheme', ctx: { expected_schemes: "'ws' or 'wss'" } },
      });
  });

const modelSlug = z.string().min(1).max(128);

export const createDeploymentBody = z.strictObject({
  identity: chargerIdentity,
  model: modelSlug,
  ws_url: wsUrl.optional(),
  ocpp_version: ocppVersion.optional(),
  charger_name: z.string().max(255).optional(),
  security: chargerSecurity.optional(),
});

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const locationCharger = z.strictObject({
  identity: chargerIdentity,
  brand_slug: z.string().min(1).max(128).optional(),
  model: modelSlug,
  connector_type: z.string().max(64).optional(),
  ws_url: wsUrl.optional(),
  ocpp_version: ocppVersion.optional(),
  charger_name: z.string().max(255).optional(),
  security: chargerSecurity.optional(),
});

export const createLocationBody = z.strictObject({
  name: z.string().min(1).max(255),
  address: z.string().max(255).optional(),
  city: z.string().max(255).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{3}$/, 'country is a three-letter ISO 3166-1 alpha-3 code such as NLD')
    .optional(),
  coordinates: z
    .strictObject({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
    .optional(),
  timezone: z
    .string()
    .refine(isTimeZone, { message: 'timezone is an IANA time zone name such as Europe/Amsterdam' })
    .optional(),
  /** Default for chargers that do not name their own. */
  ocpp_version: ocppVersion.optional(),
  ocpi_version: z.enum(['2.1.1', '2.2.1', '2.3.0']).optional(),
  chargers: z.array(locationCharger).max(1000),
});

export const deploymentIdQuery = z.object({ deployment_id: z.string().min(1) });
export const locationIdQuery = z.object({ location_id: z.string().min(1) });

export const runtimeOpBody = z.strictObject({
  action: z.enum(RUNTIME_ACTIONS),
  deployment_id: z.string().min(1).optional(),
  location_id: z.string().min(1).optional(),
});

export const eventsQuery = z.object({
  since: dateTimeString().optional(),
  outcome: z.enum(['failed', 'stuck', 'recovered', 'alerts', 'all']).optional().default('all'),
  identity: z.string().min(1).max(48).optional(),
  limit: intString(z.number().min(1).max(EVENTS_LIMIT_MAX)).optional().default(50),
});

export const deploymentsQuery = z.object({
  location_id: z.string().min(1).optional(),
  limit: intString(z.number().min(1).max(DEPLOYMENTS_LIMIT_MAX)).optional().default(50),
  offset: intString(z.number().min(0)).optional().default(0),
});
