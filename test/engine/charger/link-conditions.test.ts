// The fault layer of a charger's link on its own: a fake wire, frames fed by hand, and the
// message-log items it writes. Seeded faults are compared across runs with different pacing.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { LinkFaults, type FaultyWire, type LinkConditions } from '../../../engine/charger/link-conditions.ts';

const both = (n: number) => ({ to_csms: n, from_csms: n });
const conditions = (c: Partial<LinkConditions>): LinkConditions => ({
  latency_ms: both(0),
  jitter_ms: both(0),
  drop: both(0),
  duplicate: both(0),
  reorder_window_ms: 0,
  unanswered: 0,
  half_open: false,
  seed: 1,
  ...c,
});

interface Injected {
  direction: string;
  messageId: string | null;
  kind: string;
}

function harness(c: Partial<LinkConditions>, identity = 'CP-1') {
  const written: string[] = [];
  const delivered: string[] = [];
  const injected: Injected[] = [];
  const halfOpen: boolean[] = [];
  const wire: FaultyWire = {
    write: (t) => written.push(t),
    deliver: (t) => delivered.push(t),
    setHalfOpen: (on) => halfOpen.push(on),
  };
  const faults = new LinkFaults(
    identity,
    conditions(c),
    (direction, _text, _type, messageId, _a, _e, kind) => {
      if (kind) injected.push({ direction, messageId, kind });
    },
  );
  faults.attach(wire);
  return { faults, wire, written, delivered, injected, halfOpen };
}

const call = (n: number) => `[2,"m${n}","Heartbeat",{}]`;
const answer = (n: number) => `[3,"c${n}",{}]`;

/** 200 frames each way, interleaved as `pattern` says, with awaits (or none) between them. */
async function run(seed: number, pause: (i: number) => Promise<void> | void, identity = 'CP-1') {
  const h = harness(
    { seed, drop: both(0.1), duplicate: both(0.05), unanswered: 0.2, reorder_window_ms: 0 },
    identity,
  );
  for (let i = 0; i < 200; i++) {
    h.faults.out(call(i));
    h.faults.in(answer(i));
    await pause(i);
  }
  return h.injected;
}

test('the same seed gives the same faults in the same order, however the frames are spaced', async () => {
  const first = await run(42, () => undefined);
  // Another pacing: every direction's n-th frame meets the same fate.
  const second = await run(42, (i) => (i % 17 === 0 ? sleep(1) : undefined));
  assert.ok(first.length > 40, `expected a fair number of faults, got ${first.length}`);
  assert.deepEqual(second, first);
  assert.deepEqual(new Set(first.map((f) => f.kind)), new Set(['drop', 'duplicate', 'unanswered']));
  // Another seed, or the same seed on another charger, gives another sequence.
  assert.notDeepEqual(await run(43, () => undefined), first);
  assert.notDeepEqual(await run(42, () => undefined, 'CP-2'), first);
});

test('the interleaving of the two directions does not change either direction’s faults', () => {
  const a = harness({ seed: 7, drop: both(0.3) });
  const b = harness({ seed: 7, drop: both(0.3) });
  for (let i = 0; i < 50; i++) a.faults.out(call(i));
  for (let i = 0; i < 50; i++) a.faults.in(call(100 + i));
  for (let i = 0; i < 50; i++) {
    b.faults.in(call(100 + i));
    b.faults.out(call(i));
  }
  const sorted = (x: Injected[]) =>
    [...x].sort((p, q) => String(p.messageId).localeCompare(String(q.messageId)));
  assert.deepEqual(sorted(b.injected), sorted(a.injected));
});

test('no conditions in effect: frames go straight through, synchronously and in order', () => {
  const h = harness({});
  for (let i = 0; i < 5; i++) h.faults.out(call(i));
  h.faults.in(answer(1));
  assert.deepEqual(h.written, [0, 1, 2, 3, 4].map(call));
  assert.deepEqual(h.delivered, [answer(1)]);
  assert.deepEqual(h.injected, []);
});

test('drop 1 loses every frame of its direction, each a log item', () => {
  const h = harness({ drop: { to_csms: 1, from_csms: 0 } });
  h.faults.out(call(1));
  h.faults.in(answer(1));
  assert.deepEqual(h.written, []);
  assert.deepEqual(h.delivered, [answer(1)]);
  assert.deepEqual(h.injected, [{ direction: 'out', messageId: 'm1', kind: 'drop' }]);
});

test('duplicate 1 sends each frame twice, the second copy logged', () => {
  const h = harness({ duplicate: { to_csms: 1, from_csms: 0 } });
  h.faults.out(call(1));
  assert.deepEqual(h.written, [call(1), call(1)]);
  assert.deepEqual(h.injected, [{ direction: 'out', messageId: 'm1', kind: 'duplicate' }]);
});

test('unanswered withholds answers only, in both directions', () => {
  const h = harness({ unanswered: 1 });
  h.faults.out(call(1));
  h.faults.out(answer(2));
  h.faults.in(call(3));
  h.faults.in(`[4,"c4","GenericError","",{}]`);
  assert.deepEqual(h.written, [call(1)]);
  assert.deepEqual(h.delivered, [call(3)]);
  assert.deepEqual(
    h.injected.map((i) => `${i.direction} ${i.messageId} ${i.kind}`),
    ['out c2 unanswered', 'in c4 unanswered'],
  );
});

test('latency holds frames in order; jitter never reorders them without a reorder window', async () => {
  const h = harness({ latency_ms: both(20), jitter_ms: both(15) });
  const started = performance.now();
  for (let i = 0; i < 20; i++) h.faults.out(call(i));
  assert.deepEqual(h.written, []);
  await sleep(60);
  assert.deepEqual(
    h.written,
    Array.from({ length: 20 }, (_, i) => call(i)),
  );
  assert.ok(performance.now() - started >= 20);
  assert.deepEqual(h.injected, []);
});

test('a reorder window lets frames overtake each other, each overtaking frame logged', async () => {
  const h = harness({ reorder_window_ms: 30, seed: 3 });
  for (let i = 0; i < 30; i++) h.faults.out(call(i));
  await sleep(60);
  assert.equal(h.written.length, 30);
  assert.notDeepEqual(
    h.written,
    Array.from({ length: 30 }, (_, i) => call(i)),
  );
  assert.ok(h.injected.length > 0 && h.injected.every((i) => i.kind === 'reorder'));
});

test('half-open: nothing passes, the socket is told, and the condition ends with its connection', () => {
  const h = harness({ half_open: true });
  assert.deepEqual(h.halfOpen, [true]);
  h.faults.out(call(1));
  h.faults.in(call(2));
  assert.deepEqual([h.written, h.delivered], [[], []]);
  assert.deepEqual(
    h.injected.map((i) => i.kind),
    ['half_open', 'half_open'],
  );
  h.faults.detach(h.wire, true);
  assert.equal(h.faults.conditions.half_open, false);
  // The next connection is clean.
  h.faults.attach(h.wire);
  h.faults.out(call(3));
  assert.deepEqual(h.written, [call(3)]);
});

test('clearing the conditions sends what was held at once; a lost connection loses it', () => {
  const a = harness({ latency_ms: both(1000) });
  a.faults.out(call(1));
  a.faults.detach(a.wire, false);
  assert.deepEqual(a.written, [call(1)]);
  const b = harness({ latency_ms: both(1000) });
  b.faults.out(call(1));
  b.faults.detach(b.wire, true);
  assert.deepEqual(b.written, []);
});
