// Bearer tokens: HS256 with a shared secret (configured or dev), or any JWKS-published key.
// Keys are imported once; verification pins the algorithms.
import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';
import { isDevAuth, type Config } from '../config/config.ts';
import { readOrCreateDevSecret } from './dev-secret.ts';

export interface Principal {
  orgId: string;
  subject?: string;
}

export class TokenError extends Error {}

export interface TokenService {
  verify(token: string): Promise<Principal>;
  /** Only with a shared secret (configured or dev mode). */
  sign?(orgId: string, opts?: { subject?: string; expiresIn?: string }): Promise<string>;
}

export function hs256Secret(config: Config): Uint8Array | undefined {
  if (config.auth.jwtSecret) return new TextEncoder().encode(config.auth.jwtSecret);
  if (isDevAuth(config)) return new TextEncoder().encode(readOrCreateDevSecret(config.dataDir));
  return undefined;
}

export function createTokenService(config: Config): TokenService {
  const options = { issuer: config.auth.issuer, audience: config.auth.audience };
  const secret = hs256Secret(config);
  const jwks: JWTVerifyGetKey | undefined = config.auth.jwksUrl
    ? createRemoteJWKSet(new URL(config.auth.jwksUrl))
    : undefined;

  async function verify(token: string): Promise<Principal> {
    let payload;
    try {
      if (jwks && (!secret || decodeAlg(token) !== 'HS256')) {
        ({ payload } = await jwtVerify(token, jwks, { ...options, algorithms: ['RS256', 'ES256', 'EdDSA'] }));
      } else if (secret) {
        ({ payload } = await jwtVerify(token, secret, { ...options, algorithms: ['HS256'] }));
      } else {
        throw new TokenError('no verification key configured');
      }
    } catch (err) {
      throw new TokenError(describeJoseError(err));
    }
    const orgId = payload.org_id;
    if (typeof orgId !== 'string' || orgId.length === 0) throw new TokenError('Token has no org_id claim');
    return { orgId, subject: typeof payload.sub === 'string' ? payload.sub : undefined };
  }

  const sign = secret
    ? async (orgId: string, opts: { subject?: string; expiresIn?: string } = {}) => {
        let jwt = new SignJWT({ org_id: orgId })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setIssuedAt()
          .setSubject(opts.subject ?? `user@${orgId}`)
          .setExpirationTime(opts.expiresIn ?? '30d');
        if (config.auth.issuer) jwt = jwt.setIssuer(config.auth.issuer);
        if (config.auth.audience) jwt = jwt.setAudience(config.auth.audience);
        return jwt.sign(secret);
      }
    : undefined;

  return { verify, sign };
}

function decodeAlg(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
    return typeof header.alg === 'string' ? header.alg : undefined;
  } catch {
    return undefined;
  }
}

function describeJoseError(err: unknown): string {
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'Token has expired';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'Token signature is invalid';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return `Token claim check failed: ${(err as Error).message}`;
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'Token algorithm is not allowed';
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return 'Token is malformed';
    default:
      return err instanceof TokenError ? err.message : 'Token could not be verified';
  }
}
