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
