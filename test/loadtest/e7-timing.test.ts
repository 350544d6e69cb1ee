// --via-api prints how long each E7 call took, the figure the scale-out target names (E7 with
// 1,000 chargers while a fleet boots).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeE7 } from '../../tools/loadtest/run-via-api.ts';

test('E7 timings: the count, the largest call, the median and the slowest, then each in order', () => {
  const line = describeE7([
    { seconds: 0.12, chargers: 1000 },
    { seconds: 0.48, chargers: 1000 },
    { seconds: 0.2, chargers: 500 },
  ]);
  assert.equal(
    line,
    'E7 answered 3 calls of up to 1000 chargers: median 0.20 s, max 0.48 s (in order: 0.12 0.48 0.20)',
  );
});

test('E7 timings of a run that posted nothing say so', () => {
  assert.equal(describeE7([]), 'E7: no call');
});
