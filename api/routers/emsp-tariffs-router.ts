// E19 and the tariff store of interface.md: tariffs CPO partners published, in OCPI 2.2.1 shape.
import Router from '@koa/router';
import { ValidationError, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath, parseQuery } from '../http/validation.ts';
import { tariffPathSchema, tariffQuerySchema } from '../schemas/emsp-tariffs.ts';
import { tariffBodySchema } from '../../protocols/ocpi/tariff.ts';
import type { ApiDeps } from '../http/deps.ts';

export function emspTariffsRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.put('/emsp/tariffs/:tariff_id', async (ctx) => {
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
  });

  // E19
  router.get('/emsp/tariffs/:tariff_id', async (ctx) => {
    const { tariff_id } = parsePath(ctx, tariffPathSchema);
    const { country_code, party_id } = parseQuery(ctx, tariffQuerySchema);
    const tariff = await emsp.tariffs.get(orgOf(ctx), tariff_id, country_code, party_id);
    if (!tariff) throw notFound(`Tariff ${tariff_id} of ${country_code}/${party_id} not found`);
    ctx.body = tariff;
  });

  return router;
}
