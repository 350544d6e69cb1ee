// The Idempotency-Key store on the service's database, with a hand-driven clock: expiry,
// 5xx answers not kept, abandoned claims, and duplicates that wait for the first answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { IdempotencyStore } from '../../engine/platform/idempotency/idempotency-store.ts';

describe(`idempotency keys (${MODE})`, () => {
  let svc: TestService;
  let t = Date.parse('2026-06-01T00:00:00Z');
  const clock = () => t;
  let store: IdempotencyStore;
  let acts = 0;
  let sleeps = 0;
  // While false, a waiting duplicate polls without time passing (it cannot give up meanwhile).
  let timePasses = true;
  const act =
    (status = 201) =>
    async () => {
      acts += 1;
      return { status, body: { n: acts } };
    };

  before(async () => {
    svc = await startTestService();
    // Sleeping advances the clock: a waiting duplicate sees time pass without real waiting.
    store = new IdempotencyStore(svc.service.platform.db, {
      ttlSeconds: 60,
      waitMs: 1_000,
      pollMs: 100,
      now: clock,
      sleep: async (ms) => {
        sleeps += 1;
        if (timePasses) t += ms;
        await new Promise((r) => setImmediate(r));
      },
    });
  });
  after(() => svc.close());

  /** Until the first request's claim is in the database (it is written before the action runs). */
  async function claimed(key: string): Promise<void> {
    for (;;) {
      const { rows } = await svc.service.platform.db.query(
        "SELECT 1 FROM idempotency_keys WHERE organization_id = 'org-1' AND key = $1 AND state = 'in_progress'",
        [key],
      );
      if (rows.length > 0) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  test('the same key and fingerprint replays; another fingerprint is a mismatch', async () => {
    const first = await store.run('org-1', 'k1', 'fp-a', act());
    assert.equal(first.kind, 'fresh');
    const again = await store.run('org-1', 'k1', 'fp-a', act());
    assert.deepEqual(again, {
      kind: 'replayed',
      status: 201,
      body: first.kind === 'fresh' ? first.body : null,
    });
    assert.deepEqual(await store.run('org-1', 'k1', 'fp-b', act()), { kind: 'mismatch' });
    // Keys are per organization.
    assert.equal((await store.run('org-2', 'k1', 'fp-b', act())).kind, 'fresh');
  });

  test('a key expires after ttlSeconds and then acts again', async () => {
    await store.run('org-1', 'k2', 'fp', act());
    t += 59_000;
    assert.equal((await store.run('org-1', 'k2', 'fp', act())).kind, 'replayed');
    t += 1_000;
    assert.equal((await store.run('org-1', 'k2', 'fp-other', act())).kind, 'fresh');
  });

  test('a 5xx answer or a throw is not kept, so the retry acts again', async () => {
    const failed = await store.run('org-1', 'k3', 'fp', act(502));
    assert.equal(failed.kind, 'fresh');
    assert.equal((await store.run('org-1', 'k3', 'fp', act())).kind, 'fresh');

    await assert.rejects(
      store.run('org-1', 'k4', 'fp', async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal((await store.run('org-1', 'k4', 'fp', act())).kind, 'fresh');
  });

  test('a duplicate waits for the running request and replays its answer', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    const first = store.run('org-1', 'k5', 'fp', async () => {
      await gate;
      return { status: 200, body: { done: true } };
    });
    await claimed('k5');
    timePasses = false;
    try {
      const polled = sleeps;
      const second = store.run('org-1', 'k5', 'fp', act());
      while (sleeps === polled) await new Promise((r) => setImmediate(r)); // the duplicate is waiting
      finish();
      assert.deepEqual(await first, { kind: 'fresh', status: 200, body: { done: true } });
      assert.deepEqual(await second, { kind: 'replayed', status: 200, body: { done: true } });
    } finally {
      timePasses = true;
    }
  });

  test('a duplicate gives up with in_progress after waitMs; an abandoned claim is taken over', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    const first = store.run('org-1', 'k6', 'fp', async () => {
      await gate;
      return { status: 200, body: {} };
    });
    await claimed('k6');
    const before = acts;
    assert.deepEqual(await store.run('org-1', 'k6', 'fp', act()), { kind: 'in_progress' });
    assert.equal(acts, before, 'the duplicate did not act');
    // The claim (held 2 x waitMs) has lapsed on the clock: a holder that died frees the key.
    t += 1_000;
    assert.equal((await store.run('org-1', 'k6', 'fp', act())).kind, 'fresh');
    finish();
    await first;
  });
});
