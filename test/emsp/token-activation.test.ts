// E17 POST /emsp/tokens/{token_id}/activate: the push to every CPO partner, idempotency, and
// the token state table.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startFakeOcpiPartner, type FakeOcpiPartner } from '../support/fake-ocpi-partner.ts';
import { EMSP_TEST_ENV, activate, createToken, newKey, registerPartner, type Api } from './emsp-fixtures.ts';

describe(`E17 token activation (${MODE})`, () => {
  let svc: TestService;
  const partners: FakeOcpiPartner[] = [];
  let orgs = 0;

  before(async () => {
    svc = await startTestService({ env: EMSP_TEST_ENV });
  });
  after(async () => {
    await Promise.all(partners.map((p) => p.close()));
    await svc.close();
  });

  /** A fresh organization with one fake CPO partner per given mode. */
  async function orgWithCpos(...modes: FakeOcpiPartner['mode'][]) {
    const api: Api = svc.as(`e17-org-${++orgs}`);
    const fakes: FakeOcpiPartner[] = [];
    const registered: any[] = [];
    for (const mode of modes) {
      const fake = await startFakeOcpiPartner(mode);
      partners.push(fake);
      fakes.push(fake);
      registered.push(
        await registerPartner(api, fake, 'CPO', { token: `credentials-${orgs}-${fakes.length}` }),
      );
    }
    return { api, fakes, registered };
  }

  test('E17 moves PROVISIONED to ACTIVE after every CPO partner accepted the push with valid true', async () => {
    const { api, fakes } = await orgWithCpos('accept', 'accept');
    const emsp = await startFakeOcpiPartner();
    partners.push(emsp);
    await registerPartner(api, emsp, 'EMSP');
    const token = await createToken(api, { visual_number: 'NL-ABC-0001', language: 'nl' });
    assert.equal(token.status, 'PROVISIONED');

    const res = await activate(api, token.id, newKey());
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, token.id);
    assert.equal(res.body.status, 'ACTIVE');
    assert.equal(res.headers.get('idempotent-replayed'), null);

    const correlationIds = new Set<string>();
    for (const [i, fake] of fakes.entries()) {
      assert.equal(fake.received.length, 1);
      const got = fake.received[0];
      assert.equal(got.method, 'PUT');
      assert.equal(got.path, `/ocpi/2.2.1/tokens/NL/ABC/${token.uid}`);
      assert.deepEqual(got.query, { type: 'RFID' });
      // Each partner gets its own credentials token.
      assert.equal(got.headers.authorization, `Token credentials-${orgs}-${i + 1}`);
      assert.ok(got.headers['x-request-id']);
      correlationIds.add(String(got.headers['x-correlation-id']));
      assert.deepEqual(got.body, {
        country_code: 'NL',
        party_id: 'ABC',
        uid: token.uid,
        type: 'RFID',
        contract_id: token.contract_id,
        visual_number: 'NL-ABC-0001',
        issuer: 'Example eMSP',
        valid: true,
        whitelist: 'ALLOWED',
        language: 'nl',
        last_updated: res.body.last_updated,
      });
    }
    // One correlation id ties both pushes to the incoming request.
    assert.equal(correlationIds.size, 1);
    assert.equal([...correlationIds][0], res.headers.get('x-request-id'));
    assert.notEqual(
      fakes[0].received[0].headers['x-request-id'],
      fakes[1].received[0].headers['x-request-id'],
    );
    assert.equal(emsp.received.length, 0, 'EMSP partners are not pushed tokens');

    const read = await api('GET', `/emsp/tokens/${token.id}`);
    assert.equal(read.body.status, 'ACTIVE');
  });

  test('E17 replays the first answer for the same Idempotency-Key without pushing again', async () => {
    const { api, fakes } = await orgWithCpos('accept');
    const token = await createToken(api);
    const key = newKey();
    const first = await activate(api, token.id, key);
    const again = await activate(api, token.id, key);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(fakes[0].received.length, 1);
  });

  test('E17 concurrent duplicates with one Idempotency-Key act once and all get the same answer', async () => {
    const { api, fakes } = await orgWithCpos('accept');
    fakes[0].delayMs = 150;
    const token = await createToken(api);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 5 }, () => activate(api, token.id, key)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200],
    );
    for (const a of answers) assert.deepEqual(a.body, answers[0].body);
    assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 4);
    assert.equal(fakes[0].received.length, 1, 'the partner received one push');
  });

  test('E17 answers 409 when the Idempotency-Key was used for a different request', async () => {
    const { api, fakes } = await orgWithCpos('accept');
    const a = await createToken(api);
    const b = await createToken(api);
    const key = newKey();
    assert.equal((await activate(api, a.id, key)).status, 200);
    const res = await activate(api, b.id, key);
    assert.equal(res.status, 409);
    assert.equal(res.body.detail, `Idempotency-Key '${key}' was already used for a different request`);
    assert.equal(fakes[0].received.length, 1);
    assert.equal((await api('GET', `/emsp/tokens/${b.id}`)).body.status, 'PROVISIONED');
  });

  test('E17 answers 502 naming the partner when it answers HTTP 500; the token stays PROVISIONED; a retry acts again', async () => {
    const { api, fakes, registered } = await orgWithCpos('http500');
    const token = await createToken(api);
    const key = newKey();
    const res = await activate(api, token.id, key);
    assert.equal(res.status, 502);
    assert.equal(
      res.body.detail,
      `Token push failed: partner '${registered[0].name}' (id ${registered[0].id}) answered HTTP 500 with OCPI status 3000 'Generic server error'. Token ${token.id} stays PROVISIONED`,
    );
    assert.equal((await api('GET', `/emsp/tokens/${token.id}`)).body.status, 'PROVISIONED');

    fakes[0].mode = 'accept';
    const retry = await activate(api, token.id, key);
    assert.equal(retry.status, 200);
    assert.equal(retry.body.status, 'ACTIVE');
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal(fakes[0].received.length, 2, 'the retry pushed again');
  });

  test('E17 answers 502 when a partner answers OCPI status 2001', async () => {
    const { api } = await orgWithCpos('accept', 'ocpi2001');
    const token = await createToken(api);
    const res = await activate(api, token.id, newKey());
    assert.equal(res.status, 502);
    assert.match(res.body.detail, /answered HTTP 200 with OCPI status 2001 'Invalid or missing parameters'/);
    assert.equal((await api('GET', `/emsp/tokens/${token.id}`)).body.status, 'PROVISIONED');
  });

  test('E17 answers 504 when a partner does not answer within OCPI_TIMEOUT_MS', async () => {
    const { api, fakes } = await orgWithCpos('accept', 'hang');
    const token = await createToken(api);
    const res = await activate(api, token.id, newKey());
    assert.equal(res.status, 504);
    assert.match(res.body.detail, /did not answer within 300 ms\. Token \d+ stays PROVISIONED$/);
    assert.equal(fakes[1].received.length, 1);
    assert.equal((await api('GET', `/emsp/tokens/${token.id}`)).body.status, 'PROVISIONED');
  });

  test('E17 answers 502, not 504, when one partner times out and another is unreachable', async () => {
    const { api, fakes, registered } = await orgWithCpos('hang', 'accept');
    await fakes[1].close();
    const token = await createToken(api);
    const res = await activate(api, token.id, newKey());
    assert.equal(res.status, 502);
    assert.match(res.body.detail, /did not answer within 300 ms/);
    assert.match(
      res.body.detail,
      new RegExp(`\\(id ${registered[1].id}\\) could not be reached \\(ECONNREFUSED\\)`),
    );
  });

  test('E17 activates locally when the organization has no CPO partner', async () => {
    const api = svc.as(`e17-org-${++orgs}`);
    const token = await createToken(api);
    const res = await activate(api, token.id, newKey());
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ACTIVE');
  });

  test('E17 pushes only to CPO partners with a tokens endpoint: one registered without it takes no push', async () => {
    const { api, fakes } = await orgWithCpos('accept');
    const silent = await startFakeOcpiPartner('accept');
    partners.push(silent);
    const without = await api('POST', '/roaming/partners', {
      body: {
        name: 'CPO without tokens',
        role: 'CPO',
        country_code: 'DE',
        party_id: 'NTK',
        ocpi_version: '2.2.1',
        token: 'credentials-no-tokens',
        endpoints: { locations: `${silent.url}/ocpi/2.2.1/locations` },
      },
    });
    assert.equal(without.status, 201, without.text);
    const token = await createToken(api);
    const res = await activate(api, token.id, newKey());
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'ACTIVE');
    assert.equal(fakes[0].received.length, 1);
    assert.deepEqual(silent.received, []);
  });

  test('E17 answers 400 naming the status when the token is not PROVISIONED, and replays that 400', async () => {
    const { api, fakes } = await orgWithCpos('accept');
    const token = await createToken(api);
    await activate(api, token.id, newKey());
    const key = newKey();
    const res = await activate(api, token.id, key);
    assert.equal(res.status, 400);
    assert.equal(res.body.detail, `Token ${token.id} is ACTIVE; only a PROVISIONED token can be activated`);
    const again = await activate(api, token.id, key);
    assert.equal(again.status, 400);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(fakes[0].received.length, 1);

    const block = await api('POST', `/emsp/tokens/${token.id}/block`, {
      headers: { 'Idempotency-Key': newKey() },
      body: { reason: 'card reported lost' },
    });
    assert.equal(block.status, 200);
    const blocked = await activate(api, token.id, newKey());
    assert.equal(blocked.status, 400);
    assert.equal(
      blocked.body.detail,
      `Token ${token.id} is BLOCKED; only a PROVISIONED token can be activated`,
    );
  });

  test("E17 answers 404 for an unknown token and for another organization's token", async () => {
    const { api, fakes } = await orgWithCpos('accept');
    const unknown = await activate(api, 999999, newKey());
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.detail, 'Token 999999 not found');

    const other = svc.as(`e17-org-${++orgs}`);
    const theirs = await createToken(other);
    const res = await activate(api, theirs.id, newKey());
    assert.equal(res.status, 404);
    assert.equal((await other('GET', `/emsp/tokens/${theirs.id}`)).body.status, 'PROVISIONED');
    assert.equal((await api('GET', `/emsp/tokens/${theirs.id}`)).status, 404);
    assert.equal(fakes[0].received.length, 0);
  });

  test('E17 answers 422 without an Idempotency-Key, listing every failed rule', async () => {
    const api = svc.as(`e17-org-${++orgs}`);
    const token = await createToken(api);
    const missing = await activate(api, token.id);
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.detail, [
      { loc: ['header', 'Idempotency-Key'], msg: 'Field required', type: 'missing' },
    ]);
    assert.equal((await api('GET', `/emsp/tokens/${token.id}`)).body.status, 'PROVISIONED');

    const both = await activate(api, 'abc');
    assert.equal(both.status, 422);
    assert.deepEqual(
      both.body.detail.map((d: any) => [d.loc.join('.'), d.type]),
      [
        ['path.token_id', 'int_parsing'],
        ['header.Idempotency-Key', 'missing'],
      ],
    );
    const zero = await activate(api, 0, newKey());
    assert.equal(zero.status, 422);
    assert.equal(zero.body.detail[0].type, 'greater_than_equal');
    const tooLong = await activate(api, token.id, 'k'.repeat(256));
    assert.equal(tooLong.status, 422);
    assert.equal(tooLong.body.detail[0].type, 'string_too_long');
  });

  test('E17 answers 401 without a bearer token', async () => {
    const res = await svc.request('POST', '/emsp/tokens/1/activate', {
      headers: { 'Idempotency-Key': newKey() },
    });
    assert.equal(res.status, 401);
  });
});
