// Commands across a SIGKILL (docs/commands.md): commands queued at a SIGKILL. The fixture (crash-fixture.ts) runs
// the service as a child process with five chargers against a strict central system that counts
// every proxied DataTransfer by charger, messageId and service run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE } from '../support/service.ts';
import { CHARGERS, crashFixture } from './crash-fixture.ts';

describe(`commands queued at a SIGKILL (${MODE})`, () => {
  const f = crashFixture();

  test('SIGKILL right after 500 commands were accepted: every command ends final, none runs twice, every one not handed over runs after the restart', async (t) => {
    const sent = await f.queue('burst');
    await f.svc().kill9();
    const atKill = await f.statusesInDatabase();
    // One command per charger at a time: at most one per charger was handed over at the kill.
    const handedOver = sent.filter((s) => atKill.get(s.id) === 'sent').length;
    assert.ok(handedOver <= CHARGERS, `${handedOver} commands were sent at the kill`);
    f.setRun(2);
    await f.svc().restart();
    const records = await f.finalRecords(sent);

    const tally: Record<string, number> = {};
    for (const s of sent) {
      const before = atKill.get(s.id);
      const record = records.get(s.id)!;
      const seen = f.arrivalsOf(s);
      tally[`${before} -> ${record.status}`] = (tally[`${before} -> ${record.status}`] ?? 0) + 1;
      assert.ok(
        seen.length <= 1,
        `${s.identity} ${s.messageId} reached the central system ${seen.length} times`,
      );
      switch (before) {
        case 'queued':
        case 'received':
          assert.equal(record.status, 'completed', JSON.stringify(record));
          assert.deepEqual(seen, [2], `${s.messageId} runs after the restart`);
          break;
        case 'sent':
          assert.equal(record.status, 'interrupted', JSON.stringify(record));
          assert.equal(record.error?.code, 'INTERRUPTED');
          assert.ok(!seen.includes(2), `${s.messageId} is not run again`);
          break;
        case 'completed':
          assert.equal(record.status, 'completed');
          assert.deepEqual(seen, [1]);
          break;
        default:
          assert.fail(`${s.id} was ${before} at the kill and is ${record.status} now`);
      }
    }
    t.diagnostic(`status at the kill -> final: ${JSON.stringify(tally)}`);
    assert.deepEqual(f.csms().schemaErrors, []);
  });
});
