// E5-E10 and GET /evcharger/deployments: virtual charger deployments, locations, runtime
// operations and the stage-event log. Reads come from the database, never from a live actor.
import Router from '@koa/router';
import { z } from 'zod';
import type { Context } from 'koa';
import { conflict, notFound, ValidationError } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parseQuery } from '../http/validation.ts';
import {
  createDeploymentBody,
  createLocationBody,
  deploymentIdQuery,
  deploymentsQuery,
  eventsQuery,
  locationIdQuery,
  locationsQuery,
  runtimeOpBody,
} from '../schemas/deployments.ts';
import type { Problem } from '../../engine/deployments/deployment-service.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import {
  deploymentCreated,
  deploymentList,
  locationAccepted,
  locationList,
  runtimeOpAccepted,
  runtimeOpResult,
  stageEvents,
} from '../schemas/evcharger-answers.ts';

/** E5: catalog problems are request errors like any other 422 entry. */
function invalid(problems: Problem[]): ValidationError {
  return new ValidationError(
    problems.map((p) => ({ loc: ['body', ...p.loc], msg: p.msg, type: 'value_error', input: p.input })),
  );
}

const chargers = (n: number) => `${n} charger${n === 1 ? '' : 's'}`;

function acceptedDetail(deploying: number, failed: number): string {
  const started = `Location accepted: ${chargers(deploying)} ${deploying === 1 ? 'is' : 'are'} being deployed in the background`;
  return failed === 0
    ? started
    : `${started}; ${chargers(failed)} cannot be deployed (see failed, and GET /evcharger/deployments?location_id=...)`;
}

const deploymentNotFound = (id: string) => notFound(`Deployment '${id}' not found`);
const locationNotFound = (id: string) => notFound(`Location '${id}' not found`);

