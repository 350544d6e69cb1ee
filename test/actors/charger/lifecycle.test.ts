// The deployment lifecycle (lifecycle.ts and the state tree): connection, backoff, deadlines,
// STOP/RESTART, and restores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, harness } from './charger-harness.ts';
import { SNAPSHOT_VERSION } from '../../../actors/charger/charger-ports.ts';

for (const version of VERSIONS) {
  test(`${version}: a refused connection is a failed connecting stage with code and hint, then offline`, () => {
    const h = harness(version, { connect: 'manual' });
    h.deploy();
    assert.equal(h.stage(), 'connecting');
    h.link.sendBack!({
      type: 'link.failed',
      code: 'WS_CONNECT_REFUSED',
      hint: 'nothing listens at ws://127.0.0.1:9/ocpp',
    });
    assert.equal(h.stage(), 'offline');
    const failed = h.stages.find((s) => s.outcome === 'failed')!;
    assert.equal(failed.stage, 'connecting');
    assert.equal(failed.code, 'WS_CONNECT_REFUSED');
    assert.equal(failed.hint, 'nothing listens at ws://127.0.0.1:9/ocpp');
    assert.deepEqual(h.stageLog().slice(-1), ['offline:in_progress:WS_CONNECT_REFUSED']);
    h.stop();
  });

  test(`${version}: reconnects back off (1 s, 2 s, ... jittered) until the link opens: recovered`, () => {
    const h = harness(version, { connect: 'manual' });
    h.deploy();
    h.link.sendBack!({ type: 'link.failed', code: 'WS_CONNECT_REFUSED', hint: 'refused' });
    // Backoff 1 s * 2^0 jittered to 75 % with random() = 0.5, then 2 s -> 1.5 s.
    const starts = h.link.starts;
    h.tick(749);
    assert.equal(h.link.starts, starts);
    h.tick(1);
    assert.equal(h.link.starts, starts + 1);
    assert.equal(h.stage(), 'connecting');
    h.link.sendBack!({
      type: 'link.failed',
      code: 'HTTP_401',
      hint: 'the central system refused the credentials',
    });
    h.tick(1_499);
    assert.equal(h.link.starts, starts + 1);
    h.tick(1);
    assert.equal(h.link.starts, starts + 2);
    h.link.sendBack!({ type: 'link.open' });
    assert.equal(h.stage(), 'online');
    assert.deepEqual(h.stageLog().slice(-3), [
      'connecting:in_progress',
      'registering:in_progress',
      'online:recovered',
    ]);
    h.stop();
  });

  test(`${version}: a stage past its deadline is reported stuck once`, () => {
    const h = harness(version, { connect: 'manual', input: { timings: { connectingDeadlineMs: 10_000 } } });
    h.deploy();
    h.tick(9_999);
    assert.equal(h.stages.filter((s) => s.outcome === 'stuck').length, 0);
    h.tick(1);
    const stuck = h.stages.filter((s) => s.outcome === 'stuck');
    assert.equal(stuck.length, 1);
    assert.equal(stuck[0].stage, 'connecting');
    assert.equal(stuck[0].code, 'STAGE_DEADLINE');
    h.tick(60_000);
    assert.equal(h.stages.filter((s) => s.outcome === 'stuck').length, 1);
    assert.equal(h.stage(), 'connecting');
    h.stop();
  });

  test(`${version}: E11 DISCONNECT drops the socket: offline, then it reconnects by itself and reports recovered`, () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'DISCONNECT', commandId: 'cmd-1' });
    assert.equal(h.stage(), 'offline');
    const offline = h.stages.at(-1)!;
    assert.equal(offline.outcome, 'failed');
    assert.equal(offline.code, 'CONNECTION_LOST');
    assert.deepEqual(h.results.at(-1), {
      type: 'command.result',
      commandId: 'cmd-1',
      identity: 'CP-TEST-1',
      command: 'DISCONNECT',
      ok: true,
      payload: { status: 'Accepted' },
    });
    h.tick(750);
    assert.equal(h.stage(), 'online');
    assert.deepEqual(h.stageLog().slice(-4), [
      'offline:failed:CONNECTION_LOST',
      'connecting:in_progress',
      'registering:in_progress',
      'online:recovered',
    ]);
    h.stop();
  });

  test(`${version}: STOP closes the link; RESTART deploys again as attempt 2`, () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'STOP' });
    assert.equal(h.stage(), 'stopped');
    assert.equal(h.link.connected, false);
    h.send({ type: 'RESTART' });
    h.tick(0);
    assert.equal(h.stage(), 'online');
    assert.ok(h.stages.slice(-7).every((s) => s.attempt === 2));
    assert.deepEqual(h.stageLog().slice(-8, -6), ['stopped:succeeded', 'queued:in_progress']);
    h.stop();
  });

  test(`${version}: a stopped charger holds no timer, not even a transaction's meter; START runs them again`, () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
    assert.ok(h.ctx().timers.meter, 'the meter runs while charging');
    const scheduled = () => Object.keys(h.actor.system.getSnapshot()._scheduledEvents);
    h.send({ type: 'STOP' });
    assert.ok(h.ctx().timers.meter, 'the meter is kept for START');
    assert.deepEqual(scheduled(), []);
    h.send({ type: 'START' });
    h.tick(0);
    const samples = () =>
      h.calls.filter((c) => c.action === 'MeterValues' || c.payload.eventType === 'Updated').length;
    const [beats, sampled] = [h.callsOf('Heartbeat').length, samples()];
    h.tick(300_000);
    assert.equal(h.callsOf('Heartbeat').length, beats + 1);
    assert.ok(samples() > sampled, 'the meter samples again');
    h.stop();
  });

  test(`${version}: a persisted snapshot restores: RESUME reconnects, the session and its timers go on`, () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
    assert.equal(h.connector(1).status, 'Charging');
    const persisted = h.restart();
    assert.equal(persisted.context.snapshotVersion, SNAPSHOT_VERSION);
    assert.ok(
      JSON.stringify(persisted).length < 8_000,
      `snapshot is ${JSON.stringify(persisted).length} bytes`,
    );
    assert.equal(h.stage(), 'online');
    assert.deepEqual(h.stageLog().slice(-3), [
      'connecting:in_progress',
      'registering:in_progress',
      'online:recovered',
    ]);
    assert.equal(h.connector(1).status, 'Charging');
    const beats = h.callsOf('Heartbeat').length;
    const samples = h.calls.filter(
      (c) => c.action === 'MeterValues' || c.payload.eventType === 'Updated',
    ).length;
    for (let i = 0; i < 5; i++) h.tick(60_000);
    assert.equal(h.callsOf('Heartbeat').length, beats + 1);
    const after = h.calls.filter(
      (c) => c.action === 'MeterValues' || c.payload.eventType === 'Updated',
    ).length;
    assert.equal(after - samples, 5);
    h.finish();
  });

  test(`${version}: RESUME with nextAttempt resumes as the deployment's next attempt`, () => {
    const h = harness(version);
    h.deploy();
    const persisted = JSON.parse(JSON.stringify(h.actor.getPersistedSnapshot()));
    h.stop();
    const r = harness(version, { snapshot: persisted });
    r.send({ type: 'RESUME', nextAttempt: true });
    r.tick(0);
    assert.equal(r.ctx().attempt, 2);
    assert.deepEqual(
      r.stages.map((s) => `${s.stage}:${s.outcome}:${s.attempt}`),
      ['connecting:in_progress:2', 'registering:in_progress:2', 'online:recovered:2'],
    );
    r.stop();
  });
}

