// Conformance runs: the ready conformance cases of a version run as one suite against a central
// system (the built-in one, or ws_url with its csms_hook), a verdict per case. Another
// organization's run is a 404.
import Router from '@koa/router';
import { ApiError, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { conformanceRunPath, conformanceRunView, startConformanceBody } from '../schemas/conformance-runs.ts';
import { MAX_CONFORMANCE_RUNNING } from '../../engine/conformance/conformance-runs.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';

const tags = ['conformance'];

export function conformanceRunsRouter({ conformance }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/conformance-runs',
    apiDoc({
      summary:
        "Start a conformance run: the version's ready test cases against the central system, a verdict per case",
      tags,
      body: startConformanceBody,
      responses: { 201: { description: 'The run, running', schema: conformanceRunView } },
      errors: { 429: 'Too many conformance runs at once in this process: retry later' },
    }),
    async (ctx) => {
      const body = parseBody(ctx, startConformanceBody);
      const run = await conformance.start(orgOf(ctx), {
        version: body.version,
        profiles: body.profiles,
        wsUrl: body.ws_url,
        csmsHook: body.csms_hook,
      });
      if (!run)
        throw new ApiError(
          429,
          `${MAX_CONFORMANCE_RUNNING} conformance runs are running in this process: retry later`,
          { 'Retry-After': '30' },
        );
      ctx.status = 201;
      ctx.set('Location', `/conformance-runs/${run.run_id}`);
      ctx.body = run;
    },
  );

  router.get(
    '/conformance-runs/:run_id',
    apiDoc({
      summary: 'A conformance run: its status and the verdict of each case so far',
      tags,
      path: conformanceRunPath,
      responses: { 200: { description: 'The run', schema: conformanceRunView } },
      errors: { 404: 'Conformance run not found' },
    }),
    (ctx) => {
      const { run_id } = parsePath(ctx, conformanceRunPath);
      const run = conformance.get(orgOf(ctx), run_id);
      if (!run) throw notFound(`Conformance run '${run_id}' not found`);
      ctx.body = run;
    },
  );

  return router;
}
