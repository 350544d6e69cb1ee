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
import { apiDoc } from '../openapi/route-doc.ts';
import { groupLocations, tokenGroup, voucherGroup } from '../schemas/cpo-answers.ts';

export function cpoGroupsRouter({ cpo, platform }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/cpo/token-groups',
    apiDoc({
      summary: 'Create a token group linked to location records',
      body: createTokenGroupBody,
      examples: { one: { body: { name: 'Staff cards', location_ids: [1] } } },
      responses: {
        201: {
          description: 'The group',
          schema: tokenGroup,
          example: { id: 1, name: 'Staff cards', location_ids: [1] },
        },
      },
      errors: { 404: 'A location record of location_ids is not found' },
    }),
    async (ctx) => {
      const { name, location_ids } = parseBody(ctx, createTokenGroupBody);
      const outcome = await cpo.tokenGroups.create(orgOf(ctx), name, location_ids);
      if (outcome.kind === 'unknown_locations')
        throw notFound(`Location record(s) ${outcome.missing.join(', ')} not found`);
      ctx.status = 201;
      ctx.body = outcome.group;
    },
  );

  // E20
  router.get(
    '/cpo/token-groups/:id/locations',
    apiDoc({
      summary: 'The locations of a token group, paged (deleted ones carry deleted_at)',
      path: groupPath,
      query: groupLocationsQuery,
      examples: { first: { path: { id: 1 }, query: { offset: 0, limit: 50 } } },
      responses: { 200: { description: 'A page of location records', schema: groupLocations } },
      errors: { 404: 'Token group not found' },
    }),
    async (ctx) => {
      const { id } = parsePath(ctx, groupPath);
      const { offset, limit } = parseQuery(ctx, groupLocationsQuery);
      const page = await cpo.tokenGroups.locations(orgOf(ctx), id, offset, limit);
      if (!page) throw notFound(`Token group ${id} not found`);
      ctx.body = page;
    },
  );

  router.post(
    '/cpo/voucher-groups',
    apiDoc({
      summary: 'Create a voucher group with voucher_count vouchers',
      body: createVoucherGroupBody,
      examples: { one: { body: { name: 'Launch vouchers', voucher_count: 100 } } },
      responses: {
        201: {
          description: 'The group',
          schema: voucherGroup,
          example: { id: 1, name: 'Launch vouchers', voucher_count: 100 },
        },
      },
    }),
    async (ctx) => {
      const { name, voucher_count } = parseBody(ctx, createVoucherGroupBody);
      ctx.status = 201;
      ctx.body = await cpo.voucherGroups.create(orgOf(ctx), name, voucher_count);
    },
  );

  // E24
  router.delete(
    '/cpo/voucher-groups/:id',
    apiDoc({
      summary: 'Delete a voucher group and its vouchers',
      path: groupPath,
      examples: { one: { path: { id: 1 } } },
      responses: { 204: { description: 'Deleted' } },
      errors: {
        404: 'Voucher group not found',
        409: 'Too many vouchers to delete in one call (VOUCHER_DELETE_MAX)',
      },
    }),
    async (ctx) => {
      const { id } = parsePath(ctx, groupPath);
      const outcome = await cpo.voucherGroups.remove(orgOf(ctx), id);
      if (outcome === 'not_found') throw notFound(`Voucher group ${id} not found`);
      if (outcome === 'too_many')
        throw conflict(
          `Voucher group ${id} holds more than ${platform.config.voucherDeleteMax} vouchers: too many to delete in one call`,
        );
      ctx.status = 204;
    },
  );

  return router;
}
