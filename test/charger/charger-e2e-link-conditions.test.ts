// Link conditions (docs/faults.md) on real chargers and sockets against the strict central system:
// what the central system sees matches the condition. Pings every second and a 1 s call timeout,
// so the half-open socket and the dropped transaction message resolve in a few seconds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LinkConditions } from '../../engine/charger/link-conditions.ts';
import type { FrameObserver } from '../../protocols/ocpp/index.ts';
import { VERSIONS, e2eSuite, type E2e } from './e2e-suite.ts';
import type { TrackedCharger } from './tracked-charger.ts';

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
  identity: string;
  direction: string;
  messageId: string | null;
  action: string | null;
  kind: string;
}
const injected: Injected[] = [];
const frameObserver =
  (identity: string): FrameObserver =>
  (direction, _text, _type, messageId, action, _error, kind) => {
    if (kind) injected.push({ identity, direction, messageId, action, kind });
  };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function roundTrips(e: E2e, id: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    assert.deepEqual(await e.call(id, 'ClearCache', {}), { status: 'Accepted' });
    times.push(performance.now() - t0);
  }
  return times;
}

async function charging(e: E2e, c: TrackedCharger): Promise<void> {
  c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
  c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
  await c.until(() => c.ctx().connectors[0].status === 'Charging' && c.ctx().outbox.length === 0);
}

