// GET /evcharger/deployments/{deployment_id}: one virtual charger in detail (connectors, charging
// profiles, configuration), read from its row and persisted snapshot, so any node answers.
import Router from '@koa/router';
import { notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parsePath } from '../http/validation.ts';
import { deploymentPath } from '../schemas/deployment-detail.ts';
import { readDeploymentDetail } from '../../engine/deployments/deployment-detail.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { deploymentDetail } from '../schemas/evcharger-answers.ts';

export function deploymentDetailRouter({ platform }: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/evcharger/deployments/:deployment_id',
    apiDoc({
      summary: 'One virtual charger in detail: connectors, charging profiles, configuration',
      path: deploymentPath,
      examples: { one: { path: { deployment_id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11' } } },
      responses: { 200: { description: 'The charger', schema: deploymentDetail } },
      errors: { 404: 'Deployment not found' },
    }),
    async (ctx) => {
      const { deployment_id } = parsePath(ctx, deploymentPath);
      const detail = await readDeploymentDetail(platform.db, orgOf(ctx), deployment_id);
      if (!detail) throw notFound(`Deployment '${deployment_id}' not found`);
      ctx.body = detail;
    },
  );
  return router;
}
