// The answers a charger does nothing with stay in its link (core/step.ts, UNHEEDED): a boot's
// StatusNotifications and the heartbeats cost the machine no event, end to end (e2e-suite.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSIONS, e2eSuite } from './e2e-suite.ts';

for (const version of VERSIONS)
  e2eSuite(version, 'the answers the machine hears', (e) => {
    test('StatusNotification and Heartbeat answers stay in the link; BootNotification and Authorize answers reach the machine', async () => {
      const id = `${e.tag}-QUIET`;
      e.intervals.set(id, 1);
      const c = e.deploy(id);
      const heard: string[] = [];
      c.actor.system.inspect((ev) => {
        if (ev.type === '@xstate.event' && ev.actorRef === c.actor) heard.push(ev.event.type);
      });
      await e.online(c);
      await e.waitReceived(id, 'Heartbeat', 2);
      await e.quiet(c);
      // The Authorize's answer comes after every earlier answer on the same socket.
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'QUIET-TAG' });
      await e.waitReceived(id, 'Authorize');
      await c.until(() => c.ctx().authCache['QUIET-TAG'] !== undefined);

      assert.ok(e.received(id, 'StatusNotification').length >= (e.v16 ? 3 : 2));
      assert.ok(e.received(id, 'Heartbeat').length >= 2);
      assert.equal(heard.filter((t) => t === 'ocpp.result').length, 2, `events heard: ${heard.join(' ')}`);
      assert.deepEqual(c.ctx().calls, {});
    });
  });
