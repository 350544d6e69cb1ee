// The OCPP message log of a virtual charger (seen from the charger) and of a charge point of the
// built-in central system (seen from the central system): pages read from PostgreSQL, so any node
// answers, and a live Server-Sent Events stream. Another organization's charger is a 404.
import Router from '@koa/router';
import type { Context } from 'koa';
import { notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { openSse } from '../http/sse.ts';
import { parsePath, parseQuery } from '../http/validation.ts';
import { chargePointPath } from '../schemas/cpo-charge-points.ts';
import { deploymentPath } from '../schemas/deployment-detail.ts';
import { ocppLogQuery, ocppLogStreamQuery } from '../schemas/ocpp-log.ts';
import type { LogOwner } from '../../engine/message-log/ocpp-log-store.ts';
import type { LogStream } from '../../engine/message-log/log-stream.ts';
import type { ApiDeps } from '../http/deps.ts';

interface LogArea {
  path: string;
  /** The charger named by the path, when the caller's organization has it. */
  owner(ctx: Context): Promise<LogOwner>;
}

function logRoutes(router: Router, { messageLog }: ApiDeps, area: LogArea): void {
  router.get(area.path, async (ctx) => {
    const q = parseQuery(ctx, ocppLogQuery);
    const owner = await area.owner(ctx);
    const page = await messageLog.store.page(owner.key, q);
    // Items are JSON texts with each frame embedded as it crossed the wire.
    ctx.type = 'application/json';
    ctx.body = `{"items":[${page.items.join(',')}],"next_before":${page.nextBefore === null ? 'null' : `"${page.nextBefore}"`}}`;
  });

  router.get(`${area.path}/stream`, async (ctx) => {
    const q = parseQuery(ctx, ocppLogStreamQuery);
    const owner = await area.owner(ctx);
    const sse = openSse(ctx);
    let stream: LogStream | undefined;
    sse.onClose(() => stream?.close());
    try {
      stream = await messageLog.stream(owner, q.replay, {
        send: (id, json) => sse.send('frame', json, String(id)),
        end: () => sse.close(),
      });
    } catch (err) {
      ctx.state.log?.warn({ err, requestId: ctx.state.requestId }, 'ocpp log stream failed to start');
      sse.close();
      return;
    }
    if (sse.closed) stream.close();
  });
}

/** GET /evcharger/deployments/{deployment_id}/ocpp-log and .../stream. */
export function ocppLogRouter(deps: ApiDeps): Router {
  const router = new Router();
  logRoutes(router, deps, {
    path: '/evcharger/deployments/:deployment_id/ocpp-log',
    async owner(ctx) {
      const { deployment_id } = parsePath(ctx, deploymentPath);
      const owner = await deps.messageLog.store.deploymentOwner(orgOf(ctx), deployment_id);
      if (!owner) throw notFound(`Deployment '${deployment_id}' not found`);
      return owner;
    },
  });
  return router;
}

/** GET /cpo/charge-points/{charge_point_id}/ocpp-log and .../stream (the /cpo area's rate limit). */
export function cpoOcppLogRouter(deps: ApiDeps): Router {
  const router = new Router();
  logRoutes(router, deps, {
    path: '/cpo/charge-points/:charge_point_id/ocpp-log',
    async owner(ctx) {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const owner = await deps.messageLog.store.chargePointOwner(orgOf(ctx), charge_point_id);
      if (!owner) throw notFound(`Charge point '${charge_point_id}' not found`);
      return owner;
    },
  });
  return router;
}
