// eMSP tokens (interface.md): creation, read, and the status changes beyond E17.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startFakeOcpiPartner, type FakeOcpiPartner } from '../support/fake-ocpi-partner.ts';
import { EMSP_TEST_ENV, aToken, activate, createToken, newKey, registerPartner } from './emsp-fixtures.ts';

describe(`eMSP tokens (${MODE})`, () => {
  let svc: TestService;
  let cpo: FakeOcpiPartner;

  before(async () => {
    svc = await startTestService({ env: EMSP_TEST_ENV });
    cpo = await startFakeOcpiPartner();
  });
  after(async () => {
    await cpo.close();
    await svc.close();
  });

  test('POST /emsp/tokens answers 201 with a PROVISIONED token in the spec shape', async () => {
    const api = svc.as('tokens-a');
    const body = aToken({
      type: 'APP_USER',
      whitelist: 'ALWAYS',
      country_code: 'nl',
      party_id: 'abc',
      group_id: 'family-1',
      valid_from: '2026-01-01T00:00:00Z',
      valid_until: '2027-01-01T00:00:00Z',
      metadata: { plan: 'basic' },
    });
    const res = await api('POST', '/emsp/tokens', { body });
    assert.equal(res.status, 201, res.text);
    const t = res.body;
    assert.equal(typeof t.id, 'number');
    assert.deepEqual(
      {
        organization_id: t.organization_id,
        uid: t.uid,
        type: t.type,
        whitelist: t.whitelist,
        country_code: t.country_code,
        party_id: t.party_id,
        ocpi_version: t.ocpi_version,
        status: t.status,
        group_id: t.group_id,
        valid_from: t.valid_from,
        valid_until: t.valid_until,
        metadata: t.metadata,
        visual_number: t.visual_number,
        status_reason: t.status_reason,
        invalidated_at: t.invalidated_at,
      },
      {
        organization_id: 'tokens-a',
        uid: body.uid,
        type: 'APP_USER',
        whitelist: 'ALWAYS',
        country_code: 'NL',
        party_id: 'ABC',
        ocpi_version: '2.2.1',
        status: 'PROVISIONED',
        group_id: 'family-1',
        valid_from: '2026-01-01T00:00:00.000Z',
        valid_until: '2027-01-01T00:00:00.000Z',
        metadata: { plan: 'basic' },
        visual_number: null,
        status_reason: null,
        invalidated_at: null,
      },
    );
    assert.ok(!Number.isNaN(Date.parse(t.created_at)));
    assert.ok(!Number.isNaN(Date.parse(t.last_updated)));
    const read = await api('GET', `/emsp/tokens/${t.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, t);
  });

  test('POST /emsp/tokens answers 409 for a uid already issued under the same party', async () => {
    const api = svc.as('tokens-a');
    const body = aToken();
    assert.equal((await api('POST', '/emsp/tokens', { body })).status, 201);
    const res = await api('POST', '/emsp/tokens', { body: { ...body, contract_id: 'other' } });
    assert.equal(res.status, 409);
    assert.equal(res.body.detail, `Token uid '${body.uid}' already exists under NL/ABC`);
    // Another organization has its own token space.
    assert.equal((await svc.as('tokens-b')('POST', '/emsp/tokens', { body })).status, 201);
  });

  test('POST /emsp/tokens answers 422 with one entry per failed rule', async () => {
    const api = svc.as('tokens-a');
    const res = await api('POST', '/emsp/tokens', {
      body: {
        ...aToken(),
        type: 'CARD',
        whitelist: 'SOMETIMES',
        country_code: 'NLD',
        party_id: 'AB',
        uid: '',
        language: 'english',
        valid_from: '2027-01-01T00:00:00Z',
        valid_until: '2026-01-01T00:00:00Z',
        colour: 'blue',
      },
    });
    assert.equal(res.status, 422);
    const got = Object.fromEntries(res.body.detail.map((d: any) => [d.loc.join('.'), d.type]));
    assert.deepEqual(got, {
      'body.type': 'enum',
      'body.whitelist': 'enum',
      'body.country_code': 'string_pattern_mismatch',
      'body.party_id': 'string_pattern_mismatch',
      'body.uid': 'string_too_short',
      'body.language': 'string_pattern_mismatch',
      'body.colour': 'extra_forbidden',
    });
    const order = await api('POST', '/emsp/tokens', {
      body: { ...aToken(), valid_from: '2027-01-01T00:00:00Z', valid_until: '2026-01-01T00:00:00Z' },
    });
    assert.deepEqual(order.body.detail, [
      {
        loc: ['body', 'valid_until'],
        msg: 'valid_until must be after valid_from',
        type: 'value_error',
        input: '2026-01-01T00:00:00.000Z',
      },
    ]);
    const missing = await api('POST', '/emsp/tokens', { body: {} });
    assert.deepEqual(
      missing.body.detail.map((d: any) => [d.loc[1], d.type]),
      ['uid', 'type', 'contract_id', 'issuer', 'whitelist', 'country_code', 'party_id'].map((f) => [
        f,
        'missing',
      ]),
    );
  });

  test('GET /emsp/tokens/{token_id} answers 404 for another organization and 422 for a non-integer id', async () => {
    const mine = await createToken(svc.as('tokens-a'));
    const res = await svc.as('tokens-b')('GET', `/emsp/tokens/${mine.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.detail, `Token ${mine.id} not found`);
    const bad = await svc.as('tokens-a')('GET', '/emsp/tokens/1.5');
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['path', 'token_id']);
  });

  test('block, unblock, expire and invalidate follow the state table and push valid false/true', async () => {
    const api = svc.as('tokens-c');
    await registerPartner(api, cpo, 'CPO');
    const token = await createToken(api);
    const change = (event: string, body?: unknown) =>
      api('POST', `/emsp/tokens/${token.id}/${event}`, { headers: { 'Idempotency-Key': newKey() }, body });

    // A PROVISIONED token cannot be blocked.
    const early = await change('block');
    assert.equal(early.status, 400);
    assert.equal(early.body.detail, `Token ${token.id} is PROVISIONED; only an ACTIVE token can be blocked`);

    assert.equal((await activate(api, token.id, newKey())).status, 200);
    const blocked = await change('block', { reason: 'card reported lost' });
    assert.equal(blocked.status, 200);
    assert.equal(blocked.body.status, 'BLOCKED');
    assert.equal(blocked.body.status_reason, 'card reported lost');
    assert.equal(cpo.received.at(-1)!.body.valid, false);

    const unblocked = await change('unblock');
    assert.equal(unblocked.body.status, 'ACTIVE');
    assert.equal(cpo.received.at(-1)!.body.valid, true);

    const expired = await change('expire');
    assert.equal(expired.body.status, 'EXPIRED');
    assert.equal(cpo.received.at(-1)!.body.valid, false);

    const invalidated = await change('invalidate', { reason: 'contract ended' });
    assert.equal(invalidated.body.status, 'INVALIDATED');
    assert.equal(invalidated.body.invalidated_at, invalidated.body.last_updated);
    assert.equal(cpo.received.length, 5);

    const final = await change('invalidate');
    assert.equal(final.status, 400);
    assert.equal(
      final.body.detail,
      `Token ${token.id} is INVALIDATED; only a PROVISIONED, ACTIVE, BLOCKED or EXPIRED token can be invalidated`,
    );
    const extra = await change('block', { reason: 'x', why: 'y' });
    assert.equal(extra.status, 422);
    assert.deepEqual(extra.body.detail[0].loc, ['body', 'why']);
  });

  test('invalidating a PROVISIONED token pushes nothing: partners never knew it', async () => {
    const api = svc.as('tokens-d');
    const quiet = await startFakeOcpiPartner();
    try {
      await registerPartner(api, quiet, 'CPO');
      const token = await createToken(api);
      const res = await api('POST', `/emsp/tokens/${token.id}/invalidate`, {
        headers: { 'Idempotency-Key': newKey() },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'INVALIDATED');
      assert.equal(quiet.received.length, 0);
    } finally {
      await quiet.close();
    }
  });
});
