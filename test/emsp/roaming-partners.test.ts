// The roaming-partner registry (interface.md): /roaming/partners.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { EMSP_TEST_ENV } from './emsp-fixtures.ts';

const aCpo = (overrides: Record<string, unknown> = {}) => ({
  name: 'Acme CPO',
  role: 'CPO',
  country_code: 'de',
  party_id: 'acm',
  ocpi_version: '2.2.1',
  token: 'credentials-token-acme',
  endpoints: {
    tokens: 'https://acme.example/ocpi/2.2.1/tokens',
    locations: 'https://acme.example/ocpi/locations',
  },
  ...overrides,
});

describe(`roaming partners (${MODE})`, () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService({ env: EMSP_TEST_ENV });
  });
  after(() => svc.close());

  test('POST /roaming/partners answers 201 with an integer id and never shows the credentials token', async () => {
    const api = svc.as('partners-a');
    const res = await api('POST', '/roaming/partners', { body: aCpo() });
    assert.equal(res.status, 201, res.text);
    assert.equal(typeof res.body.id, 'number');
    assert.equal(res.body.token, undefined);
    assert.doesNotMatch(res.text, /credentials-token-acme/);
    assert.equal(res.body.country_code, 'DE');
    assert.equal(res.body.party_id, 'ACM');
    assert.equal(res.body.organization_id, 'partners-a');
    assert.deepEqual(res.body.endpoints, aCpo().endpoints);

    const read = await api('GET', `/roaming/partners/${res.body.id}`);
    assert.deepEqual(read.body, res.body);
    const list = await api('GET', '/roaming/partners');
    assert.deepEqual(list.body, { items: [res.body] });
    assert.doesNotMatch(list.text, /credentials-token-acme/);
  });

  test('the credentials token is stored sealed, never as plain text', async () => {
    const api = svc.as('partners-sealed');
    const res = await api('POST', '/roaming/partners', { body: aCpo({ token: 'plain-secret-token-42' }) });
    assert.equal(res.status, 201);
    const { rows } = await svc.service.platform.db.query<{ token_sealed: string }>(
      'SELECT token_sealed FROM roaming_partners WHERE id = $1',
      [res.body.id],
    );
    assert.doesNotMatch(rows[0].token_sealed, /plain-secret-token-42/);
    const partner = await svc.service.deps.emsp.partners.get('partners-sealed', res.body.id);
    assert.equal(partner?.token, 'plain-secret-token-42');
  });

  test('POST /roaming/partners answers 409 for the same role and party twice; an EMSP with the same party is fine', async () => {
    const api = svc.as('partners-b');
    assert.equal((await api('POST', '/roaming/partners', { body: aCpo() })).status, 201);
    const dup = await api('POST', '/roaming/partners', { body: aCpo({ name: 'again' }) });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.detail, 'A CPO partner DE/ACM is already registered');
    const emsp = await api('POST', '/roaming/partners', {
      body: aCpo({ role: 'EMSP', endpoints: { chargingprofiles: 'http://acme.example/cp' } }),
    });
    assert.equal(emsp.status, 201);
  });

  test('POST /roaming/partners answers 422 for each invalid field', async () => {
    const api = svc.as('partners-a');
    const res = await api('POST', '/roaming/partners', {
      body: aCpo({
        role: 'HUB',
        ocpi_version: '2.1.1',
        country_code: 'DEU',
        party_id: 'A',
        token: '',
        endpoints: { tokens: 'ftp://acme.example/tokens', Bad: 'http://x.example' },
      }),
    });
    assert.equal(res.status, 422);
    const got = Object.fromEntries(res.body.detail.map((d: any) => [d.loc.join('.'), d.type]));
    assert.equal(got['body.role'], 'enum');
    assert.equal(got['body.ocpi_version'], 'enum');
    assert.equal(got['body.country_code'], 'string_pattern_mismatch');
    assert.equal(got['body.party_id'], 'string_pattern_mismatch');
    assert.equal(got['body.token'], 'string_too_short');
    assert.equal(got['body.endpoints.tokens'], 'url_parsing');
    assert.equal(got['body.endpoints.Bad'], 'value_error');
  });

  test('a partner is created with only the endpoints its use needs: an EMSP without chargingprofiles, a CPO without tokens', async () => {
    const api = svc.as('partners-e');
    const emsp = await api('POST', '/roaming/partners', {
      body: aCpo({ role: 'EMSP', party_id: 'XYZ', endpoints: { tariffs: 'https://x.example/tariffs' } }),
    });
    assert.equal(emsp.status, 201, emsp.text);
    assert.deepEqual(emsp.body.endpoints, { tariffs: 'https://x.example/tariffs' });
    const cpo = await api('POST', '/roaming/partners', { body: aCpo({ party_id: 'XYZ', endpoints: {} }) });
    assert.equal(cpo.status, 201, cpo.text);
    assert.deepEqual(cpo.body.endpoints, {});
    const missing = await api('POST', '/roaming/partners', {
      body: { ...aCpo({ party_id: 'XYW' }), endpoints: undefined },
    });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.detail[0].loc, ['body', 'endpoints']);
  });

  test("another organization's partner is 404 to read and to delete; DELETE answers 204", async () => {
    const a = svc.as('partners-c');
    const created = await a('POST', '/roaming/partners', { body: aCpo() });
    const b = svc.as('partners-d');
    assert.equal((await b('GET', `/roaming/partners/${created.body.id}`)).status, 404);
    assert.equal((await b('DELETE', `/roaming/partners/${created.body.id}`)).status, 404);
    assert.deepEqual((await b('GET', '/roaming/partners')).body, { items: [] });
    const del = await a('DELETE', `/roaming/partners/${created.body.id}`);
    assert.equal(del.status, 204);
    const gone = await a('GET', `/roaming/partners/${created.body.id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.detail, `Roaming partner ${created.body.id} not found`);
    assert.equal((await a('GET', '/roaming/partners/x')).status, 422);
  });
});
