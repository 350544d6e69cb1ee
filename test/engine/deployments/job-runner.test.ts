// The job runner: chunks of targets per step, progress after each chunk, and serial kinds (location
// deployments) one job after another, so that ten locations posted at once do not boot together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { JobRunner, type JobStep } from '../../../engine/deployments/job-runner.ts';
import type { Job, JobStore } from '../../../engine/deployments/job-store.ts';

/** The runner's view of the job table, kept in memory: what progress it wrote. */
function progressLog() {
  const writes: Array<{ id: string; done: number; finished: boolean }> = [];
  const store = {
    progress: async (id: string, done: number, finished: boolean) => {
      writes.push({ id, done, finished });
      return true;
    },
    claim: async () => [],
  } as unknown as JobStore;
  return { store, writes };
}

const job = (id: string, kind: Job['kind'], targets: number[], location = `loc-${id}`): Job => ({
  id,
  organization_id: 'org',
  kind,
  location_id: location,
  action: null,
  targets,
  done: 0,
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('a job runs its targets a chunk at a time and writes its progress after each chunk', async () => {
  const { store, writes } = progressLog();
  const seen: unknown[][] = [];
  const step: JobStep = { run: async (_job, targets) => void seen.push(targets), chunk: 2 };
  const runner = new JobRunner(store, { deploy_location: step, runtime_op: step }, pino({ level: 'silent' }));
  runner.run(job('a', 'runtime_op', [1, 2, 3, 4, 5]));
  for (let i = 0; i < 20 && writes.length < 3; i++) await tick();
  assert.deepEqual(seen, [[1, 2], [3, 4], [5]]);
  assert.deepEqual(writes, [
    { id: 'a', done: 2, finished: false },
    { id: 'a', done: 4, finished: false },
    { id: 'a', done: 5, finished: true },
  ]);
});

test('serial jobs run one after another; a queued one cancelled with its location never starts', async () => {
  const { store } = progressLog();
  const order: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const serial: JobStep = {
    run: async (j) => {
      order.push(`${j.id} start`);
      if (j.id === 'first') await gate;
      order.push(`${j.id} end`);
    },
    chunk: 10,
    serial: true,
  };
  const other: JobStep = { run: async (j) => void order.push(`${j.id} ran`), chunk: 10 };
  const runner = new JobRunner(
    store,
    { deploy_location: serial, runtime_op: other },
    pino({ level: 'silent' }),
  );
  runner.run(job('first', 'deploy_location', [1]));
  runner.run(job('second', 'deploy_location', [1]));
  runner.run(job('dropped', 'deploy_location', [1], 'loc-gone'));
  runner.run(job('fanout', 'runtime_op', [1]));
  for (let i = 0; i < 5; i++) await tick();
  assert.deepEqual(order, ['first start', 'fanout ran'], 'the second waits; other kinds do not');
  const cancelled = runner.cancelLocation('loc-gone');
  release();
  await cancelled;
  for (let i = 0; i < 5; i++) await tick();
  assert.deepEqual(order, ['first start', 'fanout ran', 'first end', 'second start', 'second end']);
});

test('a job another node has taken over (its progress write finds the job no longer this node’s) stops after the chunk under way', async () => {
  const writes: number[] = [];
  const store = {
    progress: async (_id: string, done: number) => {
      writes.push(done);
      return false; // another node holds the job now
    },
    claim: async () => [],
  } as unknown as JobStore;
  const seen: unknown[][] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const step: JobStep = {
    run: async (_job, targets) => {
      seen.push(targets);
      if (seen.length === 2) await gate; // the second chunk runs while the first's progress is written
    },
    chunk: 2,
  };
  const runner = new JobRunner(store, { deploy_location: step, runtime_op: step }, pino({ level: 'silent' }));
  runner.run(job('taken', 'runtime_op', [1, 2, 3, 4, 5, 6]));
  for (let i = 0; i < 10; i++) await tick();
  release();
  await runner.close();
  assert.deepEqual(seen, [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(writes, [2], 'no progress is written for a job that is no longer this node’s');
});
