// E5-E10 and GET /evcharger/deployments: virtual charger deployments, locations, runtime
// operations and the stage-event log. Reads come from the database, never from a live actor.
import Router from '@koa/router';
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
  runtimeOpBody,
} from '../schemas/deployments.ts';
import type { Problem } from '../../engine/deployments/deployment-service.ts';
import type { ApiDeps } from '../http/deps.ts';

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
  router.post('/evcharger/deployment', async (ctx) => {
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
  });

  // E6
  router.delete('/evcharger/deployment', async (ctx) => {
    const { deployment_id } = parseQuery(ctx, deploymentIdQuery);
    if (!(await service.delete(orgOf(ctx), deployment_id))) throw deploymentNotFound(deployment_id);
    ctx.status = 204;
  });

  // E7: 422 only for a body that does not match the schema; a charger that cannot be deployed is
  // reported in `failed` (and as a failed stage event) while the others deploy.
  router.post('/evcharger/location', async (ctx) => {
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
  });

  // E8
  router.delete('/evcharger/location', async (ctx) => {
    const { location_id } = parseQuery(ctx, locationIdQuery);
    if (!(await service.deleteLocation(orgOf(ctx), location_id))) throw locationNotFound(location_id);
    ctx.status = 204;
  });

  // E9: 202 for both targets, as the spec documents; a deployment's operation is applied before answering.
  router.post('/evcharger/deployment-runtime-ops', async (ctx: Context) => {
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
    if (!(await service.runtimeOpLocation(org, body.action, locationId))) throw locationNotFound(locationId);
    ctx.status = 202;
    ctx.body = {
      detail: `Runtime operation ${body.action} accepted for every charger of the location; it runs in the background`,
      location_id: locationId,
    };
  });

  // E10
  router.get('/evcharger/deployment-runtime-ops/events', async (ctx) => {
    const q = parseQuery(ctx, eventsQuery);
    ctx.body = { events: await deployments.events.recent(orgOf(ctx), q) };
  });

  router.get('/evcharger/deployments', async (ctx) => {
    const q = parseQuery(ctx, deploymentsQuery);
    const org = orgOf(ctx);
    if (q.location_id !== undefined && !(await deployments.store.locationExists(org, q.location_id)))
      throw locationNotFound(q.location_id);
    ctx.body = await deployments.store.list(org, {
      locationId: q.location_id,
      limit: q.limit,
      offset: q.offset,
    });
  });

  return router;
}
