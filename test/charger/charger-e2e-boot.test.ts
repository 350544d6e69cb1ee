// Boots that are not the first one, end to end (see e2e-suite.ts): a boot the central system
// triggers while the charger waits on a Pending answer, and (2.0.1) the reason each boot gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSIONS, e2eSuite, type E2e } from './e2e-suite.ts';

for (const version of VERSIONS)
  e2eSuite(version, 'triggered boots and boot reasons', (e) => {
    /** A charger whose first boot was answered Pending (retry in 300 s), then booted by TriggerMessage and Accepted. */
    async function triggeredAfterPending(id: string, heartbeatSec = 300) {
      e.bootPlan.set(id, ['Pending']);
      e.pendingIntervals.set(id, 300);
      e.intervals.set(id, heartbeatSec);
      const c = e.deploy(id);
      await c.until(() => c.stageLog().includes('registering:in_progress:BOOT_PENDING'));
      assert.deepEqual(await e.call(id, 'TriggerMessage', { requestedMessage: 'BootNotification' }), {
        status: 'Accepted',
      });
      await e.waitReceived(id, 'BootNotification', 2);
      await e.online(c);
      return c;
    }

    test('B02 Pending, then a triggered BootNotification Accepted: online, with the status of every connector', async () => {
      const id = `${e.tag}-TRIG-STATUS`;
      const c = await triggeredAfterPending(id);
      assert.deepEqual(c.stageLog().slice(-2), ['registering:in_progress:BOOT_PENDING', 'online:succeeded']);
      const statuses = await e.waitReceived(id, 'StatusNotification', e.v16 ? 3 : 2);
      assert.deepEqual(
        statuses.map((s) => (e.v16 ? s.params.connectorId : s.params.evseId)),
        e.v16 ? [0, 1, 2] : [1, 2],
      );
      // The triggered boot was the one accepted: the charger did not wait for its retry.
      assert.equal(e.received(id, 'BootNotification').length, 2);
    });

    test('B02 Pending, then a triggered BootNotification Accepted: heartbeats at the accepted interval', async () => {
      const id = `${e.tag}-TRIG-HEARTBEAT`;
      await triggeredAfterPending(id, 1);
      const beats = await e.waitReceived(id, 'Heartbeat', 2, 5000);
      assert.ok(beats[1].at > beats[0].at);
    });

    test('B02 Pending, then a triggered BootNotification Accepted: the CSMS calls are answered and a Reset reboots', async () => {
      const id = `${e.tag}-TRIG-RESET`;
      const c = await triggeredAfterPending(id);
      const got = await e.call(id, 'TriggerMessage', { requestedMessage: 'Heartbeat' });
      assert.deepEqual(got, { status: 'Accepted' });
      await e.waitReceived(id, 'Heartbeat');
      const reset = e.v16 ? { type: 'Soft' } : { type: 'Immediate' };
      assert.deepEqual(await e.call(id, 'Reset', reset), { status: 'Accepted' });
      await e.waitReceived(id, 'BootNotification', 3);
      await c.until(() => c.stageLog().filter((s) => s === 'online:succeeded').length === 2, 8000);
    });

    if (e.v16) return;

    /** The `reason` of every BootNotification the charger sent, in order. */
    const reasons = (id: string) => e.received(id, 'BootNotification').map((b) => b.params.reason);

    test('B01 the first boot says PowerUp', async () => {
      const id = `${e.tag}-REASON-POWERUP`;
      await e.online(e.deploy(id));
      assert.deepEqual(reasons(id), ['PowerUp']);
    });

    test('F06 the boot a TriggerMessage asked for says Triggered', async () => {
      const id = `${e.tag}-REASON-TRIGGERED`;
      await triggeredAfterPending(id);
      assert.deepEqual(reasons(id), ['PowerUp', 'Triggered']);
    });

    test('B11 the boot after Reset Immediate says RemoteReset, and the next boot after it PowerUp again', async () => {
      const id = `${e.tag}-REASON-REMOTE`;
      const c = e.deploy(id);
      await e.online(c);
      assert.deepEqual(await e.call(id, 'Reset', { type: 'Immediate' }), { status: 'Accepted' });
      await c.until(() => c.stageLog().filter((s) => s === 'online:succeeded').length === 2, 8000);
      c.actor.send({ type: 'DISCONNECT' });
      await e.waitReceived(id, 'BootNotification', 3, 8000);
      assert.deepEqual(reasons(id), ['PowerUp', 'RemoteReset', 'PowerUp']);
    });

    test('B12 Reset OnIdle during a transaction: Scheduled, and the boot once it ended says ScheduledReset', async () => {
      const id = `${e.tag}-REASON-SCHEDULED`;
      const c = e.deploy(id);
      await e.online(c);
      await startSession(e, c, id);
      assert.deepEqual(await e.call(id, 'Reset', { type: 'OnIdle' }), { status: 'Scheduled' });
      c.actor.send({ type: 'UNPLUG', connectorId: 1 });
      await e.waitReceived(id, 'BootNotification', 2, 8000);
      assert.deepEqual(reasons(id), ['PowerUp', 'ScheduledReset']);
    });
  });

/** A transaction on connector 1: cable in, a token presented and accepted. */
async function startSession(e: E2e, c: ReturnType<E2e['deploy']>, id: string): Promise<void> {
  c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
  c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
  await e.waitReceived(id, e.v16 ? 'StartTransaction' : 'TransactionEvent');
  await c.until(() => c.ctx().connectors[0].tx !== undefined);
}