test('ocpp1.6: a restored offline charger keeps its absolute reconnect deadline', () => {
  const h = harness('ocpp1.6', { connect: 'manual', input: { timings: { reconnectBaseMs: 20_000 } } });
  h.deploy();
  h.link.sendBack!({ type: 'link.failed', code: 'TLS_ERROR', hint: 'certificate has expired' });
  assert.equal(h.stage(), 'offline');
  h.tick(10_000); // reconnect due at 15 s (20 s * 75 %)
  h.restart();
  assert.equal(h.stage(), 'offline');
  const starts = h.link.starts;
  h.tick(4_999);
  assert.equal(h.link.starts, starts);
  h.tick(1);
  assert.equal(h.link.starts, starts + 1);
  assert.equal(h.stage(), 'connecting');
  h.stop();
});

test('ocpp1.6: a restored stopped charger with nextAttempt keeps that attempt; START makes the next', () => {
  const h = harness('ocpp1.6');
  h.deploy();
  h.send({ type: 'STOP' });
  const persisted = JSON.parse(JSON.stringify(h.actor.getPersistedSnapshot()));
  h.stop();
  const r = harness('ocpp1.6', { snapshot: persisted });
  r.send({ type: 'RESUME', nextAttempt: true });
  assert.equal(r.ctx().attempt, 2);
  r.send({ type: 'START' });
  r.tick(0);
  assert.equal(r.stage(), 'online');
  assert.equal(r.stages.at(-1)!.attempt, 3);
  r.stop();
});
