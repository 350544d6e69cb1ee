// E19 GET /emsp/tariffs/{tariff_id} and PUT /emsp/tariffs/{tariff_id} (interface.md).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { EMSP_TEST_ENV } from './emsp-fixtures.ts';

const aTariff = (overrides: Record<string, unknown> = {}) => ({
  country_code: 'DE',
  party_id: 'CPO',
  currency: 'EUR',
  type: 'REGULAR',
  tariff_alt_text: [{ language: 'en', text: '0.35 EUR/kWh' }],
  elements: [
    {
      price_components: [
        { type: 'ENERGY', price: '0.35', vat: '19', step_size: 1 },
        { type: 'PARKING_TIME', price: 2, step_size: 900 },
      ],
      restrictions: { start_time: '08:00', end_time: '20:00', day_of_week: ['MONDAY', 'FRIDAY'] },
    },
  ],
  last_updated: '2026-03-01T10:00:00Z',
  ...overrides,
});

describe(`E19 tariffs (${MODE})`, () => {
  let svc: TestService;

  before(async () => {
    svc = await startTestService({ env: EMSP_TEST_ENV });
  });
  after(() => svc.close());

  test('E19 returns a stored tariff in OCPI 2.2.1 shape', async () => {
    const api = svc.as('tariffs-a');
    const put = await api('PUT', '/emsp/tariffs/T-1', { body: aTariff() });
    assert.equal(put.status, 200, put.text);
    const res = await api('GET', '/emsp/tariffs/T-1?country_code=DE&party_id=CPO');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      country_code: 'DE',
      party_id: 'CPO',
      id: 'T-1',
      currency: 'EUR',
      type: 'REGULAR',
      tariff_alt_text: [{ language: 'en', text: '0.35 EUR/kWh' }],
      tariff_alt_url: null,
      min_price: null,
      max_price: null,
      elements: [
        {
          price_components: [
            { type: 'ENERGY', price: '0.35', vat: '19', step_size: 1 },
            { type: 'PARKING_TIME', price: '2', step_size: 900 },
          ],
          restrictions: { start_time: '08:00', end_time: '20:00', day_of_week: ['MONDAY', 'FRIDAY'] },
        },
      ],
      start_date_time: null,
      end_date_time: null,
      energy_mix: null,
      last_updated: '2026-03-01T10:00:00.000Z',
    });
    assert.deepEqual(put.body, res.body);
  });

  test('PUT replaces the tariff; without last_updated the store sets it', async () => {
    const api = svc.as('tariffs-a');
    await api('PUT', '/emsp/tariffs/T-2', { body: aTariff() });
    const { last_updated: _drop, ...withoutTime } = aTariff({
      currency: 'CHF',
      min_price: { excl_vat: '1.00' },
    });
    const put = await api('PUT', '/emsp/tariffs/T-2', { body: withoutTime });
    assert.equal(put.status, 200);
    const res = await api('GET', '/emsp/tariffs/T-2?country_code=de&party_id=cpo');
    assert.equal(res.body.currency, 'CHF');
    assert.deepEqual(res.body.min_price, { excl_vat: '1.00' });
    assert.notEqual(res.body.last_updated, '2026-03-01T10:00:00.000Z');
  });

  test('E19 answers 404 for an unknown tariff, a wrong country_code or party_id, and another organization', async () => {
    const api = svc.as('tariffs-b');
    await api('PUT', '/emsp/tariffs/T-3', { body: aTariff() });
    const unknown = await api('GET', '/emsp/tariffs/NOPE?country_code=DE&party_id=CPO');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.detail, 'Tariff NOPE of DE/CPO not found');
    assert.equal((await api('GET', '/emsp/tariffs/T-3?country_code=NL&party_id=CPO')).status, 404);
    assert.equal((await api('GET', '/emsp/tariffs/T-3?country_code=DE&party_id=XXX')).status, 404);
    assert.equal(
      (await svc.as('tariffs-c')('GET', '/emsp/tariffs/T-3?country_code=DE&party_id=CPO')).status,
      404,
    );
  });

  test('E19 answers 422 without country_code and party_id', async () => {
    const res = await svc.as('tariffs-a')('GET', '/emsp/tariffs/T-1');
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail, [
      { loc: ['query', 'country_code'], msg: 'Field required', type: 'missing' },
      { loc: ['query', 'party_id'], msg: 'Field required', type: 'missing' },
    ]);
  });

  test('PUT answers 422 for an invalid tariff and an id that differs from the path', async () => {
    const api = svc.as('tariffs-a');
    const res = await api('PUT', '/emsp/tariffs/T-4', {
      body: aTariff({
        currency: 'euro',
        type: 'CHEAP',
        elements: [{ price_components: [{ type: 'KWH', price: 'cheap', step_size: 1.5 }] }],
      }),
    });
    assert.equal(res.status, 422);
    const got = Object.fromEntries(res.body.detail.map((d: any) => [d.loc.join('.'), d.type]));
    assert.equal(got['body.currency'], 'string_pattern_mismatch');
    assert.equal(got['body.type'], 'enum');
    assert.equal(got['body.elements.0.price_components.0.type'], 'enum');
    assert.equal(got['body.elements.0.price_components.0.step_size'], 'int_type');
    assert.ok(Object.keys(got).some((k) => k.startsWith('body.elements.0.price_components.0.price')));
    const mismatch = await api('PUT', '/emsp/tariffs/T-4', { body: aTariff({ id: 'T-5' }) });
    assert.equal(mismatch.status, 422);
    assert.deepEqual(mismatch.body.detail[0].loc, ['body', 'id']);
  });
});
