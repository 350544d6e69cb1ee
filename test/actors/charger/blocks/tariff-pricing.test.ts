// The cost of a session under a 2.1 tariff (blocks/tariff-pricing.ts), pure: each dimension, its
// tiers, stacked taxes, minimum and maximum cost, and the conditions the charger refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cents,
  priceSession,
  unsupportedCondition,
  withTax,
  type Tariff,
} from '../../../../actors/charger/blocks/tariff-pricing.ts';

const VAT = [{ type: 'VAT', tax: 20 }];
const TARIFF: Tariff = {
  tariffId: 'T-1',
  currency: 'EUR',
  fixedFee: { prices: [{ priceFixed: 1 }], taxRates: VAT },
  energy: { prices: [{ priceKwh: 0.3 }], taxRates: VAT },
  chargingTime: { prices: [{ priceMinute: 0.02 }], taxRates: VAT },
  idleTime: { prices: [{ priceMinute: 0.1 }], taxRates: VAT },
};

test('I12 each dimension: 1.00 fixed, 10 kWh at 0.30, 50 min charging at 0.02, 10 min idle at 0.10, 20 % VAT', () => {
  const c = priceSession(TARIFF, { energyWh: 10_000, durationS: 3600, idleS: 600 });
  assert.equal(c.typeOfCost, 'NormalCost');
  assert.equal(cents(c.fixed!.exclTax), 1);
  assert.equal(cents(c.energy!.exclTax), 3);
  assert.equal(cents(c.chargingTime!.exclTax), 1);
  assert.equal(cents(c.idleTime!.exclTax), 1);
  assert.equal(cents(c.total.exclTax), 6);
  assert.equal(cents(c.total.inclTax), 7.2);
});

test('I12 energy tiers by minEnergy/maxEnergy: each part of the energy at the first element whose range holds it', () => {
  const t: Tariff = {
    tariffId: 'T-2',
    currency: 'EUR',
    energy: {
      prices: [
        { priceKwh: 0.5, conditions: { maxEnergy: 5000 } },
        { priceKwh: 0.25, conditions: { minEnergy: 5000 } },
      ],
    },
  };
  // 5 kWh at 0.50 + 3 kWh at 0.25
  assert.equal(cents(priceSession(t, { energyWh: 8000, durationS: 60, idleS: 0 }).total.exclTax), 3.25);
  assert.equal(cents(priceSession(t, { energyWh: 2000, durationS: 60, idleS: 0 }).total.exclTax), 1);
});

test('I12 idle time tiers: free for the first 10 minutes, then 0.20 a minute', () => {
  const t: Tariff = {
    tariffId: 'T-3',
    currency: 'EUR',
    idleTime: { prices: [{ priceMinute: 0, conditions: { maxIdleTime: 600 } }, { priceMinute: 0.2 }] },
  };
  assert.equal(cents(priceSession(t, { energyWh: 0, durationS: 1800, idleS: 900 }).total.exclTax), 1);
  assert.equal(priceSession(t, { energyWh: 0, durationS: 1800, idleS: 300 }).total.exclTax, 0);
});

test('I12 stacked taxes: stack 0 on the net price, stack 1 on the price with stack 0', () => {
  const rates = [
    { type: 'State', tax: 10 },
    { type: 'City', tax: 5 },
    { type: 'Federal', tax: 10, stack: 1 },
  ];
  // 100 * 1.15 * 1.10
  assert.equal(cents(withTax(100, rates)), 126.5);
  assert.equal(withTax(100, undefined), 100);
});

test('I12 minimum and maximum cost replace the sum, with the type of cost saying so', () => {
  const t: Tariff = {
    ...TARIFF,
    minCost: { exclTax: 5, inclTax: 6 },
    maxCost: { exclTax: 20, taxRates: VAT },
  };
  const low = priceSession(t, { energyWh: 1000, durationS: 60, idleS: 0 });
  assert.equal(low.typeOfCost, 'MinCost');
  assert.deepEqual(low.total, { exclTax: 5, inclTax: 6 });
  const high = priceSession(t, { energyWh: 100_000, durationS: 3600, idleS: 0 });
  assert.equal(high.typeOfCost, 'MaxCost');
  assert.equal(cents(high.total.inclTax), 24);
  // The dimensions are still reported as they were.
  assert.equal(cents(high.energy!.exclTax), 30);
});

test('I07 conditions the charger cannot price are named: time of day, power, fixed fee conditions', () => {
  assert.equal(unsupportedCondition(TARIFF), undefined);
  assert.equal(
    unsupportedCondition({
      ...TARIFF,
      energy: { prices: [{ priceKwh: 0.3, conditions: { startTimeOfDay: '08:00', endTimeOfDay: '18:00' } }] },
    }),
    'energy.startTimeOfDay',
  );
  assert.equal(
    unsupportedCondition({
      ...TARIFF,
      chargingTime: { prices: [{ priceMinute: 1, conditions: { minPower: 5000 } }] },
    }),
    'chargingTime.minPower',
  );
  assert.equal(
    unsupportedCondition({
      ...TARIFF,
      fixedFee: { prices: [{ priceFixed: 1, conditions: { paymentBrand: 'X' } }] },
    }),
    'fixedFee.paymentBrand',
  );
});
