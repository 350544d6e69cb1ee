// Scenario runs: start one (the document checked first: 422 naming the place in it), follow its
// steps live, read its result with the frames that proved each expectation, stop it. The
// document's JSON Schema is public, for editors. Another organization's run is a 404.
import Router from '@koa/router';
import { ApiError, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { openSse } from '../http/sse.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { runOf, runPath, startRunBody } from '../schemas/scenario-runs.ts';
import { scenarioJsonSchema } from '../../engine/scenarios/scenario-schema.ts';
import { readyScenarios } from '../../engine/scenarios/ready-scenarios.ts';
import { MAX_RUNNING } from '../../engine/scenarios/scenario-runs.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { z } from 'zod';

const tags = ['scenarios'];
/** A run as the runner reports it: status, chargers, steps with the frames that proved them. */
const runView = z.looseObject({ run_id: z.string(), status: z.string() });
const stream = z.string().meta({
  description: 'Server-Sent Events: `run`, then `step` / `charger` events, then `end` with the result',
});

const readyView = z.object({
  items: z.array(
    z.object({
      file: z.string(),
      name: z.string(),
      description: z.string(),
      ocpp_version: z.string(),
      text: z.string(),
    }),
  ),
});

/** GET /scenarios/schema.json and GET /scenarios/ready (no token needed: static documents). */
export function scenarioSchemaRouter(): Router {
  const router = new Router();
  let text: string | undefined;
  router.get(
    '/scenarios/schema.json',
    apiDoc({
      summary: "The scenario document's JSON Schema (for editor completion)",
      tags,
      responses: { 200: { description: 'JSON Schema (2020-12)', contentType: 'application/schema+json' } },
    }),
    (ctx) => {
      ctx.type = 'application/schema+json';
      ctx.body = text ??= JSON.stringify(scenarioJsonSchema());
    },
  );
  router.get(
    '/scenarios/ready',
    apiDoc({
      summary: 'The ready scenarios (scenarios/ of the repository): file, name, description, version, text',
      tags,
      responses: { 200: { description: 'The ready scenarios', schema: readyView } },
    }),
    (ctx) => {
      ctx.body = { items: readyScenarios() };
    },
  );
  return router;
}

export function scenarioRunsRouter({ scenarios }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/scenario-runs',
    apiDoc({
      summary:
        'Start a scenario run: its chargers are deployed, its steps run, its expectations checked against the frames',
      tags,
      body: startRunBody,
      responses: { 201: { description: 'The run, running', schema: runView } },
      errors: { 429: 'Too many runs at once in this process: retry later' },
    }),
    async (ctx) => {
      const body = parseBody(ctx, startRunBody);
      const run = await scenarios.start(orgOf(ctx), runOf(body));
      if (!run)
        throw new ApiError(429, `${MAX_RUNNING} scenario runs are running in this process: retry later`, {
          'Retry-After': '10',
        });
      ctx.status = 201;
      ctx.set('Location', `/scenario-runs/${run.run_id}`);
      ctx.body = run;
    },
  );

  router.get(
    '/scenario-runs',
    apiDoc({
      summary: "The organization's scenario runs (running, and the last finished)",
      tags,
      responses: { 200: { description: 'The runs', schema: z.object({ items: z.array(runView) }) } },
    }),
    (ctx) => {
      ctx.body = { items: scenarios.list(orgOf(ctx)) };
    },
  );

  router.get(
    '/scenario-runs/:run_id',
    apiDoc({
      summary: 'A scenario run: its status, steps and the frames that proved or disproved each expectation',
      tags,
      path: runPath,
      responses: { 200: { description: 'The run', schema: runView } },
      errors: { 404: 'Scenario run not found' },
    }),
    (ctx) => {
      const { run_id } = parsePath(ctx, runPath);
      const run = scenarios.get(orgOf(ctx), run_id);
      if (!run) throw notFound(`Scenario run '${run_id}' not found`);
      ctx.body = run;
    },
  );

  router.delete(
    '/scenario-runs/:run_id',
    apiDoc({
      summary: 'Stop a scenario run',
      tags,
      path: runPath,
      responses: {
        202: { description: 'Stopping', schema: z.object({ detail: z.string(), run_id: z.string() }) },
      },
      errors: { 404: 'Scenario run not found' },
    }),
    (ctx) => {
      const { run_id } = parsePath(ctx, runPath);
      if (!scenarios.stop(orgOf(ctx), run_id)) throw notFound(`Scenario run '${run_id}' not found`);
      ctx.status = 202;
      ctx.body = { detail: 'stopping', run_id };
    },
  );

  /** `event: run` (the run so far), then `step` / `charger` events, then `end` with the result. */
  router.get(
    '/scenario-runs/:run_id/events',
    apiDoc({
      summary: 'Follow a scenario run live (Server-Sent Events)',
      tags,
      path: runPath,
      responses: {
        200: { description: 'The event stream', contentType: 'text/event-stream', schema: stream },
      },
      errors: { 404: 'Scenario run not found' },
    }),
    (ctx) => {
      const { run_id } = parsePath(ctx, runPath);
      const org = orgOf(ctx);
      const run = scenarios.get(org, run_id);
      if (!run) throw notFound(`Scenario run '${run_id}' not found`);
      const sse = openSse(ctx);
      sse.send('run', JSON.stringify(run));
      if (run.status !== 'running') {
        sse.send('end', JSON.stringify(run));
        sse.close();
        return;
      }
      const off = scenarios.follow(org, run_id, (e) => {
        if (e.type === 'step') sse.send('step', JSON.stringify(e.step));
        else if (e.type === 'charger') sse.send('charger', JSON.stringify(e.charger));
        else if (e.type === 'prompt') sse.send('prompt', JSON.stringify(e));
        else {
          sse.send('end', JSON.stringify(e.result));
          sse.close();
        }
      });
      sse.onClose(() => off?.());
    },
  );

  return router;
}
