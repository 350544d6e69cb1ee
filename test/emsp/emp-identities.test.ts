// E18 POST /emsp/tenant/emp-identities: roaming identities under an Idempotency-Key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { EMSP_TEST_ENV, newKey } from './emsp-fixtures.ts';

const PATH = '/emsp/tenant/emp-identities';

describe(`E18 roaming identities (${MODE})`, () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService({ env: EMSP_TEST_ENV });
  });
  after(() => svc.close());

  /** `key` null sends no Idempotency-Key. */
  const register = (org: string, body: unknown, key: string | null = newKey()) =>
    svc.as(org)('POST', PATH, { body, headers: key === null ? {} : { 'Idempotency-Key': key } });

  test('E18 answers 201 with the roaming identity; default_network_access defaults to true', async () => {
    const res = await register('ids-a', {
      country_code: 'nl',
      party_id: 'ab1',
      label: 'Main brand',
      contact_email: 'roaming@example.com',
      contact_phone: '+31 20 123 4567',
    });
    assert.equal(res.status, 201, res.text);
    const { created_at, updated_at, emp_identity_id, ...rest } = res.body;
    assert.equal(typeof emp_identity_id, 'number');
    assert.ok(!Number.isNaN(Date.parse(created_at)) && !Number.isNaN(Date.parse(updated_at)));
    assert.deepEqual(rest, {
      country_code: 'NL',
      party_id: 'AB1',
      protocol: 'OCPI',
      default_network_access: true,
      status: 'ACTIVE',
      label: 'Main brand',
      contact_email: 'roaming@example.com',
      contact_phone: '+31 20 123 4567',
    });
    const off = await register('ids-a', {
      country_code: 'BE',
      party_id: 'XYZ',
      default_network_access: false,
    });
    assert.equal(off.body.default_network_access, false);
    assert.equal(off.body.label, null);
  });

  test('E18 replays the 201 for the same key and body, and answers 409 for the same key with another body', async () => {
    const key = newKey();
    const first = await register('ids-b', { country_code: 'DE', party_id: 'QQQ' }, key);
    assert.equal(first.status, 201);
    // Key order does not change the request's fingerprint.
    const again = await register('ids-b', { party_id: 'QQQ', country_code: 'DE' }, key);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = await register('ids-b', { country_code: 'DE', party_id: 'RRR' }, key);
    assert.equal(other.status, 409);
    assert.equal(other.body.detail, `Idempotency-Key '${key}' was already used for a different request`);
    // Keys are per organization: another organization may use the same key.
    assert.equal((await register('ids-c', { country_code: 'DE', party_id: 'RRR' }, key)).status, 201);
  });

  test('E18 answers 409 when the pair is already registered in the organization, not across organizations', async () => {
    assert.equal((await register('ids-d', { country_code: 'FR', party_id: 'ABC' })).status, 201);
    const dup = await register('ids-d', { country_code: 'fr', party_id: 'abc', label: 'again' });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.detail, 'Roaming identity FR/ABC is already registered');
    assert.equal((await register('ids-e', { country_code: 'FR', party_id: 'ABC' })).status, 201);
  });

  test('E18 answers 422 for a missing Idempotency-Key and each invalid field, listed together', async () => {
    const res = await register(
      'ids-a',
      {
        country_code: 'NLD',
        party_id: 'AB',
        contact_email: 'not-an-email',
        contact_phone: 'call me',
        default_network_access: 'yes',
        extra: 1,
      },
      null,
    );
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.detail.map((d: any) => [d.loc.join('.'), d.type]),
      [
        ['header.Idempotency-Key', 'missing'],
        ['body.country_code', 'string_pattern_mismatch'],
        ['body.party_id', 'string_pattern_mismatch'],
        ['body.contact_email', 'value_error'],
        ['body.contact_phone', 'string_pattern_mismatch'],
        ['body.default_network_access', 'bool_type'],
        ['body.extra', 'extra_forbidden'],
      ],
    );
    assert.equal(res.body.detail[1].msg, 'country_code must be two letters (ISO 3166-1 alpha-2)');
    assert.equal(res.body.detail[2].msg, 'party_id must be three letters or digits');
    const missing = await register('ids-a', {});
    assert.deepEqual(
      missing.body.detail.map((d: any) => [d.loc.join('.'), d.type]),
      [
        ['body.country_code', 'missing'],
        ['body.party_id', 'missing'],
      ],
    );
  });
});
