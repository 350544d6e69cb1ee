// The one write-behind schedule: one write per batch, never two at once, nothing while idle,
// a failed write retried, flush() waits for what is pending.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchWriter } from '../../../engine/platform/db/batch-writer.ts';
import { createLogger } from '../../../engine/platform/log/logger.ts';
import { loadConfig } from '../../../engine/platform/config/config.ts';

const log = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

function writerOver(opts: { delayMs: number; failTimes?: number; writeMs?: number }) {
  const buffer: number[] = [];
  const batches: number[][] = [];
  let running = 0;
  let overlapped = false;
  let failures = opts.failTimes ?? 0;
  const batch = new BatchWriter({
    name: 'test',
    log,
    delayMs: opts.delayMs,
    retryMs: 5,
    pending: () => buffer.length > 0,
    async write() {
      running++;
      if (running > 1) overlapped = true;
      const rows = buffer.splice(0);
      try {
        if (opts.writeMs) await new Promise((r) => setTimeout(r, opts.writeMs));
        if (failures > 0) {
          failures--;
          buffer.unshift(...rows);
          throw new Error('database away');
        }
        batches.push(rows);
      } finally {
        running--;
      }
    },
  });
  const add = (n: number, urgent = false) => {
    buffer.push(n);
    batch.schedule(urgent);
  };
  return { batch, add, batches, overlapped: () => overlapped };
}

test('what is scheduled in one turn is written in one batch', async () => {
  const w = writerOver({ delayMs: 0 });
  w.add(1);
  w.add(2);
  w.add(3);
  await w.batch.flush();
  assert.deepEqual(w.batches, [[1, 2, 3]]);
});

test('nothing is written while nothing is scheduled', async () => {
  const w = writerOver({ delayMs: 0 });
  await new Promise((r) => setTimeout(r, 20));
  await w.batch.flush();
  assert.deepEqual(w.batches, []);
});

test('writes never overlap: what arrives during a write goes into the next one', async () => {
  const w = writerOver({ delayMs: 0, writeMs: 20 });
  w.add(1);
  await new Promise((r) => setImmediate(r));
  w.add(2);
  w.add(3);
  await w.batch.flush();
  assert.deepEqual(w.batches, [[1], [2, 3]]);
  assert.equal(w.overlapped(), false);
});

test('a failed write keeps its rows and is retried', async () => {
  const w = writerOver({ delayMs: 0, failTimes: 2 });
  w.add(7);
  for (let i = 0; i < 50 && w.batches.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(w.batches, [[7]]);
});

test('an urgent schedule does not wait for the delay', async () => {
  const w = writerOver({ delayMs: 60_000 });
  w.add(1, true);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(w.batches, [[1]]);
});

test('flush writes what waits for a delayed write at once', async () => {
  const w = writerOver({ delayMs: 60_000 });
  w.add(1);
  w.add(2);
  await w.batch.flush();
  assert.deepEqual(w.batches, [[1, 2]]);
});
