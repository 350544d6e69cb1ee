// Bad input, lost connections, a central system restart, a process restart (see e2e-suite.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSIONS, e2eSuite } from './e2e-suite.ts';

for (const version of VERSIONS)
  e2eSuite(version, 'resilience', (e) => {
    test('an invalid CSMS message is answered with the CALLERROR its version names', async () => {
      const id = `${e.tag}-INVALID`;
      const c = e.deploy(id);
      await e.online(c);
      const cases: Array<[string, string]> = [
        ['[2,"bad-1","Reset",{}]', e.v16 ? 'OccurenceConstraintViolation' : 'OccurrenceConstraintViolation'],
        ['[2,"bad-2","Reset",{"type":"Sideways"}]', 'PropertyConstraintViolation'],
        [
          e.v16
            ? '[2,"bad-3","UnlockConnector",{"connectorId":"1"}]'
            : '[2,"bad-3","UnlockConnector",{"evseId":"1","connectorId":1}]',
          'TypeConstraintViolation',
        ],
        ['[2,"bad-4","Frobnicate",{}]', 'NotImplemented'],
        ['[2,"bad-5","Reset"]', e.v16 ? 'FormationViolation' : 'FormatViolation'],
      ];
      for (const [text] of cases) e.csms().sendRaw(id, text);
      const answers = await e.csms().waitFor(() => {
        const errors = e.fromCharger(id).filter((f) => f[0] === 4 && String(f[1]).startsWith('bad-'));
        return errors.length === cases.length ? errors : undefined;
      });
      assert.deepEqual(
        answers.map((f) => [f[1], f[2]]),
        cases.map(([, code], i) => [`bad-${i + 1}`, code]),
      );
      // Nothing of it changed the charger: it is still online and answers real calls.
      assert.equal(c.ctx().stage, 'online');
      assert.deepEqual(await e.call(id, 'ClearCache', {}), { status: 'Accepted' });
    });

    test('E11/E12 socket drop: offline, transaction messages queued, delivered in order on reconnect, then recovered', async () => {
      const id = `${e.tag}-DROP`;
      const c = e.deploy(id, { config: { MeterValueSampleInterval: '1' } });
      await e.online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
      await c.until(() => c.ctx().connectors[0].status === 'Charging' && c.ctx().outbox.length === 0);
      // The network goes; the central system also refuses the charger for a while.
      e.blocked.add(id);
      c.actor.send({ type: 'DISCONNECT', commandId: 'drop' });
      await c.until(() => c.stageLog().includes('offline:failed:CONNECTION_LOST'));
      const before = e.received(id).length;
      // The session goes on offline: meter samples queue up, then the EV leaves.
      await c.until(() => c.ctx().outbox.length >= 2, 5000);
      c.actor.send({ type: 'UNPLUG', connectorId: 1 });
      const queued = await c.until(() => {
        const box = c.ctx().outbox;
        const last = box.at(-1);
        return last && (e.v16 ? last.action === 'StopTransaction' : last.payload.eventType === 'Ended')
          ? box.map((o) => o.action)
          : undefined;
      });
      assert.ok(
        c.stageLog().some((s) => s === `connecting:failed:HTTP_401`),
        'refused while blocked',
      );
      e.blocked.delete(id);
      await c.until(() => c.stageLog().at(-1) === 'online:recovered', 8000);
      const delivered = e
        .received(id)
        .slice(before)
        .filter((r) =>
          ['StartTransaction', 'MeterValues', 'StopTransaction', 'TransactionEvent'].includes(r.action),
        );
      assert.deepEqual(
        delivered.map((r) => r.action),
        queued,
      );
      if (e.v16) {
        assert.ok(delivered.every((r) => r.params.transactionId === delivered.at(-1)!.params.transactionId));
        const times = delivered.slice(0, -1).map((r) => Date.parse(r.params.meterValue[0].timestamp));
        assert.deepEqual(
          times,
          [...times].sort((a, b) => a - b),
        );
      } else {
        const all = e.received(id, 'TransactionEvent').map((r) => r.params.seqNo);
        assert.deepEqual(
          all,
          all.map((_s, i) => i),
        );
        assert.ok(delivered.every((r) => r.params.offline === true));
        assert.equal(delivered.at(-1)!.params.eventType, 'Ended');
      }
      assert.equal(c.results.find((r) => r.commandId === 'drop')?.ok, true);
    });

    test('survives a central system restart on the same port', async () => {
      const id = `${e.tag}-RESTART`;
      const c = e.deploy(id);
      await e.online(c);
      await e.closeCsms();
      await c.until(() => c.ctx().stage === 'offline' || c.ctx().stage === 'connecting');
      await c.until(() => c.stageLog().includes('connecting:failed:WS_CONNECT_REFUSED'));
      await e.reopenCsms();
      await c.until(() => c.stageLog().at(-1) === 'online:recovered', 8000);
      assert.equal(e.received(id, 'BootNotification').length, 1, 'booted again at the new server');
    });

    test('persisted snapshot -> restore -> RESUME: online again with the session still running', async () => {
      const id = `${e.tag}-SNAPSHOT`;
      const c = e.deploy(id, { config: { MeterValueSampleInterval: '1' } });
      await e.online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 2 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'TAG-2' });
      await c.until(() => c.ctx().connectors[1].status === 'Charging' && c.ctx().outbox.length === 0);
      const saved = JSON.stringify(c.actor.getPersistedSnapshot());
      c.stop(); // the old process goes away
      const boots = e.received(id, 'BootNotification').length;
      const r = e.restore(JSON.parse(saved));
      r.actor.send({ type: 'RESUME' });
      await r.until(() => r.stageLog().at(-1) === 'online:recovered', 8000);
      assert.deepEqual(r.stageLog(), [
        'connecting:in_progress',
        'registering:in_progress',
        'online:recovered',
      ]);
      assert.equal(e.received(id, 'BootNotification').length, boots + 1);
      assert.equal(r.ctx().connectors[1].status, 'Charging');
      // Meter values of the same transaction keep coming from the restored charger.
      const mark = e.csms().received.length;
      const sample = await e.csms().waitFor(() =>
        e
          .csms()
          .received.slice(mark)
          .find(
            (x) =>
              x.identity === id && (e.v16 ? x.action === 'MeterValues' : x.action === 'TransactionEvent'),
          ),
      );
      if (e.v16)
        assert.equal(sample.params.transactionId, (await e.csmsAnswer(id, 'StartTransaction')).transactionId);
      else
        assert.equal(
          sample.params.transactionInfo.transactionId,
          e.received(id, 'TransactionEvent')[0].params.transactionInfo.transactionId,
        );
    });

    test('a snapshot no version of the machine can restore is refused', () => {
      assert.throws(() => e.runtime().restore({ context: { snapshotVersion: -1 } }), /snapshot/);
    });
  });
