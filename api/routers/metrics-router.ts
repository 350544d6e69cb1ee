// GET /metrics: the Prometheus text exposition of the fleet's measurements of the central system
// under test, the fleet's counts and this process's own figures (issue 36, docs/metrics.md).
// Behind a bearer token of any organization, or open when METRICS_PUBLIC=true (api/app.ts).
import Router from '@koa/router';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { CONTENT_TYPE } from '../../engine/metrics/prometheus-text.ts';

export function metricsRouter({ metrics }: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/metrics',
    apiDoc({
      summary: 'Prometheus metrics: the central system under test measured by every engine node, summed',
      description:
        'Text format 0.0.4. Series and labels: docs/metrics.md. No label names a charger; ' +
        "the figures are every organization's, so any token may read them (or none with METRICS_PUBLIC=true).",
      tags: ['metrics'],
      examples: { scrape: {} },
      responses: { 200: { description: 'The exposition', contentType: CONTENT_TYPE } },
    }),
    async (ctx) => {
      ctx.type = CONTENT_TYPE;
      ctx.body = await metrics.prometheus();
    },
  );
  return router;
}