for (const version of VERSIONS)
  e2eSuite(
    version,
    'link conditions',
    (e) => {
      test('latency and jitter: 200 frames each take the set latency of their direction, within 10 %', async (t) => {
        // Two chargers side by side, one clean, one with the condition, their round trips
        // interleaved: what the machine's load adds to both cancels out.
        const clean = e.deploy(`${e.tag}-CLEAN`);
        const id = `${e.tag}-LATENCY`;
        const c = e.deploy(id);
        await Promise.all([e.online(clean), e.online(c)]);
        await Promise.all([e.quiet(clean), e.quiet(c)]);
        // 50 ms per round trip: 20 ms to the central system, 30 ms back, each +-5 ms of jitter.
        e.runtime().setLinkConditions(
          c.actor,
          conditions({ latency_ms: { to_csms: 20, from_csms: 30 }, jitter_ms: both(5), seed: 9 }),
        );
        // 100 round trips: 100 CALLs from the central system and 100 answers, 200 frames.
        const base: number[] = [];
        const slow: number[] = [];
        for (let i = 0; i < 100; i++) {
          base.push(...(await roundTrips(e, `${e.tag}-CLEAN`, 1)));
          slow.push(...(await roundTrips(e, id, 1)));
        }
        const added = median(slow) - median(base);
        t.diagnostic(
          `median round trip ${median(base).toFixed(1)} ms clean, +${added.toFixed(1)} ms with 20 + 30 ms`,
        );
        assert.ok(
          Math.abs(added - 50) <= 5,
          `a round trip took ${added.toFixed(1)} ms more, expected 50 +- 5`,
        );
        e.runtime().setLinkConditions(c.actor, null);
        const after = median(await roundTrips(e, id, 10));
        assert.ok(after < median(base) + 10, `cleared, a round trip still took ${after.toFixed(1)} ms`);
        assert.deepEqual(
          injected.filter((i) => i.identity === id),
          [],
        );
      });

      test('a dropped transaction message is sent again after the call timeout, with a new message id', async () => {
        const id = `${e.tag}-DROP`;
        const c = e.deploy(id);
        await e.online(c);
        await charging(e, c);
        const txAction = e.v16 ? 'StopTransaction' : 'TransactionEvent';
        const before = e.received(id, txAction).length;
        e.runtime().setLinkConditions(c.actor, conditions({ drop: { to_csms: 1, from_csms: 0 } }));
        c.actor.send({ type: 'UNPLUG', connectorId: 1 });
        const dropped = await c.until(() =>
          injected.find((i) => i.identity === id && i.kind === 'drop' && i.action === txAction),
        );
        // The network is back before the charger's call timeout (1 s) runs out.
        e.runtime().setLinkConditions(c.actor, null);
        const [delivered] = (await e.waitReceived(id, txAction, before + 1, 5000)).slice(before);
        const frames = e.fromCharger(id).filter((f) => f[0] === 2 && f[2] === txAction);
        assert.ok(!frames.some((f) => f[1] === dropped.messageId), 'the dropped frame never arrived');
        assert.notEqual(frames.at(-1)[1], dropped.messageId);
        if (e.v16) assert.equal(delivered.params.reason, 'EVDisconnected');
        else assert.equal(delivered.params.eventType, 'Ended');
        await c.until(() => c.ctx().outbox.length === 0);
      });

      test('a duplicated frame arrives twice with the same message id', async () => {
        const id = `${e.tag}-DUPLICATE`;
        const c = e.deploy(id);
        await e.online(c);
        await e.quiet(c);
        e.runtime().setLinkConditions(c.actor, conditions({ duplicate: { to_csms: 1, from_csms: 0 } }));
        await e.call(id, 'TriggerMessage', { requestedMessage: 'Heartbeat' });
        const heartbeats = await e.csms().waitFor(() => {
          const hb = e.fromCharger(id).filter((f) => f[0] === 2 && f[2] === 'Heartbeat');
          return hb.length >= 2 ? hb : undefined;
        });
        e.runtime().setLinkConditions(c.actor, null);
        assert.equal(heartbeats.length, 2);
        assert.equal(heartbeats[0][1], heartbeats[1][1]);
        assert.ok(
          injected.some(
            (i) => i.identity === id && i.kind === 'duplicate' && i.messageId === heartbeats[0][1],
          ),
        );
      });

      test('unanswered: the charger withholds its answer, the central system’s CALL runs into its timeout', async () => {
        const id = `${e.tag}-UNANSWERED`;
        const c = e.deploy(id);
        await e.online(c);
        await e.quiet(c);
        e.runtime().setLinkConditions(c.actor, conditions({ unanswered: 1 }));
        await assert.rejects(e.csms().call(id, 'ClearCache', {}, { timeoutMs: 500 }));
        assert.ok(
          injected.some((i) => i.identity === id && i.kind === 'unanswered' && i.direction === 'out'),
        );
        e.runtime().setLinkConditions(c.actor, null);
        assert.deepEqual(await e.call(id, 'ClearCache', {}), { status: 'Accepted' });
      });

      test('a half-open socket is found dead by the charger’s pings and the charger reconnects', async () => {
        const id = `${e.tag}-HALFOPEN`;
        const c = e.deploy(id);
        await e.online(c);
        await e.quiet(c);
        const stages = c.stageLog().length;
        const t0 = performance.now();
        e.runtime().setLinkConditions(c.actor, conditions({ half_open: true }));
        // Nothing crosses: the charger's heartbeat goes nowhere, logged as such.
        c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
        await c.until(() => injected.some((i) => i.identity === id && i.kind === 'half_open'));
        // WebSocketPingInterval 1 s: no pong within a period, then the next tick ends the socket.
        await c.until(() => c.stageLog().slice(stages).includes('offline:failed:CONNECTION_LOST'), 4000);
        const lost = performance.now() - t0;
        assert.ok(lost <= 3000, `found dead after ${lost.toFixed(0)} ms`);
        await c.until(() => c.ctx().stage === 'online' && c.stageLog().length > stages + 1, 5000);
        // The condition was about that connection: the new one is clean, the rest stays in force.
        assert.equal(e.runtime().linkConditions(c.actor)?.half_open, false);
        assert.deepEqual(await e.call(id, 'ClearCache', {}), { status: 'Accepted' });
        e.runtime().setLinkConditions(c.actor, null);
      });
    },
    { pingIntervalSec: 1, callTimeoutMs: 1000, frameObserver: (identity) => frameObserver(identity) },
  );
