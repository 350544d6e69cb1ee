// Commands across a SIGKILL (docs/commands.md): commands handed over at a SIGKILL. The fixture (crash-fixture.ts) runs
// the service as a child process with five chargers against a strict central system that counts
// every proxied DataTransfer by charger, messageId and service run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE } from '../support/service.ts';
import { deploymentsOf, eventually } from '../deployments/deployment-helpers.ts';
import { crashFixture } from './crash-fixture.ts';

describe(`commands handed over at a SIGKILL (${MODE})`, () => {
  const f = crashFixture();

  test('SIGKILL between hand-over and result: every command handed over ends interrupted and is never run again', async () => {
    await eventually(
      () => deploymentsOf(f.as(), f.locationId()),
      (list) => list.every((d) => d.stage === 'online'),
    );
    const sent = await f.queue('hold');
    // Every command is handed over (sent) while the central system holds its answers.
    await f.allAt(sent, 'sent');
    await f.svc().kill9();
    const atKill = await f.statusesInDatabase();
    assert.ok(
      sent.every((s) => atKill.get(s.id) === 'sent'),
      'every command was handed over at the kill',
    );
    f.setRun(2);
    await f.svc().restart();
    const records = await f.finalRecords(sent);
    for (const s of sent) {
      assert.equal(records.get(s.id)!.status, 'interrupted', JSON.stringify(records.get(s.id)));
      assert.ok(f.arrivalsOf(s).length <= 1);
    }
    // The chargers work after the restart, and a command queued now runs; still nothing ran twice.
    await eventually(
      () => deploymentsOf(f.as(), f.locationId()),
      (list) => list.every((d) => d.stage === 'online'),
    );
    const after = await f.queue('after');
    const afterRecords = await f.finalRecords(after);
    for (const s of after) {
      assert.equal(afterRecords.get(s.id)!.status, 'completed');
      assert.deepEqual(f.arrivalsOf(s), [2]);
    }
    for (const s of sent) assert.ok(!f.arrivalsOf(s).includes(2), `${s.messageId} is not run again`);
    assert.deepEqual(f.csms().schemaErrors, []);
  });
});
