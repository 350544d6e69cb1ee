// The console's reads: the fleet's counts by stage, a searchable page of deployments, one live
// stream of stage changes for the whole organization, and a charger's state machine with its
// current state. Another organization's deployment is a 404.
import Router from '@koa/router';
import { notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { openSse } from '../http/sse.ts';
import { parsePath, parseQuery } from '../http/validation.ts';
import { csmsLatencyQuery, fleetQuery } from '../schemas/fleet.ts';
import { deploymentPath } from '../schemas/deployment-detail.ts';
import { FleetStore, storedStateValue } from '../../engine/fleet/fleet-store.ts';
import { StageFeed } from '../../engine/fleet/stage-feed.ts';
import { activeStateIds, chargerDiagram } from '../../engine/fleet/machine-diagram.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { csmsLatency, fleetPage, fleetSummary, machineView } from '../schemas/fleet.ts';
import { eventStream } from '../schemas/evcharger-answers.ts';

export function fleetRouter({ platform, metrics, deployments }: ApiDeps): Router {
  const router = new Router();
  const fleet = new FleetStore(platform.db);
  const feed = new StageFeed(platform.db);

  router.get(
    '/evcharger/fleet/summary',
    apiDoc({
      summary: "The organization's deployments counted by stage and by outcome (the console's fleet)",
      examples: { counts: {} },
      responses: { 200: { description: 'The counts', schema: fleetSummary } },
    }),
    async (ctx) => {
      ctx.body = await fleet.summary(orgOf(ctx));
    },
  );

  router.get(
    '/evcharger/fleet/deployments',
    apiDoc({
      summary: 'A page of deployments, ordered by identity, searched by identity or model',
      query: fleetQuery,
      examples: {
        online: { query: { stage: 'online', limit: 50, offset: 0 } },
        search: { query: { q: 'CP-' } },
      },
      responses: { 200: { description: 'The page', schema: fleetPage } },
    }),
    async (ctx) => {
      const q = parseQuery(ctx, fleetQuery);
      ctx.body = await fleet.page(orgOf(ctx), q);
    },
  );

  router.get(
    '/evcharger/fleet/csms-latency',
    apiDoc({
      summary:
        "How fast the central system under test answers the organization's chargers, per OCPP version and action",
      description:
        "Summed over the engine nodes sharing the database (the other nodes' figures are at most a few seconds old). " +
        '`window` is the last minute (in 10 s steps), the last 15 minutes (in 1 min steps) or since the nodes started. ' +
        'Percentiles come from the histogram of /metrics (buckets 19 % apart), clamped to the smallest and largest answer.',
      query: csmsLatencyQuery,
      examples: { fleet: { query: { window: '15m' } }, since_start: { query: { window: 'all' } } },
      responses: { 200: { description: 'Answer times per version and action', schema: csmsLatency } },
      errors: { 404: 'Location not found' },
    }),
    async (ctx) => {
      const { location_id, window } = parseQuery(ctx, csmsLatencyQuery);
      const org = orgOf(ctx);
      if (location_id !== undefined && !(await deployments.store.locationExists(org, location_id)))
        throw notFound(`Location '${location_id}' not found`);
      ctx.body = { window, items: await metrics.latency(org, location_id, window) };
    },
  );

  // One `event: stage` per stage event of the organization's chargers, from the moment of connection.
  router.get(
    '/evcharger/fleet/stream',
    apiDoc({
      summary: "Live stage events of the organization's chargers (Server-Sent Events)",
      description:
        'One `event: stage` per stage event from the moment of connection; `data` is the stage event with its deployment_id.',
      examples: { live: {} },
      responses: {
        200: { description: 'The event stream', contentType: 'text/event-stream', schema: eventStream },
      },
    }),
    async (ctx) => {
      const org = orgOf(ctx);
      const sse = openSse(ctx);
      try {
        const off = await feed.subscribe(org, (c) => sse.send('stage', JSON.stringify(c), c.id));
        sse.onClose(off);
      } catch (err) {
        ctx.state.log?.warn({ err, requestId: ctx.state.requestId }, 'fleet stream failed to start');
        sse.close();
      }
    },
  );

  router.get(
    '/evcharger/deployments/:deployment_id/machine',
    apiDoc({
      summary: "A charger's state machine (from its definition) with its current state",
      path: deploymentPath,
      examples: { one: { path: { deployment_id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11' } } },
      responses: { 200: { description: 'The machine and its active states', schema: machineView } },
      errors: { 404: 'Deployment not found' },
    }),
    async (ctx) => {
      const { deployment_id } = parsePath(ctx, deploymentPath);
      const stored = await storedStateValue(platform.db, orgOf(ctx), deployment_id);
      if (!stored) throw notFound(`Deployment '${deployment_id}' not found`);
      ctx.body = {
        machine: chargerDiagram(),
        value: stored.value,
        active: stored.value === null ? [] : activeStateIds(stored.value),
      };
    },
  );

  return router;
}
