import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KeepaliveWheel, type WheelTimers } from '../../engine/charger/keepalive-wheel.ts';

/** One fake interval the test fires by hand. */
function manualInterval() {
  let tick: (() => void) | null = null;
  const timers: WheelTimers = {
    setInterval: (fn) => {
      tick = fn;
      return 1;
    },
    clearInterval: () => {
      tick = null;
    },
  };
  return {
    timers,
    fire: (n = 1) => {
      for (let i = 0; i < n; i++) tick?.();
    },
    get running() {
      return tick !== null;
    },
  };
}

describe('KeepaliveWheel: many periodic tasks on one timer', () => {
  test('runs each task once per its interval', () => {
    const timer = manualInterval();
    const wheel = new KeepaliveWheel(1000, timer.timers);
    const runs: string[] = [];
    wheel.every(2000, () => runs.push('a'));
    wheel.every(3000, () => runs.push('b'));
    timer.fire(6);
    assert.deepEqual(runs, ['a', 'b', 'a', 'b', 'a']); // ticks 2, 3, 4, 6 (b was due first), 6
  });

  test('tasks added at different ticks stay spread over the interval', () => {
    const timer = manualInterval();
    const wheel = new KeepaliveWheel(1000, timer.timers);
    const runs: string[] = [];
    wheel.every(2000, () => runs.push('early'));
    timer.fire(1);
    wheel.every(2000, () => runs.push('late'));
    timer.fire(4);
    assert.deepEqual(runs, ['early', 'late', 'early', 'late']);
  });

  test('cancel stops a task, also from inside another task of the same tick; the timer stops with the last', () => {
    const timer = manualInterval();
    const wheel = new KeepaliveWheel(1000, timer.timers);
    const runs: string[] = [];
    let cancelB: () => void = () => {};
    const cancelA = wheel.every(1000, () => {
      runs.push('a');
      cancelB();
    });
    cancelB = wheel.every(1000, () => runs.push('b'));
    timer.fire(2);
    assert.deepEqual(runs, ['a', 'a']);
    assert.equal(wheel.size, 1);
    cancelA();
    assert.equal(wheel.size, 0);
    assert.equal(timer.running, false);
  });
});
