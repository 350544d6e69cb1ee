// Commands across a SIGKILL (docs/commands.md):
// commands held for reconnecting chargers at a SIGKILL. The fixture (crash-fixture.ts) runs the service as a child process with five chargers against a strict central system that counts
// every proxied DataTransfer by charger, messageId and service run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE } from '../support/service.ts';
import { crashFixture, CHARGERS } from './crash-fixture.ts';

describe(`commands held for reconnecting chargers at a SIGKILL (${MODE})`, () => {
  const f = crashFixture();

  test('SIGKILL while the chargers reconnect after a restart: the commands held for them run after the next start, once each', async () => {
    // Restarted, the chargers reconnect and wait for their BootNotification answers: not back yet.
    f.setHoldBoots(true);
    await f.svc().kill9();
    f.setRun(2);
    const from = f.csms().received.length;
    await f.svc().restart();
    await f.csms().waitFor(() => f.bootsIn(from) === CHARGERS, 30_000);
    const sent = await f.queue('wait');
    // Accepted and received by the node, not handed to a charger that is not back.
    await f.allAt(sent, 'received');
    await f.svc().kill9();
    const atKill = await f.statusesInDatabase();
    assert.ok(
      sent.every((s) => atKill.get(s.id) === 'received'),
      'every command was received and none handed over at the kill',
    );
    assert.ok(sent.every((s) => f.arrivalsOf(s).length === 0));

    f.setHoldBoots(false);
    f.setRun(3);
    await f.svc().restart();
    const records = await f.finalRecords(sent);
    for (const s of sent) {
      assert.equal(records.get(s.id)!.status, 'completed', JSON.stringify(records.get(s.id)));
      assert.deepEqual(f.arrivalsOf(s), [3], `${s.identity} ${s.messageId} ran once, after the restart`);
    }
    assert.deepEqual(f.csms().schemaErrors, []);
  });
});
