// The roaming-partner registry (interface.md): who the organization exchanges OCPI calls with.
// The credentials token is write-only: it is sent to the partner, never shown again. A partner
// needs only the endpoints of what it is used for: each call checks for its module (a token push
// skips a CPO without `tokens`; E26 to an eMSP without `chargingprofiles` is a 400 naming it).
import Router from '@koa/router';
import { z } from 'zod';
import { conflict, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { intString, parseBody, parsePath } from '../http/validation.ts';
import { countryCodeSchema, partyIdSchema } from '../../protocols/ocpi/token.ts';
import { OCPI_VERSIONS } from '../../protocols/ocpi/versions.ts';
import { publicPartner } from '../../engine/roaming/partner-store.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { roamingPartner, roamingPartners } from '../schemas/emsp-answers.ts';

const createPartnerSchema = z.strictObject({
  name: z.string().min(1).max(100),
  role: z.enum(['CPO', 'EMSP']),
  country_code: countryCodeSchema,
  party_id: partyIdSchema,
  ocpi_version: z.enum(OCPI_VERSIONS),
  token: z.string().min(1).max(255),
  /** {module: URL}, e.g. tokens (token pushes to a CPO), chargingprofiles (E26 to an eMSP). */
  endpoints: z
    .record(
      z
        .string()
        .max(64)
        .regex(/^[a-z_]+$/, 'module names are lower-case, e.g. tokens'),
      z.url({ protocol: /^https?$/ }).max(2048),
    )
    .refine((e) => Object.keys(e).length <= 30, 'endpoints holds at most 30 modules'),
});

const partnerPathSchema = z.object({ partner_id: intString(z.number().min(1).max(Number.MAX_SAFE_INTEGER)) });

export function roamingPartnersRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/roaming/partners',
    apiDoc({
      summary: 'Register a roaming partner (its credentials token is write-only)',
      body: createPartnerSchema,
      examples: {
        emsp: {
          body: {
            name: 'Example eMSP',
            role: 'EMSP',
            country_code: 'DE',
            party_id: 'EMP',
            ocpi_version: '2.2.1',
            token: 'c3VwZXItc2VjcmV0LXRva2Vu',
            endpoints: { chargingprofiles: 'https://emsp.example.com/ocpi/2.2.1/chargingprofiles' },
          },
        },
      },
      responses: { 201: { description: 'The partner, without its token', schema: roamingPartner } },
      errors: { 409: 'A partner of this role, country code and party id exists' },
    }),
    async (ctx) => {
      const body = parseBody(ctx, createPartnerSchema);
      const partner = await emsp.partners.create(orgOf(ctx), body);
      if (!partner)
        throw conflict(`A ${body.role} partner ${body.country_code}/${body.party_id} is already registered`);
      ctx.status = 201;
      ctx.body = publicPartner(partner);
    },
  );

  router.get(
    '/roaming/partners',
    apiDoc({
      summary: 'Roaming partners of the organization',
      responses: { 200: { description: 'The partners, without their tokens', schema: roamingPartners } },
    }),
    async (ctx) => {
      ctx.body = { items: (await emsp.partners.list(orgOf(ctx))).map(publicPartner) };
    },
  );

  router.get(
    '/roaming/partners/:partner_id',
    apiDoc({
      summary: 'One roaming partner',
      path: partnerPathSchema,
      examples: { one: { path: { partner_id: 1 } } },
      responses: { 200: { description: 'The partner', schema: roamingPartner } },
      errors: { 404: 'Roaming partner not found' },
    }),
    async (ctx) => {
      const { partner_id } = parsePath(ctx, partnerPathSchema);
      const partner = await emsp.partners.get(orgOf(ctx), partner_id);
      if (!partner) throw notFound(`Roaming partner ${partner_id} not found`);
      ctx.body = publicPartner(partner);
    },
  );

  router.delete(
    '/roaming/partners/:partner_id',
    apiDoc({
      summary: 'Delete a roaming partner',
      path: partnerPathSchema,
      examples: { one: { path: { partner_id: 1 } } },
      responses: { 204: { description: 'Deleted' } },
      errors: { 404: 'Roaming partner not found' },
    }),
    async (ctx) => {
      const { partner_id } = parsePath(ctx, partnerPathSchema);
      if (!(await emsp.partners.delete(orgOf(ctx), partner_id)))
        throw notFound(`Roaming partner ${partner_id} not found`);
      ctx.status = 204;
    },
  );

  return router;
}
