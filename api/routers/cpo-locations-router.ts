// CPO locations in OCPI shape: create, read, soft delete (interface.md) and E21 PATCH.
import Router from '@koa/router';
import { z } from 'zod';
import type { Context } from 'koa';
import { ApiError, badRequest, conflict, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { createLocationBody, locationPath, patchLocationBody } from '../schemas/cpo-locations.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { locationRecord } from '../schemas/cpo-answers.ts';

/** Documents the optional If-Match header; read by ifMatchOf (a bad value is a 400, as E21 says). */
const ifMatchHeader = z.object({
  'If-Match': z
    .string()
    .max(64)
    .optional()
    .meta({ description: 'The last_updated value that was read; 412 if the location changed since' }),
});

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

  router.post(
    '/cpo/locations',
    apiDoc({
      summary: 'Create a CPO location (OCPI 2.2.1 shape)',
      body: createLocationBody,
      examples: {
        station: {
          body: {
            location_id: 'LOC-DOC-1',
            country_code: 'NL',
            party_id: 'EVS',
            name: 'Central Station',
            address: 'Stationsplein 1',
            city: 'Amsterdam',
            postal_code: '1012 AB',
            country: 'NLD',
            coordinates: { latitude: '52.37903', longitude: '4.90030' },
            time_zone: 'Europe/Amsterdam',
            parking_type: 'PARKING_LOT',
            facilities: ['CAFE', 'TRAIN_STATION'],
            opening_times: { twentyfourseven: true },
          },
        },
      },
      responses: { 201: { description: 'The location record, revision 1', schema: locationRecord } },
      errors: { 409: 'location_id already taken in the organization' },
    }),
    async (ctx) => {
      const body = parseBody(ctx, createLocationBody);
      const location = await cpo.locations.create(orgOf(ctx), body);
      if (!location) throw conflict(`Location '${body.location_id}' already exists`);
      ctx.status = 201;
      ctx.body = location;
    },
  );

  router.get(
    '/cpo/locations/:location_id',
    apiDoc({
      summary: 'One CPO location',
      path: locationPath,
      examples: { one: { path: { location_id: 'LOC-DOC-1' } } },
      responses: { 200: { description: 'The location record', schema: locationRecord } },
      errors: { 404: 'Location not found' },
    }),
    async (ctx) => {
      const { location_id } = parsePath(ctx, locationPath);
      const location = await cpo.locations.get(orgOf(ctx), location_id);
      if (!location) throw notFound(`Location '${location_id}' not found`);
      ctx.body = location;
    },
  );

  // E21
  router.patch(
    '/cpo/locations/:location_id',
    apiDoc({
      summary: 'Change some fields of a location (null clears an optional field)',
      path: locationPath,
      headers: ifMatchHeader,
      body: patchLocationBody,
      examples: {
        rename: {
          path: { location_id: 'LOC-DOC-1' },
          body: { name: 'Central Station P+R', expected_revision: 1, help_phone: '+31 20 123 4567' },
        },
      },
      responses: { 200: { description: 'The location after the change', schema: locationRecord } },
      errors: {
        400: 'If-Match is not a last_updated timestamp',
        404: 'Location not found',
        409: 'Read-only location (received from a roaming partner), or expected_revision is stale',
        412: 'If-Match no longer matches: the location changed since it was read',
      },
    }),
    async (ctx) => {
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
    },
  );

  router.delete(
    '/cpo/locations/:location_id',
    apiDoc({
      summary: 'Delete a CPO location (soft: it keeps deleted_at and stays in its token groups)',
      path: locationPath,
      examples: { one: { path: { location_id: 'LOC-DOC-1' } } },
      responses: { 204: { description: 'Deleted' } },
      errors: { 404: 'Location not found' },
    }),
    async (ctx) => {
      const { location_id } = parsePath(ctx, locationPath);
      if (!(await cpo.locations.remove(orgOf(ctx), location_id)))
        throw notFound(`Location '${location_id}' not found`);
      ctx.status = 204;
    },
  );

  return router;
}
