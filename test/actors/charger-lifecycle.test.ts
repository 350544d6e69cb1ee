import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSchemaValid, harness } from './charger-harness.ts';
import { SNAPSHOT_VERSION } from '../../actors/charger/charger-ports.ts';

for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const) {
  test(`${version}: deploy walks every stage to online and reports each`, () => {
    const h = harness(version);
    h.deploy();
    assert.equal(h.stage(), 'online');
    assert.deepEqual(h.stageLog(), [
      'queued:in_progress',
      'scheduling:in_progress',
      'pulling:in_progress',
      'starting:in_progress',
      'connecting:in_progress',
      'registering:in_progress',
      'online:succeeded',
    ]);
    assert.ok(
      h.stages.every((s) => s.identity === 'CP-TEST-1' && s.attempt === 1 && !Number.isNaN(Date.parse(s.at))),
    );
    assert.equal(h.calls[0].action, 'BootNotification');
    assertSchemaValid(h, version);
    h.stop();
  });

  test(`${version}: StatusNotification for every connector after boot`, () => {
    const h = harness(version);
    h.deploy();
    const status = h.callsOf('StatusNotification');
    if (version === 'ocpp1.6') {
      assert.deepEqual(
        status.map((c) => [c.payload.connectorId, c.payload.status]),
        [
          [0, 'Available'],
          [1, 'Available'],
          [2, 'Available'],
        ],
      );
    } else {
      assert.deepEqual(
        status.map((c) => [c.payload.evseId, c.payload.connectorId, c.payload.connectorStatus]),
        [
          [1, 1, 'Available'],
          [2, 1, 'Available'],
        ],
      );
    }
    assertSchemaValid(h, version);
    h.stop();
  });

  test(`${version}: heartbeat at the BootNotification interval, and at a changed HeartbeatInterval`, async () => {
    const h = harness(version);
    h.deploy();
    h.tick(299_000);
    assert.equal(h.callsOf('Heartbeat').length, 0);
    h.tick(1_000);
    assert.equal(h.callsOf('Heartbeat').length, 1);
    h.tick(300_000);
    assert.equal(h.callsOf('Heartbeat').length, 2);
    if (version === 'ocpp1.6')
      await h.csmsCall('ChangeConfiguration', { key: 'HeartbeatInterval', value: '60' });
    else
      await h.csmsCall('SetVariables', {
        setVariableData: [
          {
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
            attributeValue: '60',
          },
        ],
      });
    h.tick(60_000);
    assert.equal(h.callsOf('Heartbeat').length, 3);
    h.tick(60_000);
    assert.equal(h.callsOf('Heartbeat').length, 4);
    assertSchemaValid(h, version);
    h.stop();
  });

  test(`${version}: BootNotification Pending, then Accepted after the interval`, () => {
    const h = harness(version, {
      answers: {
        BootNotification: (_p, n) => ({
          status: n === 1 ? 'Pending' : 'Accepted',
          currentTime: new Date().toISOString(),
          interval: n === 1 ? 20 : 300,
        }),
      },
    });
    h.deploy();
    assert.equal(h.stage(), 'registering');
    assert.deepEqual(h.stageLog().slice(-1), ['registering:in_progress:BOOT_PENDING']);
    h.tick(19_000);
    assert.equal(h.callsOf('BootNotification').length, 1);
    h.tick(1_000);
    assert.equal(h.callsOf('BootNotification').length, 2);
    assert.equal(h.stage(), 'online');
    assert.deepEqual(h.stageLog().slice(-1), ['online:succeeded']);
    h.stop();
  });

  test(`${version}: BootNotification Rejected is a failed registering stage, retried after the interval`, () => {
    const h = harness(version, {
      answers: {
        BootNotification: (_p, n) => ({
          status: n < 3 ? 'Rejected' : 'Accepted',
          currentTime: new Date().toISOString(),
          interval: 30,
        }),
      },
    });
    h.deploy();
    const failed = h.stages.filter((s) => s.outcome === 'failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0].stage, 'registering');
    assert.equal(failed[0].code, 'BOOT_REJECTED');
    assert.match(failed[0].hint!, /rejected/);
    h.tick(30_000);
    assert.equal(h.callsOf('BootNotification').length, 2);
    h.tick(30_000);
    assert.equal(h.callsOf('BootNotification').length, 3);
    assert.equal(h.stage(), 'online');
    // Nothing else is said before the boot is accepted.
    assert.deepEqual(
      h.calls.slice(0, 3).map((c) => c.action),
      ['BootNotification', 'BootNotification', 'BootNotification'],
    );
    h.stop();
  });

  test(`${version}: a refused connection is a failed connecting stage with code and hint, then offline with backoff`, () => {
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

  test(`${version}: socket loss goes offline, reconnects by itself and reports recovered`, () => {
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

  test(`${version}: STOP and RESTART`, () => {
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

  test(`${version}: persisted snapshot round-trip, RESUME reconnects and restarts the timers`, () => {
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
    assertSchemaValid(h, version);
    h.stop();
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
