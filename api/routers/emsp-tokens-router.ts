// eMSP tokens: creation and read (interface.md), E17 activation and the other status changes,
// each pushed to the organization's CPO partners and guarded by an Idempotency-Key.
import Router from '@koa/router';
import type { Context } from 'koa';
import { badRequest, conflict, notFound, upstreamFailed } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath, validateAll } from '../http/validation.ts';
import { answerIdempotently, idempotencyHeader, parseIdempotencyKey } from '../http/idempotency.ts';
import { createTokenSchema, tokenChangeSchema, tokenPathSchema } from '../schemas/emsp-tokens.ts';
import type { TransitionResult } from '../../engine/emsp/token-transitions.ts';
import { TOKEN_TRANSITIONS, type TokenEvent } from '../../engine/emsp/token-status.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { token } from '../schemas/emsp-answers.ts';

export function emspTokensRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/emsp/tokens',
    apiDoc({
      summary: 'Create an eMSP token (OCPI 2.2.1 Token fields); it starts PROVISIONED',
      body: createTokenSchema,
      examples: {
        rfid: {
          body: {
            uid: '04A1B2C3D4E5F6',
            type: 'RFID',
            contract_id: 'NL-EVS-C00000001-X',
            issuer: 'evsim eMSP',
            whitelist: 'ALLOWED',
            country_code: 'NL',
            party_id: 'EVS',
            visual_number: 'NL-EVS-000001',
            language: 'nl',
            valid_until: '2030-12-31T23:59:59Z',
          },
        },
      },
      responses: { 201: { description: 'The token', schema: token } },
      errors: { 409: 'The uid exists under this country code and party id' },
    }),
    async (ctx) => {
      const body = parseBody(ctx, createTokenSchema);
      const token = await emsp.tokens.create(orgOf(ctx), body);
      if (!token)
        throw conflict(`Token uid '${body.uid}' already exists under ${body.country_code}/${body.party_id}`);
      ctx.status = 201;
      ctx.body = token;
    },
  );

  router.get(
    '/emsp/tokens/:token_id',
    apiDoc({
      summary: 'One token',
      path: tokenPathSchema,
      examples: { one: { path: { token_id: 1 } } },
      responses: { 200: { description: 'The token', schema: token } },
      errors: { 404: 'Token not found' },
    }),
    async (ctx) => {
      const { token_id } = parsePath(ctx, tokenPathSchema);
      const token = await emsp.tokens.get(orgOf(ctx), token_id);
      if (!token) throw notFound(`Token ${token_id} not found`);
      ctx.body = token;
    },
  );

  // E17 takes no body; the other changes take an optional { reason }.
  router.post('/emsp/tokens/:token_id/activate', changeDoc('activate', false), (ctx) =>
    change(ctx, 'activate', false),
  );
  for (const event of ['block', 'unblock', 'expire', 'invalidate'] as const)
    router.post(`/emsp/tokens/:token_id/${event}`, changeDoc(event, true), (ctx) => change(ctx, event, true));

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

function changeDoc(event: TokenEvent, withReason: boolean) {
  const t = TOKEN_TRANSITIONS[event];
  return apiDoc({
    summary:
      event === 'activate'
        ? 'Activate a token (PROVISIONED -> ACTIVE) and push it to the CPO partners'
        : `Move a token from ${t.from.join(' or ')} to ${t.to}, pushed to the CPO partners`,
    path: tokenPathSchema,
    headers: idempotencyHeader,
    ...(withReason ? { body: tokenChangeSchema, bodyRequired: false } : {}),
    examples: {
      one: {
        path: { token_id: 1 },
        headers: { 'Idempotency-Key': `doc-${event}-0001` },
        ...(withReason ? { body: { reason: `${t.done} by the operator` } } : {}),
      },
    },
    responses: { 200: { description: 'The token after the change', schema: token } },
    errors: {
      400: `Not allowed from the token's status (only ${t.from.join(', ')})`,
      404: 'Token not found',
      409: 'Idempotency-Key already used for a different request',
      502: 'The push to a roaming partner failed; the token is left as it was',
      504: 'A roaming partner did not answer in time',
    },
  });
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
