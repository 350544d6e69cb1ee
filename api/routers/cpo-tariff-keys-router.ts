// Tariff signing keys: add one (generate Ed25519 or import a PEM) and E25, the public key.
import Router from '@koa/router';
import { ValidationError, badRequest, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody } from '../http/validation.ts';
import { addSigningKeyBody } from '../schemas/cpo-tariff-keys.ts';
import { InvalidPrivateKeyError } from '../../engine/cpo/signing-key-store.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { signingKey } from '../schemas/cpo-answers.ts';

export function cpoTariffKeysRouter({ cpo }: ApiDeps): Router {
  const router = new Router();

  router.post(
    '/cpo/tariff-publisher/keys',
    apiDoc({
      summary: "Add the organization's tariff signing key: {} generates Ed25519, or import a PEM private key",
      body: addSigningKeyBody,
      bodyRequired: false,
      examples: { generate: { body: {} } },
      responses: { 201: { description: 'The new key (the newest is the signing key)', schema: signingKey } },
    }),
    async (ctx) => {
      const { private_key_pem } = parseBody(ctx, addSigningKeyBody);
      try {
        ctx.body = await cpo.signingKeys.add(orgOf(ctx), private_key_pem);
      } catch (err) {
        if (!(err instanceof InvalidPrivateKeyError)) throw err;
        // The parser's message is not repeated: it could quote the key material.
        throw new ValidationError([
          {
            loc: ['body', 'private_key_pem'],
            msg: 'Value error, private_key_pem is not a PEM private key',
            type: 'value_error',
          },
        ]);
      }
      ctx.status = 201;
    },
  );

  // E25
  router.get(
    '/cpo/tariff-publisher/public-key',
    apiDoc({
      summary: 'The Ed25519 public key that verifies signed tariffs',
      responses: { 200: { description: 'The public key', schema: signingKey } },
      errors: { 400: 'The configured signing key is not Ed25519', 404: 'No signing key configured' },
    }),
    async (ctx) => {
      const key = await cpo.signingKeys.current(orgOf(ctx));
      if (!key) throw notFound('No tariff signing key configured for the organization');
      if (key.algorithm !== 'Ed25519')
        throw badRequest(`The configured tariff signing key is ${key.algorithm}, not Ed25519`);
      ctx.body = { algorithm: key.algorithm, key_id: key.key_id, public_key_pem: key.public_key_pem };
    },
  );

  return router;
}
