import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { MODE, startTestService, type TestService } from '../support/service.ts';

const PATH = '/evcharger/catalog?limit=1';

async function hs256(secret: string, claims: Record<string, unknown>, expires = '1h'): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(new TextEncoder().encode(secret));
}

describe(`Bearer authentication with AUTH_JWT_SECRET (${MODE})`, () => {
  const secret = 'test-secret-that-is-long-enough-0123456789';
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { AUTH_JWT_SECRET: secret, AUTH_ISSUER: 'evsim-tests' } });
  });
  after(() => svc.close());

  const call = (token?: string, scheme = 'Bearer') =>
    svc.request('GET', PATH, { headers: token === undefined ? {} : { authorization: `${scheme} ${token}` } });

  test('a token signed with the secret, with org_id and the issuer, is accepted', async () => {
    const res = await call(await hs256(secret, { org_id: 'acme', iss: 'evsim-tests' }));
    assert.equal(res.status, 200);
  });

  test('no Authorization header answers 401 with a Bearer challenge', async () => {
    const res = await call();
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { detail: 'Not authenticated' });
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
  });

  test('another scheme answers 401', async () => {
    const res = await call('dXNlcjpwYXNz', 'Basic');
    assert.equal(res.status, 401);
    assert.equal(typeof res.body.detail, 'string');
  });

  test('a malformed token answers 401', async () => {
    const res = await call('not.a.jwt');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { detail: 'Invalid token: Token is malformed' });
  });

  test('a token signed with another secret answers 401', async () => {
    const res = await call(
      await hs256('some-other-secret-0123456789abcdef', { org_id: 'acme', iss: 'evsim-tests' }),
    );
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { detail: 'Invalid token: Token signature is invalid' });
  });

  test('an expired token answers 401', async () => {
    const token = await new SignJWT({ org_id: 'acme', iss: 'evsim-tests' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(secret));
    const res = await call(token);
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { detail: 'Invalid token: Token has expired' });
  });

  test('a token without org_id answers 401', async () => {
    const res = await call(await hs256(secret, { sub: 'x', iss: 'evsim-tests' }));
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { detail: 'Invalid token: Token has no org_id claim' });
  });

  test('a token from another issuer answers 401', async () => {
    const res = await call(await hs256(secret, { org_id: 'acme', iss: 'someone-else' }));
    assert.equal(res.status, 401);
    assert.match(res.body.detail, /^Invalid token: Token claim check failed/);
  });

  test('an unsigned token (alg none) answers 401', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ org_id: 'acme', iss: 'evsim-tests' })).toString('base64url');
    const res = await call(`${header}.${payload}.`);
    assert.equal(res.status, 401);
  });
});

describe(`Bearer authentication with AUTH_JWKS_URL (${MODE})`, () => {
  let svc: TestService;
  let jwks: Server;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  before(async () => {
    const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    svc = await startTestService({ env: { AUTH_JWKS_URL: url } });
  });
  after(async () => {
    await svc.close();
    await new Promise<void>((r) => jwks.close(() => r()));
  });

  test('a token signed by a key of the JWKS is accepted', async () => {
    const token = await new SignJWT({ org_id: 'acme' })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
      .setExpirationTime('1h')
      .sign(privateKey);
    const res = await svc.request('GET', PATH, { token });
    assert.equal(res.status, 200);
  });

  test('a token signed by a key outside the JWKS answers 401', async () => {
    const other = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const token = await new SignJWT({ org_id: 'acme' })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
      .setExpirationTime('1h')
      .sign(other.privateKey);
    const res = await svc.request('GET', PATH, { token });
    assert.equal(res.status, 401);
  });
});
