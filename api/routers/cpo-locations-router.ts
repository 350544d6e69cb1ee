// CPO locations in OCPI shape: create, read, soft delete (interface.md) and E21 PATCH.
import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError, badRequest, conflict, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { createLocationBody, locationPath, patchLocationBody } from '../schemas/cpo-locations.ts';
import type { ApiDeps } from '../http/deps.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/i;

/** The If-Match header as a last_updated instant (quotes and a weak-tag prefix tolerated). */
function ifMatchOf(ctx: Context): Date | undefined {
  const header = ctx.get('if-match');
  if (!header) return undefined;
  const value = header
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  const ms = TIMESTAMP.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms))
    throw badRequest(`If-Match must be the last_updated timestamp that was read, got '${header}'`);
  return new Date(ms);
}

export function cpoLocationsRouter({ cpo }: ApiDeps): Router {
  const router = new Router();

  router.post('/cpo/locations', async (ctx) => {
    const body = parseBody(ctx, createLocationBody);
    const location = await cpo.locations.create(orgOf(ctx), body);
    if (!location) throw conflict(`Location '${body.location_id}' already exists`);
    ctx.status = 201;
    ctx.body = location;
  });

  router.get('/cpo/locations/:location_id', async (ctx) => {
    const { location_id } = parsePath(ctx, locationPath);
    const location = await cpo.locations.get(orgOf(ctx), location_id);
    if (!location) throw notFound(`Location '${location_id}' not found`);
    ctx.body = location;
  });

  // E21
  router.patch('/cpo/locations/:location_id', async (ctx) => {
    const { location_id } = parsePath(ctx, locationPath);
    const ifMatch = ifMatchOf(ctx);
    const { expected_revision, ...changes } = parseBody(ctx, patchLocationBody);
    const outcome = await cpo.locations.patch(orgOf(ctx), location_id, changes, {
      ifMatch,
      expectedRevision: expected_revision,
    });
    if (outcome.ok) {
      ctx.body = outcome.location;
      return;
    }
    switch (outcome.reason) {
      case 'not_found':
        throw notFound(`Location '${location_id}' not found`);
      case 'read_only':
        throw conflict(`Location '${location_id}' was received from a roaming partner and is read-only`);
      case 'precondition_failed':
        throw new ApiError(
          412,
          `Location '${location_id}' changed since it was read (If-Match no longer matches)`,
        );
      case 'stale_revision':
        throw conflict(`Location '${location_id}' is no longer at revision ${expected_revision}`);
    }
  });

  router.delete('/cpo/locations/:location_id', async (ctx) => {
    const { location_id } = parsePath(ctx, locationPath);
    if (!(await cpo.locations.remove(orgOf(ctx), location_id)))
      throw notFound(`Location '${location_id}' not found`);
    ctx.status = 204;
  });

  return router;
}
