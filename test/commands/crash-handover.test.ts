// Commands across a SIGKILL (docs/commands.md): commands handed over at a SIGKILL. The fixture (crash-fixture.ts) runs
// the service as a child process with five chargers against a strict central system that counts
// every proxied DataTransfer by charger, messageId and service run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE } from '../support/service.ts';
import { deploymentsOf, eventually } from '../deployments/deployment-helpers.ts';
import { ANSWERED, CHARGERS, crashFixture } from './crash-fixture.ts';

describe(`commands handed over at a SIGKILL (${MODE})`, () => {
  const f = crashFixture();

  test('SIGKILL with one command per charger on the wire: the answered ones end completed with the answer, the one on the wire interrupted, the ones behind it run after the restart, each once', async (t) => {
    await eventually(
      () => deploymentsOf(f.as(), f.locationId()),
      (list) => list.every((d) => d.stage === 'online'),
    );
    // ANSWERED answered, one on the wire and as many waiting behind it, per charger.
    const sent = await f.queue('wire', 2 * ANSWERED);
    // Each charger had ANSWERED commands answered; the central system holds the next one's answer.
    await eventually(
      async () => f.onWire().length,
      (n) => n === CHARGERS,
      30_000,
    );
    await f.svc().kill9();
    const atKill = await f.statusesInDatabase();
    f.setRun(2);
    await f.svc().restart();
    const records = await f.finalRecords(sent);

    const onWire = new Set(f.onWire());
    const tally: Record<string, number> = {};
    for (const s of sent) {
      const record = records.get(s.id)!;
      const seen = f.arrivalsOf(s);
      const kind = onWire.has(`${s.identity} ${s.messageId}`)
        ? 'on the wire'
        : seen.includes(1)
          ? 'answered'
          : 'not sent';
      tally[`${kind}: ${atKill.get(s.id)} -> ${record.status}`] =
        (tally[`${kind}: ${atKill.get(s.id)} -> ${record.status}`] ?? 0) + 1;
      switch (kind) {
        case 'on the wire':
          assert.equal(record.status, 'interrupted', JSON.stringify(record));
          assert.equal(record.error?.code, 'INTERRUPTED');
          assert.deepEqual(seen, [1], `${s.messageId} is not run again`);
          break;
        case 'answered':
          assert.equal(record.status, 'completed', JSON.stringify(record));
          assert.deepEqual(record.response, { status: 'Accepted' });
          assert.deepEqual(seen, [1]);
          break;
        default:
          assert.equal(record.status, 'completed', JSON.stringify(record));
          assert.deepEqual(seen, [2], `${s.messageId} runs once, after the restart`);
      }
    }
    t.diagnostic(`at the kill -> final: ${JSON.stringify(tally)}`);
    assert.equal(sent.filter((s) => records.get(s.id)!.status === 'interrupted').length, CHARGERS);
    assert.equal(sent.filter((s) => f.arrivalsOf(s)[0] === 1).length, CHARGERS * (ANSWERED + 1));

    // The chargers work after the restart, and a command queued now runs; still nothing ran twice.
    await eventually(
      () => deploymentsOf(f.as(), f.locationId()),
      (list) => list.every((d) => d.stage === 'online'),
    );
    const after = await f.queue('after', ANSWERED);
    const afterRecords = await f.finalRecords(after);
    for (const s of after) {
      assert.equal(afterRecords.get(s.id)!.status, 'completed');
      assert.deepEqual(f.arrivalsOf(s), [2]);
    }
    assert.deepEqual(f.csms().schemaErrors, []);
  });
});
