// Generated traffic on a location: start (201), read (status and counts), its sessions, change
// (speed, profile, distributions, rates; not the seed), stop. Another organization's run or
// location is a 404.
import Router from '@koa/router';
import { ApiError, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { changeTrafficBody, startTrafficBody, trafficPath } from '../schemas/traffic-runs.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { z } from 'zod';

const tags = ['traffic'];
/** A traffic run as the engine reports it: its configuration, status and counts. */
const trafficView = z.looseObject({ traffic_id: z.string() });

const missing = (id: string) => notFound(`Traffic run '${id}' not found`);

export function trafficRunsRouter({ traffic }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/traffic-runs',
    apiDoc({
      summary:
        'Start generated traffic on a location: EV arrivals, dwell, energy, tokens, faults, drops; seeded',
      tags,
      body: startTrafficBody,
      responses: { 201: { description: 'The traffic run', schema: trafficView } },
      errors: {
        404: 'Location not found',
        409: 'The location has no chargers, or none of them is running (all stopped)',
      },
    }),
    async (ctx) => {
      const { location_id, ...config } = parseBody(ctx, startTrafficBody);
      const out = await traffic.start(orgOf(ctx), location_id, config);
      if (out.kind === 'not_found') throw notFound(`Location '${location_id}' not found`);
      if (out.kind === 'empty') throw new ApiError(409, `Location '${location_id}' has no chargers`);
      if (out.kind === 'stopped')
        throw new ApiError(
          409,
          `Location '${location_id}': none of its ${out.chargers} chargers is running; start them first (POST /evcharger/deployment-runtime-ops with action start)`,
        );
      ctx.status = 201;
      ctx.set('Location', `/traffic-runs/${out.view.traffic_id}`);
      ctx.body = out.view;
    },
  );

  router.get(
    '/traffic-runs',
    apiDoc({
      summary: "The organization's traffic runs, newest first (running and stopped, this process)",
      tags,
      responses: {
        200: { description: 'The traffic runs', schema: z.object({ items: z.array(trafficView) }) },
      },
    }),
    (ctx) => {
      ctx.body = { items: traffic.list(orgOf(ctx)) };
    },
  );

  router.get(
    '/traffic-runs/:traffic_id',
    apiDoc({
      summary: 'A traffic run: status and counts',
      tags,
      path: trafficPath,
      responses: { 200: { description: 'The traffic run', schema: trafficView } },
      errors: { 404: 'Traffic run not found' },
    }),
    (ctx) => {
      const { traffic_id } = parsePath(ctx, trafficPath);
      const run = traffic.get(orgOf(ctx), traffic_id);
      if (!run) throw missing(traffic_id);
      ctx.body = run;
    },
  );

  router.get(
    '/traffic-runs/:traffic_id/sessions',
    apiDoc({
      summary: 'The sessions a traffic run generated',
      tags,
      path: trafficPath,
      responses: {
        200: { description: 'The sessions', schema: z.object({ items: z.array(z.looseObject({})) }) },
      },
      errors: { 404: 'Traffic run not found' },
    }),
    (ctx) => {
      const { traffic_id } = parsePath(ctx, trafficPath);
      const sessions = traffic.sessions(orgOf(ctx), traffic_id);
      if (!sessions) throw missing(traffic_id);
      ctx.body = { items: sessions };
    },
  );

  router.patch(
    '/traffic-runs/:traffic_id',
    apiDoc({
      summary: 'Change a traffic run (any field but the seed)',
      tags,
      path: trafficPath,
      body: changeTrafficBody,
      responses: { 200: { description: 'The traffic run', schema: trafficView } },
      errors: { 404: 'Traffic run not found' },
    }),
    (ctx) => {
      const { traffic_id } = parsePath(ctx, trafficPath);
      const change = parseBody(ctx, changeTrafficBody);
      const run = traffic.change(orgOf(ctx), traffic_id, change);
      if (!run) throw missing(traffic_id);
      ctx.body = run;
    },
  );

  router.delete(
    '/traffic-runs/:traffic_id',
    apiDoc({
      summary: 'Stop a traffic run (EVs still plugged in leave)',
      tags,
      path: trafficPath,
      responses: { 200: { description: 'The traffic run, stopped', schema: trafficView } },
      errors: { 404: 'Traffic run not found' },
    }),
    async (ctx) => {
      const { traffic_id } = parsePath(ctx, trafficPath);
      const run = await traffic.stop(orgOf(ctx), traffic_id);
      if (!run) throw missing(traffic_id);
      ctx.body = run;
    },
  );

  return router;
}
