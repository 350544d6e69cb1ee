// Fleet chaos runs (docs/faults.md): blackout, partition, rolling restart or surge on a share of a
// location's running chargers (or the organization's whole fleet), seeded; read with the report of
// what the chargers saw; stopped. Another organization's run or location is a 404.
import Router from '@koa/router';
import { z } from 'zod';
import { ApiError, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { chaosRunPath, chaosRunView, startChaosBody } from '../schemas/chaos-runs.ts';
import { withSeed } from '../../engine/chaos/chaos-config.ts';

const tags = ['chaos'];
const missing = (id: string) => notFound(`Chaos run '${id}' not found`);

const DESCRIPTION =
  'profile `blackout` (the chosen chargers lose power: socket gone without a close frame; after duration_s ' +
  'they boot again, BootNotification, with their reconnect backoff), `partition` (their network is gone for ' +
  'duration_s: the connection carries nothing, connecting fails; then they reconnect and deliver what they ' +
  'held), `rolling_restart` (rebooted in waves over duration_s) or `surge` (an EV plugs in and a token is ' +
  'presented on connector 1 of each at once; the EVs leave after duration_s). `share` of the running chargers ' +
  'of `location_id` (or of the whole fleet), chosen by `seed` (drawn when left out): the same seed on the same ' +
  'fleet picks the same chargers and gives each the same faults at the same times. Beyond the contract: ' +
  '`spread_s` (each charger its own offset in [0, spread_s], from the seed) and `settle_s` (how long the run ' +
  'waits for the chargers to come back). See docs/faults.md.';

export function chaosRunsRouter({ chaos }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/chaos-runs',
    apiDoc({
      summary: 'Start a fleet chaos run: blackout, partition, rolling restart or surge; seeded',
      description: DESCRIPTION,
      tags,
      body: startChaosBody,
      responses: { 201: { description: 'The chaos run', schema: chaosRunView } },
      errors: {
        404: 'Location not found',
        409: 'No running charger to act on, or a chaos run is active on the same chargers',
        503: 'The message broker is not connected',
      },
    }),
    async (ctx) => {
      const config = withSeed(parseBody(ctx, startChaosBody));
      const out = await chaos.start(orgOf(ctx), config);
      const where = config.location_id ? `Location '${config.location_id}'` : 'The fleet';
      if (out.kind === 'not_found') throw notFound(`Location '${config.location_id}' not found`);
      if (out.kind === 'no_chargers')
        throw new ApiError(409, `${where} has no running charger; start them first`);
      if (out.kind === 'busy')
        throw new ApiError(
          409,
          `${where}: chaos run '${out.run_id}' is active on the same chargers; stop it first`,
        );
      ctx.status = 201;
      ctx.set('Location', `/chaos-runs/${out.view.run_id}`);
      ctx.body = out.view;
    },
  );

  router.get(
    '/chaos-runs',
    apiDoc({
      summary: "The organization's chaos runs, newest first (this process)",
      tags,
      responses: {
        200: { description: 'The chaos runs', schema: z.object({ items: z.array(chaosRunView) }) },
      },
    }),
    (ctx) => {
      ctx.body = { items: chaos.list(orgOf(ctx)) };
    },
  );

  router.get(
    '/chaos-runs/:run_id',
    apiDoc({
      summary:
        'A chaos run and what the chargers saw: back online and accepted, boot answers, late answers, CALLERRORs',
      tags,
      path: chaosRunPath,
      responses: { 200: { description: 'The chaos run', schema: chaosRunView } },
      errors: { 404: 'Chaos run not found' },
    }),
    (ctx) => {
      const { run_id } = parsePath(ctx, chaosRunPath);
      const run = chaos.get(orgOf(ctx), run_id);
      if (!run) throw missing(run_id);
      ctx.body = run;
    },
  );

  router.get(
    '/chaos-runs/:run_id/faults',
    apiDoc({
      summary: 'The faults a chaos run did, in order: charger, action, milliseconds after the start',
      tags,
      path: chaosRunPath,
      responses: {
        200: {
          description: 'The faults',
          schema: z.object({
            items: z.array(z.object({ at_ms: z.number(), identity: z.string(), action: z.string() })),
          }),
        },
      },
      errors: { 404: 'Chaos run not found' },
    }),
    (ctx) => {
      const { run_id } = parsePath(ctx, chaosRunPath);
      const items = chaos.injected(orgOf(ctx), run_id);
      if (!items) throw missing(run_id);
      ctx.body = { items };
    },
  );

  router.delete(
    '/chaos-runs/:run_id',
    apiDoc({
      summary: 'Stop a chaos run: power and network come back, EVs leave; the report stays',
      tags,
      path: chaosRunPath,
      responses: { 200: { description: 'The chaos run, stopped', schema: chaosRunView } },
      errors: { 404: 'Chaos run not found' },
    }),
    (ctx) => {
      const { run_id } = parsePath(ctx, chaosRunPath);
      const run = chaos.stop(orgOf(ctx), run_id);
      if (!run) throw missing(run_id);
      ctx.body = run;
    },
  );

  return router;
}
