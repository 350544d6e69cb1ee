// Token groups (E20 lists their locations) and voucher groups (E24 deletes one with its vouchers).
import Router from '@koa/router';
import { conflict, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath, parseQuery } from '../http/validation.ts';
import {
  createTokenGroupBody,
  createVoucherGroupBody,
  groupLocationsQuery,
  groupPath,
} from '../schemas/cpo-groups.ts';
import type { ApiDeps } from '../http/deps.ts';

export function cpoGroupsRouter({ cpo, platform }: ApiDeps): Router {
  const router = new Router();

  router.post('/cpo/token-groups', async (ctx) => {
    const { name, location_ids } = parseBody(ctx, createTokenGroupBody);
    const outcome = await cpo.tokenGroups.create(orgOf(ctx), name, location_ids);
    if (outcome.kind === 'unknown_locations')
      throw notFound(`Location record(s) ${outcome.missing.join(', ')} not found`);
    ctx.status = 201;
    ctx.body = outcome.group;
  });

  // E20
  router.get('/cpo/token-groups/:id/locations', async (ctx) => {
    const { id } = parsePath(ctx, groupPath);
    const { offset, limit } = parseQuery(ctx, groupLocationsQuery);
    const page = await cpo.tokenGroups.locations(orgOf(ctx), id, offset, limit);
    if (!page) throw notFound(`Token group ${id} not found`);
    ctx.body = page;
  });

  router.post('/cpo/voucher-groups', async (ctx) => {
    const { name, voucher_count } = parseBody(ctx, createVoucherGroupBody);
    ctx.status = 201;
    ctx.body = await cpo.voucherGroups.create(orgOf(ctx), name, voucher_count);
  });

  // E24
  router.delete('/cpo/voucher-groups/:id', async (ctx) => {
    const { id } = parsePath(ctx, groupPath);
    const outcome = await cpo.voucherGroups.remove(orgOf(ctx), id);
    if (outcome === 'not_found') throw notFound(`Voucher group ${id} not found`);
    if (outcome === 'too_many')
      throw conflict(
        `Voucher group ${id} holds more than ${platform.config.voucherDeleteMax} vouchers: too many to delete in one call`,
      );
    ctx.status = 204;
  });

  return router;
}
