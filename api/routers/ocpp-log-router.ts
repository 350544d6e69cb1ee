// The OCPP message log of a virtual charger (seen from the charger) and of a charge point of the
// built-in central system (seen from the central system): pages read from PostgreSQL, so any node
// answers, and a live Server-Sent Events stream. Another organization's charger is a 404.
import Router from '@koa/router';
import type { z } from 'zod';
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
import { apiDoc } from '../openapi/route-doc.ts';
import { eventStream, ocppLogPage } from '../schemas/evcharger-answers.ts';

interface LogArea {
  path: string;
  /** The path parameter's schema and an example value, for the API description. */
  pathSchema: z.ZodObject;
  example: Record<string, string>;
  /** Whose log, and what `direction: out` means. */
  seenFrom: string;
  /** The charger named by the path, when the caller's organization has it. */
  owner(ctx: Context): Promise<LogOwner>;
}

function logRoutes(router: Router, { messageLog }: ApiDeps, area: LogArea): void {
  router.get(
    area.path,
    apiDoc({
      summary: `OCPP message log ${area.seenFrom}, newest first, paged`,
      description: '`direction` is seen from the owner of the log; `frame` is the exact OCPP-J array.',
      path: area.pathSchema,
      query: ocppLogQuery,
      examples: { recent: { path: area.example, query: { limit: 100 } } },
      responses: { 200: { description: 'A page of frames', schema: ocppLogPage } },
      errors: { 404: 'Not found for the organization' },
    }),
    async (ctx) => {
      const q = parseQuery(ctx, ocppLogQuery);
      const owner = await area.owner(ctx);
      const page = await messageLog.store.page(owner.key, q);
      // Items are JSON texts with each frame embedded as it crossed the wire.
      ctx.type = 'application/json';
      ctx.body = `{"items":[${page.items.join(',')}],"next_before":${page.nextBefore === null ? 'null' : `"${page.nextBefore}"`}}`;
    },
  );

  router.get(
    `${area.path}/stream`,
    apiDoc({
      summary: `Live OCPP message log ${area.seenFrom} (Server-Sent Events)`,
      description:
        'One `event: frame` per frame from the moment of connection, after up to `replay` recent items (oldest first). Unknown or another organization: 404 before streaming.',
      path: area.pathSchema,
      query: ocppLogStreamQuery,
      examples: { live: { path: area.example, query: { replay: 10 } } },
      responses: {
        200: { description: 'The event stream', contentType: 'text/event-stream', schema: eventStream },
      },
      errors: { 404: 'Not found for the organization' },
    }),
    async (ctx) => {
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
    },
  );
}

/** GET /evcharger/deployments/{deployment_id}/ocpp-log and .../stream. */
export function ocppLogRouter(deps: ApiDeps): Router {
  const router = new Router();
  logRoutes(router, deps, {
    path: '/evcharger/deployments/:deployment_id/ocpp-log',
    pathSchema: deploymentPath,
    example: { deployment_id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11' },
    seenFrom: 'of a virtual charger (out = sent by the charger)',
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
    pathSchema: chargePointPath,
    example: { charge_point_id: 'CP-DOC-001' },
    seenFrom: 'of a charge point, seen from the built-in central system (out = sent by the central system)',
    async owner(ctx) {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const owner = await deps.messageLog.store.chargePointOwner(orgOf(ctx), charge_point_id);
      if (!owner) throw notFound(`Charge point '${charge_point_id}' not found`);
      return owner;
    },
  });
  return router;
}
