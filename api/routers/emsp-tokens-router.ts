// eMSP tokens: creation and read (interface.md), E17 activation and the other status changes,
// each pushed to the organization's CPO partners and guarded by an Idempotency-Key.
import Router from '@koa/router';
import type { Context } from 'koa';
import { badRequest, conflict, notFound, upstreamFailed } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath, validateAll } from '../http/validation.ts';
import { answerIdempotently, parseIdempotencyKey } from '../http/idempotency.ts';
import { createTokenSchema, tokenChangeSchema, tokenPathSchema } from '../schemas/emsp-tokens.ts';
import type { TransitionResult } from '../../engine/emsp/token-transitions.ts';
import type { TokenEvent } from '../../engine/emsp/token-status.ts';
import type { ApiDeps } from '../http/deps.ts';

export function emspTokensRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.post('/emsp/tokens', async (ctx) => {
    const body = parseBody(ctx, createTokenSchema);
    const token = await emsp.tokens.create(orgOf(ctx), body);
    if (!token)
      throw conflict(`Token uid '${body.uid}' already exists under ${body.country_code}/${body.party_id}`);
    ctx.status = 201;
    ctx.body = token;
  });

  router.get('/emsp/tokens/:token_id', async (ctx) => {
    const { token_id } = parsePath(ctx, tokenPathSchema);
    const token = await emsp.tokens.get(orgOf(ctx), token_id);
    if (!token) throw notFound(`Token ${token_id} not found`);
    ctx.body = token;
  });

  // E17 takes no body; the other changes take an optional { reason }.
  router.post('/emsp/tokens/:token_id/activate', (ctx) => change(ctx, 'activate', false));
  for (const event of ['block', 'unblock', 'expire', 'invalidate'] as const)
    router.post(`/emsp/tokens/:token_id/${event}`, (ctx) => change(ctx, event, true));

  async function change(ctx: Context, event: TokenEvent, withReason: boolean): Promise<void> {
    const [path, key, body] = validateAll(
      () => parsePath(ctx, tokenPathSchema),
      () => parseIdempotencyKey(ctx),
      () => (withReason ? parseBody(ctx, tokenChangeSchema) : {}),
    );
    await answerIdempotently(ctx, emsp.idempotency, key, async () => {
      const result = await emsp.transitions.apply({
        orgId: orgOf(ctx),
        tokenId: path.token_id,
        event,
        reason: body.reason ?? null,
        correlationId: ctx.state.requestId,
      });
      return { status: 200, body: tokenOrThrow(result) };
    });
  }

  return router;
}

function tokenOrThrow(result: TransitionResult) {
  switch (result.kind) {
    case 'changed':
      return result.token;
    case 'not_found':
      throw notFound(result.detail);
    case 'not_allowed':
      throw badRequest(result.detail);
    case 'push_failed':
      throw upstreamFailed(result.status, result.detail);
  }
}
