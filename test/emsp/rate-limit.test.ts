// The per-organization rate limit of interface.md on the /emsp, /ocpi and /roaming areas.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';

describe(`eMSP and roaming rate limit (${MODE})`, () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService({
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2', OCPI_TIMEOUT_MS: '300' },
    });
  });
  after(() => svc.close());

  test('E17 E18 E19 E26 and /roaming/partners answer 429 with Retry-After past the burst', async () => {
    const requests: Array<[string, string, Record<string, string>]> = [
      ['POST', '/emsp/tokens/1/activate', { 'Idempotency-Key': 'k' }],
      ['POST', '/emsp/tenant/emp-identities', { 'Idempotency-Key': 'k' }],
      ['GET', '/emsp/tariffs/T?country_code=DE&party_id=ABC', {}],
      ['PUT', '/ocpi/cpo/221/sessions/s/charging-profile?partner_id=1', {}],
      ['GET', '/roaming/partners', {}],
    ];
    for (const [i, [method, path, headers]] of requests.entries()) {
      const api = svc.as(`limited-${i}`);
      const statuses: number[] = [];
      let limited;
      for (let n = 0; n < 3; n++) {
        const res = await api(method, path, { headers });
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      assert.notEqual(statuses[0], 429, `${path} first request`);
      assert.notEqual(statuses[1], 429, `${path} second request`);
      assert.equal(statuses[2], 429, `${path} third request`);
      assert.equal(limited!.headers.get('retry-after'), '1');
      assert.match(limited!.body.detail, /^Rate limit reached; retry after 1 s$/);
    }
  });

  test('the limit is per organization', async () => {
    const a = svc.as('limit-a');
    for (let n = 0; n < 3; n++) await a('GET', '/roaming/partners');
    assert.equal((await a('GET', '/roaming/partners')).status, 429);
    assert.equal((await svc.as('limit-b')('GET', '/roaming/partners')).status, 200);
  });
});
