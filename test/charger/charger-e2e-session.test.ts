// A charging session end to end: remote start, meter values, remote stop (see e2e-suite.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSIONS, e2eSuite, type E2e, type Json } from './e2e-suite.ts';

/** Energy (Wh) of the samples of a session, in order. */
function energies(e: E2e, samples: Json[]): number[] {
  return samples.map((m) => {
    const sv = m.params.meterValue[0].sampledValue.find(
      (s: Json) => s.measurand === 'Energy.Active.Import.Register',
    );
    return Number(sv.value);
  });
}

/** The meter samples of a 2.x session (1.6: MeterValues). */
const periodic = (e: E2e, id: string) =>
  e.v16
    ? e.received(id, 'MeterValues')
    : e.received(id, 'TransactionEvent').filter((r) => r.params.triggerReason === 'MeterValuePeriodic');

for (const version of VERSIONS)
  e2eSuite(version, 'a charging session', (e) => {
    /** A charger online, a cable in connector 1, and a remote start the CSMS saw begin. */
    async function remoteStarted(id: string) {
      const c = e.deploy(id, { config: { MeterValueSampleInterval: '1' } });
      await e.online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'plug' });
      await e.quiet(c);
      const answer = e.v16
        ? await e.call(id, 'RemoteStartTransaction', { connectorId: 1, idTag: 'REMOTE-1' })
        : await e.call(id, 'RequestStartTransaction', {
            evseId: 1,
            remoteStartId: 7,
            idToken: { idToken: 'REMOTE-1', type: 'Central' },
          });
      const [started] = await e.waitReceived(id, e.v16 ? 'StartTransaction' : 'TransactionEvent');
      // The charger has the answer too (1.6: the CSMS's id for the transaction).
      await c.until(() => c.ctx().outbox.length === 0);
      const transactionId = e.v16
        ? ((await e.csmsAnswer(id, 'StartTransaction')).transactionId as number)
        : (started.params.transactionInfo.transactionId as string);
      return { c, answer, started, transactionId };
    }

    const remoteStop = (id: string, transactionId: number | string) =>
      e.call(id, e.v16 ? 'RemoteStopTransaction' : 'RequestStopTransaction', { transactionId });

    test('F01/E02 remote start with the cable in: Accepted, and the answer leaves before the transaction message', async () => {
      const id = `${e.tag}-SESSION-START`;
      const { c, answer, started, transactionId } = await remoteStarted(id);
      assert.equal(answer.status, 'Accepted');
      const around = e.answerAndAfter(id, e.v16 ? 'RemoteStartTransaction' : 'RequestStartTransaction');
      assert.deepEqual(around.before, []);
      assert.ok(
        around.later.some((f) => f[0] === 2 && f[2] === (e.v16 ? 'StartTransaction' : 'TransactionEvent')),
      );
      if (e.v16) {
        assert.equal(started.params.connectorId, 1);
        assert.equal(started.params.idTag, 'REMOTE-1');
        assert.equal(started.params.meterStart, 0);
      } else {
        assert.equal(started.params.eventType, 'Started');
        assert.equal(started.params.triggerReason, 'RemoteStart');
        assert.equal(started.params.transactionInfo.remoteStartId, 7);
        assert.equal(answer.transactionId, transactionId);
      }
      assert.equal(c.results.find((r) => r.commandId === 'plug')?.ok, true);
    });

    test('J02 meter values of the transaction grow', async () => {
      const id = `${e.tag}-SESSION-METER`;
      const { transactionId } = await remoteStarted(id);
      const meter = await e
        .csms()
        .waitFor(() => (periodic(e, id).length >= 3 ? periodic(e, id) : undefined), 6000);
      if (e.v16) assert.ok(meter.every((m) => m.params.transactionId === transactionId));
      else assert.ok(meter.every((m) => m.params.transactionInfo.transactionId === transactionId));
      const energy = energies(e, meter);
      assert.ok(energy[0] > 0 && energy[1] > energy[0] && energy[2] > energy[1], `energy grows: ${energy}`);
    });

    test('F03 remote stop ends the transaction with reason Remote', async () => {
      const id = `${e.tag}-SESSION-STOP`;
      const { transactionId } = await remoteStarted(id);
      const meter = await e
        .csms()
        .waitFor(() => (periodic(e, id).length >= 3 ? periodic(e, id) : undefined), 6000);
      assert.deepEqual(await remoteStop(id, transactionId), { status: 'Accepted' });
      if (e.v16) {
        const [stopped] = await e.waitReceived(id, 'StopTransaction');
        assert.equal(stopped.params.transactionId, transactionId);
        assert.equal(stopped.params.reason, 'Remote');
        assert.ok(stopped.params.meterStop >= energies(e, meter)[2]);
      } else {
        const ended = await e
          .csms()
          .waitFor(() => e.received(id, 'TransactionEvent').find((r) => r.params.eventType === 'Ended'));
        assert.equal(ended.params.triggerReason, 'RemoteStop');
        assert.equal(ended.params.transactionInfo.stoppedReason, 'Remote');
        const seqNos = e.received(id, 'TransactionEvent').map((r) => r.params.seqNo);
        assert.deepEqual(
          seqNos,
          seqNos.map((_s, i) => i),
        );
      }
    });

    test('F03 after a remote stop the EV is still plugged in: Finishing until unplugged', async () => {
      const id = `${e.tag}-SESSION-FINISH`;
      const { c, transactionId } = await remoteStarted(id);
      assert.deepEqual(await remoteStop(id, transactionId), { status: 'Accepted' });
      assert.equal(c.ctx().connectors[0].status, 'Finishing');
      c.actor.send({ type: 'UNPLUG', connectorId: 1 });
      await e
        .csms()
        .waitFor(
          () => e.connectorStatuses(id, 1).at(-1) === 'Available' && e.connectorStatuses(id, 1).length > 2,
        );
      assert.deepEqual(
        e.connectorStatuses(id, 1),
        e.v16
          ? ['Available', 'Preparing', 'Charging', 'Finishing', 'Available']
          : ['Available', 'Occupied', 'Available'],
      );
    });

    test(`C09 a token of the starter's group in the local list (${e.v16 ? 'parentIdTag' : 'groupIdToken'}) stops the session; the end message names it`, async () => {
      const id = `${e.tag}-SESSION-GROUP`;
      const c = e.deploy(id);
      await e.online(c);
      const entry = (idTag: string, group: string) =>
        e.v16
          ? { idTag, idTagInfo: { status: 'Accepted', parentIdTag: group } }
          : {
              idToken: { idToken: idTag, type: 'ISO14443' },
              idTokenInfo: { status: 'Accepted', groupIdToken: { idToken: group, type: 'Central' } },
            };
      const list = [entry('CARD-A', 'FLEET'), entry('CARD-B', 'FLEET'), entry('CARD-C', 'OTHER')];
      assert.deepEqual(
        await e.call(
          id,
          'SendLocalList',
          e.v16
            ? { listVersion: 1, updateType: 'Full', localAuthorizationList: list }
            : { versionNumber: 1, updateType: 'Full', localAuthorizationList: list },
        ),
        { status: 'Accepted' },
      );
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-A' });
      await c.until(() => c.ctx().connectors[0].tx !== undefined);
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-C', commandId: 'other-group' });
      const refused = await c.until(() => c.results.find((r) => r.commandId === 'other-group'));
      assert.equal(refused.ok, false);
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-B', commandId: 'same-group' });
      const stopped = await c.until(() => c.results.find((r) => r.commandId === 'same-group'));
      assert.equal(stopped.ok, true);
      if (e.v16) {
        const [stop] = await e.waitReceived(id, 'StopTransaction');
        assert.equal(stop.params.idTag, 'CARD-B');
      } else {
        const ended = await e
          .csms()
          .waitFor(() => e.received(id, 'TransactionEvent').find((m) => m.params.eventType === 'Ended'));
        assert.equal(ended.params.idToken.idToken, 'CARD-B');
      }
    });
  });
