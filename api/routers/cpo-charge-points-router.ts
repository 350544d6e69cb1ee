// E22 charge points, their credentials for the built-in central system, E23 reboot, and what the
// central system recorded (connectors, sessions, operations).
import Router from '@koa/router';
import { brokerUnavailable, conflict, notFound, upstreamFailed } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { chargePointPath, createChargePointBody, operationPath } from '../schemas/cpo-charge-points.ts';
import type { ApiDeps } from '../http/deps.ts';

export function cpoChargePointsRouter({ cpo, platform }: ApiDeps): Router {
  const router = new Router();
  const notRegistered = (id: string) => notFound(`Charge point '${id}' not found`);

  // E22
  router.post('/cpo/charge-points', async (ctx) => {
    const body = parseBody(ctx, createChargePointBody);
    const outcome = await cpo.registry.register(orgOf(ctx), body);
    if (outcome.kind === 'location_not_found') throw notFound(`Location ${body.location_id} not found`);
    if (outcome.kind === 'identity_taken')
      throw conflict(`Charge point identity '${body.charge_point_id}' is already registered`);
    ctx.status = 201;
    ctx.body = outcome.chargePoint;
  });

  router.get('/cpo/charge-points/:charge_point_id', async (ctx) => {
    const { charge_point_id } = parsePath(ctx, chargePointPath);
    const found = await cpo.chargePoints.get(orgOf(ctx), charge_point_id);
    if (!found) throw notRegistered(charge_point_id);
    ctx.body = found;
  });

  router.post('/cpo/charge-points/:charge_point_id/credentials', async (ctx) => {
    const { charge_point_id } = parsePath(ctx, chargePointPath);
    const credentials = await cpo.chargePoints.issueCredentials(orgOf(ctx), charge_point_id);
    if (!credentials) throw notRegistered(charge_point_id);
    ctx.status = 201;
    ctx.body = credentials;
  });

  // E23
  router.post('/cpo/charge-points/:charge_point_id/reboot', async (ctx) => {
    const { charge_point_id } = parsePath(ctx, chargePointPath);
    const outcome = await cpo.chargePointOperations.reboot(orgOf(ctx), charge_point_id);
    const timeoutMs = platform.config.centralSystem.callTimeoutMs;
    switch (outcome.kind) {
      case 'sent':
        ctx.body = outcome.operation;
        return;
      case 'not_found':
        throw notRegistered(charge_point_id);
      case 'offline':
        throw conflict(`Charge point '${charge_point_id}' is not connected to the central system`);
      case 'broker_unavailable':
        throw brokerUnavailable('the central system cannot be reached');
      case 'call_error':
        throw upstreamFailed(502, `Charge point answered Reset with ${outcome.code}: ${outcome.description}`);
      case 'closed':
        throw upstreamFailed(502, `Charge point '${charge_point_id}' disconnected before answering Reset`);
      case 'timeout':
        throw upstreamFailed(
          504,
          `Charge point '${charge_point_id}' did not answer Reset within ${timeoutMs} ms`,
        );
    }
  });

  router.get('/cpo/charge-points/:charge_point_id/connectors', async (ctx) => {
    const { charge_point_id } = parsePath(ctx, chargePointPath);
    const items = await cpo.chargePoints.connectors(orgOf(ctx), charge_point_id);
    if (!items) throw notRegistered(charge_point_id);
    ctx.body = { items };
  });

  router.get('/cpo/charge-points/:charge_point_id/sessions', async (ctx) => {
    const { charge_point_id } = parsePath(ctx, chargePointPath);
    const items = await cpo.chargePoints.sessions(orgOf(ctx), charge_point_id);
    if (!items) throw notRegistered(charge_point_id);
    ctx.body = { items };
  });

  router.get('/cpo/operations/:tracking_id', async (ctx) => {
    const { tracking_id } = parsePath(ctx, operationPath);
    const operation = await cpo.operations.get(orgOf(ctx), tracking_id);
    if (!operation) throw notFound(`Operation ${tracking_id} not found`);
    ctx.body = operation;
  });

  return router;
}
