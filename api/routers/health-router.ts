// E27: readiness of the database and the MQTT connection. No authentication.
import Router from '@koa/router';
import { checkReadiness } from '../../engine/platform/health.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { readiness } from '../schemas/emsp-answers.ts';

export function healthRouter({ platform }: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/health/ready',
    apiDoc({
      summary: 'Readiness of the database and the MQTT broker',
      responses: {
        200: {
          description: 'Ready',
          schema: readiness,
          example: { status: 'ok', database: 'ok', mqtt: 'ok' },
        },
        503: {
          description: 'Not ready: the same shape, naming what failed',
          schema: readiness,
          example: { status: 'not_ready', database: 'ok', mqtt: 'error' },
        },
      },
    }),
    async (ctx) => {
      const readiness = await checkReadiness(platform.db, platform.mqtt);
      ctx.status = readiness.status === 'ok' ? 200 : 503;
      ctx.body = readiness;
    },
  );
  return router;
}