export function deploymentsRouter({ deployments }: ApiDeps): Router {
  const router = new Router();
  const { service } = deployments;

  // E5
  router.post(
    '/evcharger/deployment',
    apiDoc({
      summary: 'Deploy one virtual charger',
      description:
        'The charger connects to `{ws_url}/{identity}`, or to the built-in central system without ws_url. `security` sets the OCPP security profile (0-3); secrets are sealed and never returned.',
      body: createDeploymentBody,
      examples: {
        builtIn: {
          body: {
            identity: 'CP-DOC-001',
            model: 'abb-terra-124',
            ocpp_version: 'ocpp1.6',
            charger_name: 'Bay 1',
          },
        },
        ocpp201: { body: { identity: 'CP-DOC-002', model: 'abb-terra-124', ocpp_version: 'ocpp2.0.1' } },
      },
      responses: {
        201: {
          description: 'Deployed; it connects in the background (see its stage events)',
          schema: deploymentCreated,
          example: {
            id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11',
            deployment_id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11',
            identity: 'CP-DOC-001',
            ocpp_version: 'ocpp1.6',
            provisioning_state: 'READY',
          },
        },
      },
      errors: { 409: 'A live deployment of this identity exists in the organization' },
    }),
    async (ctx) => {
      const body = parseBody(ctx, createDeploymentBody);
      const outcome = await service.create(orgOf(ctx), body);
      if (outcome.kind === 'invalid') throw invalid(outcome.problems);
      if (outcome.kind === 'conflict') throw conflict(outcome.detail);
      const { row } = outcome;
      ctx.status = 201;
      ctx.body = {
        id: row.id,
        deployment_id: row.id,
        identity: row.identity,
        ocpp_version: row.ocpp_version,
        provisioning_state: 'READY',
      };
    },
  );

  // E6
  router.delete(
    '/evcharger/deployment',
    apiDoc({
      summary: 'Delete one virtual charger deployment',
      query: deploymentIdQuery,
      examples: { one: { query: { deployment_id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11' } } },
      responses: { 204: { description: 'Deleted' } },
      errors: { 404: 'Deployment not found' },
    }),
    async (ctx) => {
      const { deployment_id } = parseQuery(ctx, deploymentIdQuery);
      if (!(await service.delete(orgOf(ctx), deployment_id))) throw deploymentNotFound(deployment_id);
      ctx.status = 204;
    },
  );

  // E7: 422 only for a body that does not match the schema; a charger that cannot be deployed is
  // reported in `failed` (and as a failed stage event) while the others deploy.
  router.post(
    '/evcharger/location',
    apiDoc({
      summary: 'Create a location and deploy its chargers in the background',
      description:
        'Chargers are listed one by one (`chargers`) or in groups (`charger_groups`: `count` chargers named `{identity_prefix}{number}`). A charger that cannot be deployed is reported in `failed` while the others deploy.',
      body: createLocationBody,
      examples: {
        twoChargers: {
          body: {
            name: 'Depot Amsterdam',
            address: 'Stationsplein 1',
            city: 'Amsterdam',
            country: 'NLD',
            coordinates: { lat: 52.3791, lng: 4.9003 },
            timezone: 'Europe/Amsterdam',
            chargers: [
              {
                identity: 'CP-DOC-LOC-1',
                brand_slug: 'abb',
                model: 'abb-terra-124',
                ocpp_version: 'ocpp1.6',
              },
              { identity: 'CP-DOC-LOC-2', model: 'abb-terra-124', ocpp_version: 'ocpp2.0.1' },
            ],
          },
        },
        group: {
          body: {
            name: 'Fleet depot',
            ocpp_version: 'ocpp2.0.1',
            charger_groups: [{ model: 'abb-terra-124', count: 3, identity_prefix: 'DOC-DEPOT-' }],
          },
        },
      },
      responses: {
        202: {
          description: 'Accepted: the chargers deploy in the background',
          schema: locationAccepted,
          example: {
            detail: 'Location accepted: 2 chargers are being deployed in the background',
            location_id: '7d0c2b1e-5a43-4d8f-9c1e-0f2a4b6c8d10',
            failed: [],
          },
        },
      },
    }),
    async (ctx) => {
      const body = parseBody(ctx, createLocationBody);
      const accepted = await service.acceptLocation(orgOf(ctx), {
        name: body.name,
        body,
        chargers: body.chargers ?? [],
        groups: body.charger_groups ?? [],
        ocppVersion: body.ocpp_version,
      });
      ctx.status = 202;
      ctx.body = {
        detail: acceptedDetail(accepted.deploying, accepted.failed.length),
        location_id: accepted.locationId,
        failed: accepted.failed,
      };
    },
  );

  // E8
  router.delete(
    '/evcharger/location',
    apiDoc({
      summary: 'Delete a virtual location and its chargers',
      query: locationIdQuery,
      examples: { one: { query: { location_id: '7d0c2b1e-5a43-4d8f-9c1e-0f2a4b6c8d10' } } },
      responses: { 204: { description: 'Deleted' } },
      errors: { 404: 'Location not found' },
    }),
    async (ctx) => {
      const { location_id } = parseQuery(ctx, locationIdQuery);
      if (!(await service.deleteLocation(orgOf(ctx), location_id))) throw locationNotFound(location_id);
      ctx.status = 204;
    },
  );

  // E9: 202 for both targets, as the spec documents; a deployment's operation is applied before answering.
  router.post(
    '/evcharger/deployment-runtime-ops',
    apiDoc({
      summary: 'Stop, start, restart or delete deployed chargers',
      description:
        'Exactly one target: a `deployment_id` is applied before answering (per-charger results); a `location_id` fans out in the background.',
      body: runtimeOpBody,
      examples: {
        restartOne: { body: { action: 'restart', deployment_id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11' } },
        stopLocation: { body: { action: 'stop', location_id: '7d0c2b1e-5a43-4d8f-9c1e-0f2a4b6c8d10' } },
      },
      responses: {
        202: {
          description: 'Applied to the deployment (results), or accepted for every charger of the location',
          schema: z.union([runtimeOpResult, runtimeOpAccepted]),
        },
      },
      errors: { 404: 'Deployment or location not found' },
    }),
    async (ctx: Context) => {
      const body = parseBody(ctx, runtimeOpBody);
      const org = orgOf(ctx);
      if ((body.deployment_id === undefined) === (body.location_id === undefined))
        throw new ValidationError([
          {
            loc: ['body'],
            msg: 'Give exactly one target: deployment_id or location_id',
            type: 'value_error',
            input: ctx.request.body,
          },
        ]);
      if (body.deployment_id !== undefined) {
        const result = await service.runtimeOp(org, body.action, body.deployment_id);
        if (!result) throw deploymentNotFound(body.deployment_id);
        ctx.status = 202;
        ctx.body = result;
        return;
      }
      const locationId = body.location_id!;
      if (!(await service.runtimeOpLocation(org, body.action, locationId)))
        throw locationNotFound(locationId);
      ctx.status = 202;
      ctx.body = {
        detail: `Runtime operation ${body.action} accepted for every charger of the location; it runs in the background`,
        location_id: locationId,
      };
    },
  );

  // E10
  router.get(
    '/evcharger/deployment-runtime-ops/events',
    apiDoc({
      summary: 'Recent deployment stage changes, newest first',
      query: eventsQuery,
      examples: { alerts: { query: { outcome: 'alerts', limit: 50 } } },
      responses: { 200: { description: 'At most `limit` events; no next page', schema: stageEvents } },
    }),
    async (ctx) => {
      const q = parseQuery(ctx, eventsQuery);
      ctx.body = { events: await deployments.events.recent(orgOf(ctx), q) };
    },
  );

  router.get(
    '/evcharger/locations',
    apiDoc({
      summary: 'Virtual locations of the organization by name, with their chargers counted, paged',
      description:
        '`name` keeps the locations whose name contains it (any case). `chargers` counts the deployed chargers, `running` those not stopped.',
      query: locationsQuery,
      examples: { firstPage: { query: { limit: 50, offset: 0 } }, byName: { query: { name: 'depot' } } },
      responses: { 200: { description: 'A page of locations', schema: locationList } },
    }),
    async (ctx) => {
      const q = parseQuery(ctx, locationsQuery);
      ctx.body = await deployments.store.locations(orgOf(ctx), q);
    },
  );

  router.get(
    '/evcharger/deployments',
    apiDoc({
      summary: 'Virtual charger deployments of the organization, paged',
      query: deploymentsQuery,
      examples: { firstPage: { query: { limit: 50, offset: 0 } } },
      responses: { 200: { description: 'A page of deployments', schema: deploymentList } },
      errors: { 404: 'Location not found' },
    }),
    async (ctx) => {
      const q = parseQuery(ctx, deploymentsQuery);
      const org = orgOf(ctx);
      if (q.location_id !== undefined && !(await deployments.store.locationExists(org, q.location_id)))
        throw locationNotFound(q.location_id);
      ctx.body = await deployments.store.list(org, {
        locationId: q.location_id,
        limit: q.limit,
        offset: q.offset,
      });
    },
  );

  return router;
}
