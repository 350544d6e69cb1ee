// The EV battery model (core/ev-battery.ts): the taper a DC session follows, and the pack's voltage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { msUntilFull, packVoltage, taperFactor } from '../../../../actors/charger/core/ev-battery.ts';

test('a battery takes its full power up to 80 % SoC, then less and less, and nothing once full', () => {
  assert.deepEqual(
    [0, 50, 80, 90, 99, 100].map((soc) => Number(taperFactor(soc).toFixed(3))),
    [1, 1, 1, 0.55, 0.145, 0],
  );
});

test("the pack's voltage rises with the charge", () => {
  assert.deepEqual([0, 50, 100].map(packVoltage), [340, 375, 410]);
});

test('a battery at 90 % of 20 kWh fills in 2 minutes at 60 kW (and never without power)', () => {
  assert.equal(msUntilFull(90, 20_000, 60_000), 120_001);
  assert.equal(msUntilFull(90, 20_000, 0), undefined);
});
