// Provisioning (blocks/provisioning.ts): registration with the central system.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, harness } from '../charger-harness.ts';
import { aBootAnswer } from '../builders.ts';

for (const version of VERSIONS) {
  test(`${version}: B01 cold boot: deploy walks every stage to online and reports each`, () => {
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
    h.finish();
  });

  test(`${version}: B02 BootNotification Pending: registering until Accepted after the interval`, () => {
    const h = harness(version, {
      answers: {
        BootNotification: (_p, n) => aBootAnswer(n === 1 ? { status: 'Pending', interval: 20 } : {}),
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

  test(`${version}: B03 BootNotification Rejected: a failed registering stage, retried after the interval`, () => {
    const h = harness(version, {
      answers: {
        BootNotification: (_p, n) => aBootAnswer({ status: n < 3 ? 'Rejected' : 'Accepted', interval: 30 }),
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
    h.stop();
  });

  test(`${version}: B03 nothing but BootNotification is said before the boot is accepted`, () => {
    const h = harness(version, {
      answers: {
        BootNotification: (_p, n) => aBootAnswer({ status: n < 3 ? 'Rejected' : 'Accepted', interval: 30 }),
      },
    });
    h.deploy();
    h.tick(30_000);
    h.tick(30_000);
    assert.equal(h.stage(), 'online');
    assert.deepEqual(
      h.calls.slice(0, 3).map((c) => c.action),
      ['BootNotification', 'BootNotification', 'BootNotification'],
    );
    h.stop();
  });

  test(`${version}: B01 a BootNotification that fails is retried after bootRetryDefaultSec`, () => {
    const h = harness(version, {
      answers: { BootNotification: (_p, n) => (n === 1 ? { error: 'InternalError' } : aBootAnswer()) },
    });
    h.deploy();
    assert.deepEqual(h.stageLog().slice(-1), ['registering:failed:BOOT_FAILED']);
    h.tick(29_999);
    assert.equal(h.callsOf('BootNotification').length, 1);
    h.tick(1);
    assert.equal(h.stage(), 'online');
    h.stop();
  });
}

// Boot reasons (2.0.1 BootReasonEnumType; 1.6 has none, the schema check in finish() says so).
const reasons = (h: ReturnType<typeof harness>) => h.callsOf('BootNotification').map((c) => c.payload.reason);

test('ocpp2.0.1: B11 a reboot answered Pending keeps its reason RemoteReset on the retry', async () => {
  const h = harness('ocpp2.0.1', {
    answers: {
      BootNotification: (_p, n) => aBootAnswer(n === 2 ? { status: 'Pending', interval: 20 } : {}),
    },
  });
  h.deploy();
  assert.deepEqual(await h.csmsCall('Reset', { type: 'Immediate' }), { status: 'Accepted' });
  h.tick(1_000);
  assert.equal(h.stage(), 'registering');
  h.tick(20_000);
  assert.equal(h.stage(), 'online');
  assert.deepEqual(reasons(h), ['PowerUp', 'RemoteReset', 'RemoteReset']);
  h.finish();
});

test('ocpp2.0.1: B01 a charger brought back by a new process boots with ApplicationReset', () => {
  const first = harness('ocpp2.0.1');
  first.deploy();
  const persisted = JSON.parse(JSON.stringify(first.actor.getPersistedSnapshot()));
  first.stop();
  const h = harness('ocpp2.0.1', { snapshot: persisted });
  h.send({ type: 'RESUME', nextAttempt: true });
  h.tick(0);
  assert.equal(h.stage(), 'online');
  assert.deepEqual(reasons(h), ['ApplicationReset']);
  h.finish();
});

test('ocpp2.0.1: B12 a connection lost while a Reset OnIdle waits: that boot is no reboot (PowerUp)', async () => {
  const h = harness('ocpp2.0.1');
  h.deploy();
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
  h.tick(0);
  assert.deepEqual(await h.csmsCall('Reset', { type: 'OnIdle' }), { status: 'Scheduled' });
  h.send({ type: 'DISCONNECT' });
  h.tick(5_000);
  assert.equal(h.stage(), 'online');
  h.send({ type: 'UNPLUG', connectorId: 1 });
  h.tick(5_000);
  assert.deepEqual(reasons(h), ['PowerUp', 'PowerUp', 'ScheduledReset']);
  h.finish();
});

test('ocpp1.6: B01 the boot after a Reset is the 1.6 BootNotification, with no reason', async () => {
  const h = harness('ocpp1.6');
  h.deploy();
  assert.deepEqual(await h.csmsCall('Reset', { type: 'Hard' }), { status: 'Accepted' });
  h.tick(1_000);
  assert.equal(h.stage(), 'online');
  assert.deepEqual(reasons(h), [undefined, undefined]);
  h.finish();
});
