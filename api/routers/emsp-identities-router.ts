// E18: roaming identities (country code + party id) an organization issues tokens under.
import Router from '@koa/router';
import { conflict } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, validateAll } from '../http/validation.ts';
import { answerIdempotently, parseIdempotencyKey } from '../http/idempotency.ts';
import { createEmpIdentitySchema } from '../schemas/emsp-identities.ts';
import type { ApiDeps } from '../http/deps.ts';
import { idempotencyHeader } from '../http/idempotency.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { empIdentity } from '../schemas/emsp-answers.ts';

export function emspIdentitiesRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/emsp/tenant/emp-identities',
    apiDoc({
      summary: 'Register a roaming identity (country code + party id) to issue tokens under',
      headers: idempotencyHeader,
      body: createEmpIdentitySchema,
      examples: {
        nlEvs: {
          headers: { 'Idempotency-Key': 'doc-identity-0001' },
          body: {
            country_code: 'NL',
            party_id: 'EVS',
            label: 'evsim Netherlands',
            contact_email: 'roaming@example.com',
            contact_phone: '+31 20 123 4567',
          },
        },
      },
      responses: { 201: { description: 'The roaming identity', schema: empIdentity } },
      errors: { 409: 'Pair already registered, or Idempotency-Key used for a different request' },
    }),
    async (ctx) => {
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
    },
  );

  return router;
}
