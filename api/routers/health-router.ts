// E27: readiness of the database and the MQTT connection. No authentication.
import Router from '@koa/router';
import { checkReadiness } from '../../engine/platform/health.ts';
import type { ApiDeps } from '../http/deps.ts';

export function healthRouter({ platform }: ApiDeps): Router {
  const router = new Router();
  router.get('/health/ready', async (ctx) => {
    const readiness = await checkReadiness(platform.db, platform.mqtt);
    ctx.status = readiness.status === 'ok' ? 200 : 503;
    ctx.body = readiness;
  });
  return router;
}
