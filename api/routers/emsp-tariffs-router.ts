// E19 and the tariff store of interface.md: tariffs CPO partners published, in OCPI 2.2.1 shape.
import Router from '@koa/router';
import { ValidationError, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath, parseQuery } from '../http/validation.ts';
import { tariffPathSchema, tariffQuerySchema } from '../schemas/emsp-tariffs.ts';
import { tariffBodySchema } from '../../protocols/ocpi/tariff.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { tariff } from '../schemas/emsp-answers.ts';

export function emspTariffsRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.put(
    '/emsp/tariffs/:tariff_id',
    apiDoc({
      summary: 'Store a tariff as a CPO partner published it (OCPI 2.2.1 Tariff)',
      path: tariffPathSchema,
      body: tariffBodySchema,
      examples: {
        energy: {
          path: { tariff_id: 'TARIFF-DOC-1' },
          body: {
            country_code: 'NL',
            party_id: 'CPO',
            currency: 'EUR',
            type: 'REGULAR',
            elements: [{ price_components: [{ type: 'ENERGY', price: '0.35', vat: '21.0', step_size: 1 }] }],
          },
        },
      },
      responses: { 200: { description: 'The stored tariff', schema: tariff } },
    }),
    async (ctx) => {
      const { tariff_id } = parsePath(ctx, tariffPathSchema);
      const body = parseBody(ctx, tariffBodySchema);
      if (body.id !== undefined && body.id !== tariff_id)
        throw new ValidationError([
          {
            loc: ['body', 'id'],
            msg: `id must equal the tariff_id of the path ('${tariff_id}')`,
            type: 'value_error',
            input: body.id,
          },
        ]);
      ctx.body = await emsp.tariffs.put(orgOf(ctx), tariff_id, body);
    },
  );

  // E19
  router.get(
    '/emsp/tariffs/:tariff_id',
    apiDoc({
      summary: 'One tariff of a CPO (OCPI 2.2.1 shape)',
      path: tariffPathSchema,
      query: tariffQuerySchema,
      examples: {
        one: { path: { tariff_id: 'TARIFF-DOC-1' }, query: { country_code: 'NL', party_id: 'CPO' } },
      },
      responses: { 200: { description: 'The tariff', schema: tariff } },
      errors: { 404: 'Tariff not found' },
    }),
    async (ctx) => {
      const { tariff_id } = parsePath(ctx, tariffPathSchema);
      const { country_code, party_id } = parseQuery(ctx, tariffQuerySchema);
      const tariff = await emsp.tariffs.get(orgOf(ctx), tariff_id, country_code, party_id);
      if (!tariff) throw notFound(`Tariff ${tariff_id} of ${country_code}/${party_id} not found`);
      ctx.body = tariff;
    },
  );

  return router;
}
