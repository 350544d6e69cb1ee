// Oversized strings, numbers and lists are a 422 naming the field, before anything reaches the
// database (an integer beyond a column's range answered 500 before). One row per bound.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';

interface Case {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  loc: Array<string | number>;
  type: string;
}

const many = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item);

const CASES: Case[] = [
  {
    name: 'a charge point with more than 50 capabilities',
    method: 'POST',
    path: '/cpo/charge-points',
    body: { charge_point_id: 'BND-1', capabilities: many(51, 'RFID') },
    loc: ['body', 'capabilities'],
    type: 'too_long',
  },
  {
    name: 'a charge point of a billion kW',
    method: 'POST',
    path: '/cpo/charge-points',
    body: { charge_point_id: 'BND-1', max_power_kw: 1e9 },
    loc: ['body', 'max_power_kw'],
    type: 'less_than_equal',
  },
  {
    name: 'an expected_revision beyond the integer column',
    method: 'PATCH',
    path: '/cpo/locations/BND-LOC',
    body: { expected_revision: 2 ** 31 },
    loc: ['body', 'expected_revision'],
    type: 'less_than_equal',
  },
  {
    name: 'a location image URL of 3,000 characters',
    method: 'PATCH',
    path: '/cpo/locations/BND-LOC',
    body: { images: [{ url: `https://x.test/${'a'.repeat(3000)}`, category: 'OTHER', type: 'png' }] },
    loc: ['body', 'images', 0, 'url'],
    type: 'string_too_long',
  },
  {
    name: 'a location with 51 facilities',
    method: 'PATCH',
    path: '/cpo/locations/BND-LOC',
    body: { facilities: many(51, 'CAFE') },
    loc: ['body', 'facilities'],
    type: 'too_long',
  },
  {
    name: 'an E20 offset past a billion',
    method: 'GET',
    path: '/cpo/token-groups/1/locations?offset=2000000000',
    loc: ['query', 'offset'],
    type: 'less_than_equal',
  },
  {
    name: 'an E20 group id of 0',
    method: 'GET',
    path: '/cpo/token-groups/0/locations',
    loc: ['path', 'id'],
    type: 'greater_than_equal',
  },
  {
    name: 'token metadata of 51 keys',
    method: 'POST',
    path: '/emsp/tokens',
    body: { metadata: Object.fromEntries(many(51, 0).map((_v, i) => [`k${i}`, i])) },
    loc: ['body', 'metadata'],
    type: 'value_error',
  },
  {
    name: 'a tariff of 101 elements',
    method: 'PUT',
    path: '/emsp/tariffs/BND-T',
    body: { elements: many(101, { price_components: [{ type: 'ENERGY', price: '0.25', step_size: 1 }] }) },
    loc: ['body', 'elements'],
    type: 'too_long',
  },
  {
    name: 'a tariff price of 100 digits',
    method: 'PUT',
    path: '/emsp/tariffs/BND-T',
    body: { min_price: { excl_vat: '1'.repeat(100) } },
    loc: ['body', 'min_price', 'excl_vat'],
    type: 'string_too_long',
  },
  {
    name: 'an E1 page past a million',
    method: 'GET',
    path: '/evcharger/catalog?page=1000001',
    loc: ['query', 'page'],
    type: 'less_than_equal',
  },
  {
    name: 'an E2 brand slug of 200 characters',
    method: 'GET',
    path: `/evcharger/catalog/${'a'.repeat(200)}/models`,
    loc: ['path', 'brand_slug'],
    type: 'string_too_long',
  },
];

describe(`bounds on strings, numbers and lists (${MODE})`, () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  for (const c of CASES)
    test(`${c.name} is a 422 at ${c.loc.join('.')}`, async () => {
      const res = await svc.as('org-bounds')(c.method, c.path, { body: c.body });
      assert.equal(res.status, 422, res.text.slice(0, 300));
      const hit = res.body.detail.find(
        (d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(c.loc),
      );
      assert.ok(hit, `no issue at ${JSON.stringify(c.loc)}: ${res.text.slice(0, 500)}`);
      assert.equal(hit.type, c.type, JSON.stringify(hit));
    });
});
