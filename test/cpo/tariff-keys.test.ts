// Tariff signing keys: generate or import, E25 public key, sealed private keys.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { startTestService, type TestService } from '../support/service.ts';

describe('CPO tariff signing keys', () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService({ env: { SECRETS_KEY: 'test-secrets-key-0123456789' } });
  });
  after(() => svc.close());

  test('E25 answers 404 when the organization has no signing key', async () => {
    const res = await svc.as('keyless')('GET', '/cpo/tariff-publisher/public-key');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { detail: 'No tariff signing key configured for the organization' });
  });

  test('a generated Ed25519 key is answered by E25 as SPKI PEM with its key_id', async () => {
    const as = svc.as('gen-org');
    const created = await as('POST', '/cpo/tariff-publisher/keys', { body: {} });
    assert.equal(created.status, 201);
    assert.equal(created.body.algorithm, 'Ed25519');
    assert.match(created.body.public_key_pem, /^-----BEGIN PUBLIC KEY-----\n/);
    assert.ok(!('private_key_pem' in created.body));
    const res = await as('GET', '/cpo/tariff-publisher/public-key');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, created.body);
    assert.equal(createPublicKey(res.body.public_key_pem).asymmetricKeyType, 'ed25519');
    // Another organization does not see it.
    assert.equal((await svc.as('other-org')('GET', '/cpo/tariff-publisher/public-key')).status, 404);
  });

  test('an imported key is sealed at rest and still signs what the public key verifies', async () => {
    const as = svc.as('import-org');
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const created = await as('POST', '/cpo/tariff-publisher/keys', { body: { private_key_pem: pem } });
    assert.equal(created.status, 201);
    const { rows } = await svc.service.platform.db.query<{ private_key_enc: string }>(
      'SELECT private_key_enc FROM cpo_signing_keys WHERE organization_id = $1',
      ['import-org'],
    );
    const body = pem.split('\n')[1];
    assert.ok(!rows[0].private_key_enc.includes(body));
    assert.match(rows[0].private_key_enc, /^v1:/);
    const signer = await svc.service.deps.cpo.signingKeys.privateKey('import-org');
    const signature = sign(null, Buffer.from('tariff'), signer!.key);
    assert.ok(verify(null, Buffer.from('tariff'), created.body.public_key_pem, signature));
  });

  test('E25 answers 400 when the newest key is not Ed25519', async () => {
    const as = svc.as('rsa-org');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const created = await as('POST', '/cpo/tariff-publisher/keys', { body: { private_key_pem: pem } });
    assert.equal(created.status, 201);
    assert.equal(created.body.algorithm, 'RSA');
    const res = await as('GET', '/cpo/tariff-publisher/public-key');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: 'The configured tariff signing key is RSA, not Ed25519' });
  });

  test('importing something that is not a PEM private key answers 422', async () => {
    const res = await svc.as('bad-org')('POST', '/cpo/tariff-publisher/keys', {
      body: { private_key_pem: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n' },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'private_key_pem']);
    assert.equal(res.body.detail[0].type, 'value_error');
  });
});
