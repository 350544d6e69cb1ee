// Tariff signing keys: add one (generate Ed25519 or import a PEM) and E25, the public key.
import Router from '@koa/router';
import { ValidationError, badRequest, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody } from '../http/validation.ts';
import { addSigningKeyBody } from '../schemas/cpo-tariff-keys.ts';
import { InvalidPrivateKeyError } from '../../engine/cpo/signing-key-store.ts';
import type { ApiDeps } from '../http/deps.ts';

export function cpoTariffKeysRouter({ cpo }: ApiDeps): Router {
  const router = new Router();

  router.post('/cpo/tariff-publisher/keys', async (ctx) => {
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
  });

  // E25
  router.get('/cpo/tariff-publisher/public-key', async (ctx) => {
    const key = await cpo.signingKeys.current(orgOf(ctx));
    if (!key) throw notFound('No tariff signing key configured for the organization');
    if (key.algorithm !== 'Ed25519')
      throw badRequest(`The configured tariff signing key is ${key.algorithm}, not Ed25519`);
    ctx.body = { algorithm: key.algorithm, key_id: key.key_id, public_key_pem: key.public_key_pem };
  });

  return router;
}
