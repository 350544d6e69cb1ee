// Every command end to end, for one OCPP version, against the strict independent central system
// (ocpp-rpc in strict mode): what the API answers, what E16 records, and what the CSMS received.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { deployOnline, run, sendOne, finalOf } from './command-helpers.ts';

export function commandFlows(version: 'ocpp1.6' | 'ocpp2.0.1'): void {
  const v16 = version === 'ocpp1.6';
  const ID = v16 ? 'CMD16-1' : 'CMD201-1';

  describe(`commands end to end, ${version} (${MODE})`, () => {
    let svc: TestService;
    let csms: StrictCsms;
    let as: As;
    let deploymentId: string;
    const target = () => ({ deployment_id: deploymentId });
    const calls = (action: string) => csms.received.filter((r) => r.identity === ID && r.action === action);
    /** E13 in the charger's own shape. */
    const setting = (key: string, component: string, variable: string, value: string | number) =>
      v16 ? { key, value } : { component, variable, value };

    before(async () => {
      csms = await startStrictCsms();
      svc = await startTestService();
      as = svc.as('org-cmd');
      deploymentId = await deployOnline(as, ID, version, csms.url);
    });
    after(async () => {
      await svc.close();
      await csms.close();
    });

    test('E11 proxy-message: the CALL leaves as written; the CALLRESULT payload is the response', async () => {
      const payload = v16
        ? { vendorId: 'acme', messageId: 'ping', data: 'hello' }
        : { vendorId: 'acme', messageId: 'ping', data: 'hello' };
      const id = await sendOne(as, 'proxy-message', {
        target: target(),
        payload: { action: 'DataTransfer', payload },
      });
      const r = await finalOf(as, id);
      assert.equal(r.status, 'completed', JSON.stringify(r));
      assert.equal(r.event_type, 'proxy-message');
      assert.equal(r.charger_id, deploymentId);
      assert.equal(r.identity, ID);
      assert.deepEqual(r.response, { status: 'Accepted' });
      assert.equal(r.error, null);
      assert.ok(r.received_at && r.completed_at && r.created_at <= r.received_at);
      const frame = csms.frames.find((f) => f.identity === ID && !f.outbound && f.text.includes('"ping"'));
      assert.ok(frame);
      const [type, , action, sent] = JSON.parse(frame.text);
      assert.deepEqual([type, action, sent], [2, 'DataTransfer', payload]);
    });

    test('E11 proxy-message: a payload the CSMS refuses comes back as its CALLERROR code and description', async () => {
      // Invalid for the schema: our charger sends it anyway (as written); the strict CSMS refuses it.
      const payload = { vendorId: 'acme', data: 'x', notInTheSchema: true };
      const r = await run(as, 'proxy-message', {
        target: target(),
        payload: { action: 'DataTransfer', payload },
      });
      assert.equal(r.status, 'failed', JSON.stringify(r));
      assert.ok(r.error && /Violation/.test(r.error.code), JSON.stringify(r.error));
      assert.equal(typeof r.error.description, 'string');
      const frame = csms.frames.find(
        (f) => f.identity === ID && !f.outbound && f.text.includes('notInTheSchema'),
      );
      assert.ok(frame, 'the invalid CALL reached the CSMS as written');
      assert.deepEqual(JSON.parse(frame.text)[3], payload);
    });

    test('E13 configuration: HeartbeatInterval is applied and the charger heartbeats at the new interval', async () => {
      const before = calls('Heartbeat').length;
      const r = await run(as, 'configuration', {
        target: target(),
        payload: setting('HeartbeatInterval', 'OCPPCommCtrlr', 'HeartbeatInterval', '1'),
      });
      assert.equal(r.status, 'completed', JSON.stringify(r));
      if (v16) assert.deepEqual(r.response, { status: 'Accepted' });
      else assert.equal(r.response.setVariableResult[0].attributeStatus, 'Accepted');
      // Boot said 300 s: two more heartbeats within the wait only come from the new interval.
      await csms.waitFor(() => calls('Heartbeat').length >= before + 2, 10_000);
      const back = await run(as, 'configuration', {
        target: target(),
        payload: setting('HeartbeatInterval', 'OCPPCommCtrlr', 'HeartbeatInterval', 300),
      });
      assert.equal(back.status, 'completed');
    });

    test("E13 configuration: an unknown key is rejected (NotSupported); the other version's shape is a 422", async () => {
      const r = await run(as, 'configuration', {
        target: target(),
        payload: setting('NoSuchKey', 'NoSuchCtrlr', 'NoSuchVariable', '1'),
      });
      assert.equal(r.status, 'rejected', JSON.stringify(r));
      assert.equal(r.error?.code, 'NotSupported');
      const wrong = await as('POST', '/evcharger/commands/configuration', {
        body: {
          target: target(),
          payload: v16
            ? { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '5' }
            : { key: 'HeartbeatInterval', value: '5' },
        },
      });
      assert.equal(wrong.status, 422, wrong.text);
      assert.deepEqual(wrong.body.detail[0].loc, ['body', 'payload']);
      assert.match(wrong.body.detail[0].msg, v16 ? /1\.6/ : /2\.0\.1/);
    });

    test('E12 ev-stops-energy without a session on the connector is rejected, saying so', async () => {
      const r = await run(as, 'ev-stops-energy', { target: target() });
      assert.equal(r.status, 'rejected', JSON.stringify(r));
      assert.deepEqual(r.payload, { evse_id: 1, connector_id: 1 });
      assert.equal(r.error?.code, 'INVALID_STATE');
      assert.match(r.error!.description!, /no transaction/);
    });

    test('plug-in + present-token start a transaction; E12 suspends it and meter values stop growing; unplug ends it', async () => {
      const sample = await run(as, 'configuration', {
        target: target(),
        payload: setting('MeterValueSampleInterval', 'SampledDataCtrlr', 'TxUpdatedInterval', '1'),
      });
      assert.equal(sample.status, 'completed', JSON.stringify(sample));
      const plug = await run(as, 'plug-in', { target: target(), payload: { connector_id: 1 } });
      assert.equal(plug.status, 'completed', JSON.stringify(plug));
      const token = await run(as, 'present-token', {
        target: target(),
        payload: { id_tag: 'TAG-EV-1', connector_id: 1 },
      });
      assert.equal(token.status, 'completed', JSON.stringify(token));
      assert.ok(calls('Authorize').length >= 1);
      const started = () =>
        v16
          ? calls('StartTransaction').find((c) => c.params.idTag === 'TAG-EV-1')
          : calls('TransactionEvent').find(
              (c) => c.params.eventType === 'Started' || c.params.idToken?.idToken === 'TAG-EV-1',
            );
      await csms.waitFor(started);

      // Energy flows: readings grow before the EV stops.
      const energy = (c: { params: any }): number | undefined => {
        const mv = v16 ? c.params.meterValue : c.params.meterValue;
        const sv = mv?.flatMap((m: any) => m.sampledValue ?? []) ?? [];
        const e = sv.find(
          (s: any) => (s.measurand ?? 'Energy.Active.Import.Register') === 'Energy.Active.Import.Register',
        );
        return e === undefined ? undefined : Number(e.value);
      };
      const readings = () =>
        (v16 ? calls('MeterValues') : calls('TransactionEvent'))
          .map(energy)
          .filter((x): x is number => x !== undefined);
      await csms.waitFor(() => readings().length >= 3 && readings().at(-1)! > readings()[0], 10_000);

      const stop = await run(as, 'ev-stops-energy', { target: target(), payload: {} });
      assert.equal(stop.status, 'completed', JSON.stringify(stop));
      if (v16)
        await csms.waitFor(() =>
          calls('StatusNotification').find(
            (c) => c.params.status === 'SuspendedEV' && c.params.connectorId === 1,
          ),
        );
      else
        await csms.waitFor(() =>
          calls('TransactionEvent').find(
            (c) =>
              c.params.eventType === 'Updated' && c.params.transactionInfo?.chargingState === 'SuspendedEV',
          ),
        );
      // The first reading after the suspension may still hold the last charging slice; the ones after it stand still.
      const suspendedAt = readings().length;
      await csms.waitFor(() => readings().length >= suspendedAt + 3, 10_000);
      const after = readings().slice(suspendedAt + 1);
      assert.equal(after.at(-1), after[0], `energy kept growing: ${after.join(', ')}`);

      const unplug = await run(as, 'unplug', { target: target(), payload: { connector_id: 1 } });
      assert.equal(unplug.status, 'completed', JSON.stringify(unplug));
      if (v16) {
        const stopTx = await csms.waitFor(() => calls('StopTransaction')[0]);
        assert.equal(stopTx.params.reason, 'EVDisconnected');
        const n = csms.received.indexOf(stopTx);
        await csms.waitFor(() =>
          csms.received
            .slice(n)
            .find(
              (c) =>
                c.identity === ID &&
                c.action === 'StatusNotification' &&
                c.params.connectorId === 1 &&
                c.params.status === 'Available',
            ),
        );
      } else {
        const ended = await csms.waitFor(() =>
          calls('TransactionEvent').find((c) => c.params.eventType === 'Ended'),
        );
        assert.equal(ended.params.transactionInfo.stoppedReason, 'EVDisconnected');
      }
      await run(as, 'configuration', {
        target: target(),
        payload: setting('MeterValueSampleInterval', 'SampledDataCtrlr', 'TxUpdatedInterval', '60'),
      });
    });

    test('E14 cache/reset clears the authorization cache: a cached token needs Authorize again', async () => {
      await run(as, 'configuration', {
        target: target(),
        payload: setting('LocalPreAuthorize', 'AuthCtrlr', 'LocalPreAuthorize', 'true'),
      });
      const first = await run(as, 'present-token', {
        target: target(),
        payload: { id_tag: 'TAG-CACHE', connector_id: 2 },
      });
      assert.equal(first.status, 'completed', JSON.stringify(first));
      const again = await run(as, 'present-token', {
        target: target(),
        payload: { id_tag: 'TAG-CACHE', connector_id: 2 },
      });
      assert.equal(again.status, 'completed', JSON.stringify(again));
      assert.equal(again.response.source, 'cache', 'answered from the cache');
      const authorizes = calls('Authorize').length;

      const reset = await run(as, 'cache/reset', { target: target() });
      assert.equal(reset.status, 'completed', JSON.stringify(reset));
      assert.equal(reset.event_type, 'cache-reset');
      assert.deepEqual(reset.response, { status: 'Accepted' });

      const third = await run(as, 'present-token', {
        target: target(),
        payload: { id_tag: 'TAG-CACHE', connector_id: 2 },
      });
      assert.equal(third.status, 'completed', JSON.stringify(third));
      assert.equal(calls('Authorize').length, authorizes + 1, 'the CSMS was asked again');
    });

    test('E15 local-auth-list: Full, then a Differential must carry a newer version', async () => {
      const full = await run(as, 'local-auth-list', {
        target: target(),
        payload: {
          list_version: 3,
          update_type: 'Full',
          entries: [{ id_tag: 'LL-1', id_tag_info: { status: 'Accepted' } }],
        },
      });
      assert.equal(full.status, 'completed', JSON.stringify(full));
      assert.deepEqual(full.response, { status: 'Accepted' });
      const stale = await run(as, 'local-auth-list', {
        target: target(),
        payload: { list_version: 3, update_type: 'Differential', entries: [{ id_tag: 'LL-2' }] },
      });
      assert.equal(stale.status, 'rejected', JSON.stringify(stale));
      assert.deepEqual(stale.response, { status: 'VersionMismatch' });
      const diff = await run(as, 'local-auth-list', {
        target: target(),
        payload: {
          list_version: 4,
          update_type: 'Differential',
          entries: [{ id_tag: 'LL-2', id_tag_info: { status: 'Blocked' } }],
        },
      });
      assert.equal(diff.status, 'completed', JSON.stringify(diff));
      const version = await csms.call(ID, 'GetLocalListVersion', {});
      assert.equal(v16 ? version.listVersion : version.versionNumber, 4);
    });

    test('fault and clear-fault: the connector reports Faulted with the error code, then Available', async () => {
      const fault = await run(as, 'fault', {
        target: target(),
        payload: { connector_id: 2, error_code: v16 ? 'GroundFailure' : 'GroundFailure' },
      });
      assert.equal(fault.status, 'completed', JSON.stringify(fault));
      const faulted = await csms.waitFor(() =>
        calls('StatusNotification').find(
          (c) => (v16 ? c.params.status : c.params.connectorStatus) === 'Faulted',
        ),
      );
      if (v16) assert.equal(faulted.params.errorCode, 'GroundFailure');
      const n = calls('StatusNotification').length;
      const clear = await run(as, 'clear-fault', { target: target(), payload: { connector_id: 2 } });
      assert.equal(clear.status, 'completed', JSON.stringify(clear));
      await csms.waitFor(() =>
        calls('StatusNotification')
          .slice(n)
          .find((c) => (v16 ? c.params.status : c.params.connectorStatus) !== 'Faulted'),
      );
    });

    test('disconnect: the charger drops its WebSocket and reconnects by itself', async () => {
      const before = csms.clients.get(ID);
      assert.ok(before);
      const r = await run(as, 'disconnect', { target: target() });
      assert.equal(r.status, 'completed', JSON.stringify(r));
      await csms.waitFor(() => csms.clients.get(ID) && csms.clients.get(ID) !== before, 15_000);
    });
  });
}
