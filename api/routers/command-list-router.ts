// GET /evcharger/commands: the organization's commands, newest first, as E16 shows each one.
import Router from '@koa/router';
import { orgOf } from '../http/auth.ts';
import { parseQuery } from '../http/validation.ts';
import { commandListQuery } from '../schemas/command-list.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { commandList } from '../schemas/evcharger-answers.ts';

export function commandListRouter({ commands }: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/evcharger/commands',
    apiDoc({
      summary: 'Commands of the organization, newest first, paged',
      query: commandListQuery,
      examples: {
        failed: { query: { status: 'failed', limit: 50, offset: 0 } },
        interrupted: { query: { status: 'interrupted' } },
      },
      responses: {
        200: {
          description: 'A page of command records (as GET /evcharger/commands/{command_id} answers them)',
          schema: commandList,
        },
      },
    }),
    async (ctx) => {
      const q = parseQuery(ctx, commandListQuery);
      ctx.body = await commands.store.list(orgOf(ctx), {
        deploymentId: q.deployment_id,
        status: q.status,
        limit: q.limit,
        offset: q.offset,
      });
    },
  );
  return router;
}
