// Request shapes of E5-E10 and GET /evcharger/deployments.
import { z } from 'zod';
import { dateTimeString, intString } from '../http/validation.ts';
import { RUNTIME_ACTIONS } from '../../engine/deployments/deployment-service.ts';
import { chargerSecurity } from './charger-security.ts';
import { OFFSET_MAX } from './cpo-groups.ts';
import { securityProblems } from '../../engine/deployments/charger-security.ts';
import { OCPP_VERSIONS, type OcppVersion } from '../../protocols/ocpp/versions.ts';

/** E10's bound on `limit` (documented in the README). */
export const EVENTS_LIMIT_MAX = 500;
export const DEPLOYMENTS_LIMIT_MAX = 500;

/**
 * Every version the chargers speak (protocols/ocpp/versions.ts), in both spellings; the lower-case
 * form is what the service answers and stores. Whether the model speaks it is the catalog's check.
 */
export const OCPP_VERSION_SPELLINGS = OCPP_VERSIONS.flatMap((v) => [v.toUpperCase(), v]) as [
  string,
  ...string[],
];
export const ocppVersion = z.enum(OCPP_VERSION_SPELLINGS).transform((v) => v.toLowerCase() as OcppVersion);

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

/**
 * The security profile against the URL (2 and 3 need wss://, 0 and 1 ws://, none without ws_url):
 * a rule of the body, so E5 and E7 answer it with a 422 naming the field.
 */
function securityMatchesUrl(
  c: { ws_url?: string; security?: Parameters<typeof securityProblems>[0]['security'] },
  ctx: z.core.$RefinementCtx<unknown>,
): void {
  for (const p of securityProblems(c, []))
    ctx.addIssue({
      code: 'custom',
      path: p.loc,
      message: p.msg,
      input: p.input,
      params: { type: 'value_error' },
    });
}

export const createDeploymentBody = z
  .strictObject({
    identity: chargerIdentity,
    model: modelSlug,
    ws_url: wsUrl.optional(),
    ocpp_version: ocppVersion.optional(),
    charger_name: z.string().max(255).optional(),
    security: chargerSecurity.optional(),
  })
  .superRefine(securityMatchesUrl);

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** One charger of E7, named one by one (the spec's form). */
const locationChargerFields = z.strictObject({
  identity: chargerIdentity,
  brand_slug: z.string().min(1).max(128).optional(),
  model: modelSlug,
  connector_type: z.string().max(64).optional(),
  ws_url: wsUrl.optional(),
  ocpp_version: ocppVersion.optional(),
  charger_name: z.string().max(255).optional(),
  security: chargerSecurity.optional(),
});

/** Chargers in one location: the spec's list and the groups together. */
export const LOCATION_CHARGERS_MAX = 1000;
/** A group's identities are its prefix and a number of at least three digits, e.g. DEPOT-001. */
export const IDENTITY_PREFIX_MAX = 40;

const locationCharger = locationChargerFields.superRefine(securityMatchesUrl);

/**
 * `count` chargers alike, named `{identity_prefix}{number}`: the numbers continue after the highest
 * one the organization already uses with that prefix, so a body with groups (a template) can be
 * posted again and adds chargers instead of colliding with the first ones.
 */
const chargerGroup = locationChargerFields
  .omit({ identity: true, charger_name: true })
  .extend({
    count: z.number().int().min(1).max(LOCATION_CHARGERS_MAX),
    identity_prefix: z
      .string()
      .min(1)
      .max(IDENTITY_PREFIX_MAX)
      .regex(/^[A-Za-z0-9._:-]+$/, 'identity_prefix may hold letters, digits and . _ : -'),
  })
  .superRefine(securityMatchesUrl);

export type LocationChargerInput = z.infer<typeof locationCharger>;
export type ChargerGroupInput = z.infer<typeof chargerGroup>;

export const createLocationBody = z
  .strictObject({
    name: z.string().min(1).max(255),
    address: z.string().max(255).optional(),
    city: z.string().max(255).optional(),
    country: z
      .string()
      .max(3)
      .regex(/^[A-Z]{3}$/, 'country is a three-letter ISO 3166-1 alpha-3 code such as NLD')
      .optional(),
    coordinates: z
      .strictObject({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
      .optional(),
    timezone: z
      .string()
      .max(64)
      .refine(isTimeZone, { message: 'timezone is an IANA time zone name such as Europe/Amsterdam' })
      .optional(),
    /** Default for chargers that do not name their own. */
    ocpp_version: ocppVersion.optional(),
    ocpi_version: z.enum(['2.1.1', '2.2.1', '2.3.0']).optional(),
    chargers: z.array(locationCharger).max(LOCATION_CHARGERS_MAX).optional(),
    charger_groups: z.array(chargerGroup).max(100).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.chargers === undefined && body.charger_groups === undefined)
      ctx.addIssue({ code: 'invalid_type', expected: 'array', path: ['chargers'], input: undefined });
    const total = (body.chargers?.length ?? 0) + (body.charger_groups ?? []).reduce((n, g) => n + g.count, 0);
    if (total > LOCATION_CHARGERS_MAX)
      ctx.addIssue({
        code: 'custom',
        path: ['charger_groups'],
        message: `A location holds at most ${LOCATION_CHARGERS_MAX} chargers; this one asks for ${total}`,
        params: { type: 'too_long', ctx: { max_length: LOCATION_CHARGERS_MAX } },
      });
    const seen = new Set<string>();
    body.chargers?.forEach((c, i) => {
      if (seen.has(c.identity))
        ctx.addIssue({
          code: 'custom',
          path: ['chargers', i, 'identity'],
          message: `identity '${c.identity}' appears more than once in this location`,
          input: c.identity,
        });
      seen.add(c.identity);
    });
  });

export type CreateLocationInput = z.infer<typeof createLocationBody>;

/** Deployment and location ids are uuids; the bound leaves room for any id a client may hold. */
const objectId = z.string().min(1).max(64);

export const deploymentIdQuery = z.object({ deployment_id: objectId });
export const locationIdQuery = z.object({ location_id: objectId });

export const runtimeOpBody = z.strictObject({
  action: z.enum(RUNTIME_ACTIONS),
  deployment_id: objectId.optional(),
  location_id: objectId.optional(),
});

export const eventsQuery = z.object({
  since: dateTimeString().optional(),
  outcome: z.enum(['failed', 'stuck', 'recovered', 'alerts', 'all']).optional().default('all'),
  identity: z.string().min(1).max(48).optional(),
  limit: intString(z.number().min(1).max(EVENTS_LIMIT_MAX)).optional().default(50),
});

export const deploymentsQuery = z.object({
  location_id: objectId.optional(),
  limit: intString(z.number().min(1).max(DEPLOYMENTS_LIMIT_MAX)).optional().default(50),
  offset: intString(z.number().min(0).max(OFFSET_MAX)).optional().default(0),
});

/** GET /evcharger/locations: the organization's locations by name, optionally those whose name contains `name`. */
export const locationsQuery = z.object({
  name: z.string().min(1).max(200).optional(),
  limit: intString(z.number().min(1).max(DEPLOYMENTS_LIMIT_MAX)).optional().default(50),
  offset: intString(z.number().min(0).max(OFFSET_MAX)).optional().default(0),
});
