// The CPO routes share the per-organization token bucket of interface.md: 429 with Retry-After.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';

describe('CPO rate limit', () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
  });
  after(() => svc.close());

  const routes: Array<[string, string]> = [
    ['GET', '/cpo/locations/L1'],
    ['PATCH', '/cpo/locations/L1'],
    ['POST', '/cpo/charge-points'],
    ['POST', '/cpo/charge-points/CP-1/reboot'],
    ['GET', '/cpo/token-groups/1/locations'],
    ['DELETE', '/cpo/voucher-groups/1'],
    ['GET', '/cpo/tariff-publisher/public-key'],
  ];

  for (const [method, path] of routes) {
    test(`${method} ${path} answers 429 with Retry-After once the organization's burst is spent`, async () => {
      const as = svc.as(`org-${method}-${path}`);
      await as('GET', '/health/ready'); // the organization's token, made before the burst
      // All three at once, so that no token comes back (1 a second) on a slow machine.
      const answers = await Promise.all(
        [0, 1, 2].map(() => as(method, path, method === 'GET' ? {} : { body: {} })),
      );
      const limitedAnswers = answers.filter((a) => a.status === 429);
      assert.equal(limitedAnswers.length, 1, answers.map((a) => a.status).join());
      const limited = limitedAnswers[0];
      assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.equal(typeof limited.body.detail, 'string');
    });
  }

  test('the bucket is per organization: another organization is not limited', async () => {
    const spent = svc.as('busy-org');
    for (let i = 0; i < 3; i++) await spent('GET', '/cpo/tariff-publisher/public-key');
    const other = await svc.as('quiet-org')('GET', '/cpo/tariff-publisher/public-key');
    assert.equal(other.status, 404);
  });
});
