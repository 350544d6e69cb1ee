// E18: roaming identities (country code + party id) an organization issues tokens under.
import Router from '@koa/router';
import { conflict } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, validateAll } from '../http/validation.ts';
import { answerIdempotently, parseIdempotencyKey } from '../http/idempotency.ts';
import { createEmpIdentitySchema } from '../schemas/emsp-identities.ts';
import type { ApiDeps } from '../http/deps.ts';

export function emspIdentitiesRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.post('/emsp/tenant/emp-identities', async (ctx) => {
    const [key, body] = validateAll(
      () => parseIdempotencyKey(ctx),
      () => parseBody(ctx, createEmpIdentitySchema),
    );
    await answerIdempotently(ctx, emsp.idempotency, key, async () => {
      const identity = await emsp.identities.create(orgOf(ctx), body);
      if (!identity)
        throw conflict(`Roaming identity ${body.country_code}/${body.party_id} is already registered`);
      return { status: 201, body: identity };
    });
  });

  return router;
}
