// The one OCPI client against a real partner socket: what crosses the wire and how every
// outcome is classified and mapped to 502/504.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OcpiClient, failureOf, type OcpiCallRecord, type OcpiFailure } from '../../protocols/ocpi/client.ts';
import { startFakeOcpiPartner, type FakeOcpiPartner } from '../support/fake-ocpi-partner.ts';
import { pino } from 'pino';
import { createOcpiClient } from '../../engine/roaming/ocpi-gateway.ts';

const PARTNER = { id: 7, name: 'Acme CPO', token: 'secret-credentials-token' };

describe('OCPI client', () => {
  let partner: FakeOcpiPartner;
  const calls: OcpiCallRecord[] = [];
  let ids = 0;
  // Patient: a loaded machine may take a few hundred ms to answer locally. The timeout test has
  // a quick client of its own.
  const client = new OcpiClient({
    timeoutMs: 10_000,
    newId: () => `req-${++ids}`,
    onCall: (c) => calls.push(c),
  });
  const quick = new OcpiClient({ timeoutMs: 300, newId: () => `req-${++ids}` });
  const send = (body: unknown = { hello: 'world' }, via = client) =>
    via.send({
      partner: { ...PARTNER },
      method: 'PUT',
      url: `${partner.url}/ocpi/2.2.1/tokens/NL/ABC/u1?type=RFID`,
      body,
      correlationId: 'corr-1',
    });

  before(async () => {
    partner = await startFakeOcpiPartner();
  });
  after(() => partner.close());
  beforeEach(() => {
    partner.mode = 'accept';
    partner.received.length = 0;
    calls.length = 0;
  });

  test('sends Authorization: Token, X-Request-ID, X-Correlation-ID and the JSON body', async () => {
    partner.acceptData = { result: 'ACCEPTED' };
    const outcome = await send({ valid: true });
    assert.equal(outcome.kind, 'accepted');
    assert.equal(partner.received.length, 1);
    const got = partner.received[0];
    assert.equal(got.method, 'PUT');
    assert.equal(got.path, '/ocpi/2.2.1/tokens/NL/ABC/u1');
    assert.deepEqual(got.query, { type: 'RFID' });
    assert.equal(got.headers.authorization, 'Token secret-credentials-token');
    assert.equal(got.headers['x-request-id'], outcome.requestId);
    assert.equal(got.headers['x-correlation-id'], 'corr-1');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.deepEqual(got.body, { valid: true });
    if (outcome.kind !== 'accepted') return;
    assert.equal(outcome.httpStatus, 200);
    assert.equal(outcome.ocpiStatusCode, 1000);
    assert.deepEqual(outcome.data, { result: 'ACCEPTED' });
    partner.acceptData = null;
  });

  test('logs each call with its duration and never the credentials token', async () => {
    await send();
    assert.equal(calls.length, 1);
    const [call] = calls;
    assert.equal(call.partnerId, 7);
    assert.equal(call.partner, 'Acme CPO');
    assert.equal(call.outcome, 'accepted');
    assert.equal(call.httpStatus, 200);
    assert.equal(call.ocpiStatusCode, 1000);
    assert.equal(typeof call.durationMs, 'number');
    assert.equal(call.correlationId, 'corr-1');
    assert.doesNotMatch(JSON.stringify(call), /secret-credentials-token/);
  });

  test('HTTP 500 is an http_error mapped to 502 naming the partner and its answer', async () => {
    partner.mode = 'http500';
    const outcome = await send();
    assert.equal(outcome.kind, 'http_error');
    const failure = failureOf('Token push', [{ partner: PARTNER, outcome: outcome as OcpiFailure }]);
    assert.equal(failure.status, 502);
    assert.equal(
      failure.detail,
      "Token push failed: partner 'Acme CPO' (id 7) answered HTTP 500 with OCPI status 3000 'Generic server error'",
    );
  });

  test('OCPI status 2001 on HTTP 200 is rejected, mapped to 502', async () => {
    partner.mode = 'ocpi2001';
    const outcome = await send();
    assert.equal(outcome.kind, 'rejected');
    const failure = failureOf('Token push', [{ partner: PARTNER, outcome: outcome as OcpiFailure }]);
    assert.equal(failure.status, 502);
    assert.match(failure.detail, /answered HTTP 200 with OCPI status 2001 'Invalid or missing parameters'/);
  });

  test('a partner that does not answer in time is a timeout, mapped to 504', async () => {
    partner.mode = 'hang';
    const outcome = await send(undefined, quick);
    assert.equal(outcome.kind, 'timeout');
    assert.equal(partner.received.length, 1);
    const failure = failureOf('Token push', [{ partner: PARTNER, outcome: outcome as OcpiFailure }]);
    assert.equal(failure.status, 504);
    assert.equal(failure.detail, "Token push failed: partner 'Acme CPO' (id 7) did not answer within 300 ms");
  });

  test('an answer without an OCPI envelope is invalid_response, mapped to 502', async () => {
    const plain = new OcpiClient({
      timeoutMs: 300,
      fetch: async () => new Response('<html>hello</html>', { status: 200 }),
    });
    const outcome = await plain.send({
      partner: PARTNER,
      method: 'GET',
      url: 'http://x.invalid/',
      correlationId: 'c',
    });
    assert.equal(outcome.kind, 'invalid_response');
    assert.match(
      failureOf('Call', [{ partner: PARTNER, outcome: outcome as OcpiFailure }]).detail,
      /answered HTTP 200 without an OCPI response envelope/,
    );
  });

  test('a timeout together with another failure is 502, both named', () => {
    const timeout: OcpiFailure = { kind: 'timeout', timeoutMs: 300, requestId: 'a', durationMs: 300 };
    const refused: OcpiFailure = {
      kind: 'unreachable',
      error: 'ECONNREFUSED',
      requestId: 'b',
      durationMs: 1,
    };
    const failure = failureOf('Token push', [
      { partner: PARTNER, outcome: timeout },
      { partner: { id: 8, name: 'Other' }, outcome: refused },
    ]);
    assert.equal(failure.status, 502);
    assert.equal(
      failure.detail,
      "Token push failed: partner 'Acme CPO' (id 7) did not answer within 300 ms; partner 'Other' (id 8) could not be reached (ECONNREFUSED)",
    );
  });

  test('a closed partner is unreachable with the socket error, mapped to 502', async () => {
    const gone = await startFakeOcpiPartner();
    await gone.close();
    const outcome = await client.send({
      partner: PARTNER,
      method: 'GET',
      url: `${gone.url}/x`,
      correlationId: 'c',
    });
    assert.equal(outcome.kind, 'unreachable');
    if (outcome.kind === 'unreachable') assert.equal(outcome.error, 'ECONNREFUSED');
    assert.equal(failureOf('Call', [{ partner: PARTNER, outcome: outcome as OcpiFailure }]).status, 502);
  });
});

describe('OCPI call log of the engine', () => {
  test('each call is logged with partner, outcome and duration, never the credentials token', async () => {
    const lines: string[] = [];
    const capture = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const partner = await startFakeOcpiPartner('http500');
    try {
      const client = createOcpiClient({ timeoutMs: 10_000, log: capture });
      await client.send({
        partner: PARTNER,
        method: 'PUT',
        url: `${partner.url}/t`,
        body: {},
        correlationId: 'c',
      });
      assert.equal(lines.length, 1);
      const entry = JSON.parse(lines[0]);
      assert.equal(entry.msg, 'ocpi call failed');
      assert.equal(entry.level, 40);
      assert.equal(entry.ocpi.partnerId, 7);
      assert.equal(entry.ocpi.outcome, 'http_error');
      assert.equal(entry.ocpi.httpStatus, 500);
      assert.equal(typeof entry.ocpi.durationMs, 'number');
      assert.doesNotMatch(lines[0], /secret-credentials-token/);
    } finally {
      await partner.close();
    }
  });
});
