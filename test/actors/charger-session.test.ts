import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSchemaValid, harness, type Harness } from './charger-harness.ts';

const energyOf = (h: Harness, version: string, call: { payload: Record<string, any> }) => {
  const sv = call.payload.meterValue[0].sampledValue.find(
    (x: any) => x.measurand === 'Energy.Active.Import.Register',
  );
  return Number(sv.value);
};

const remoteStart = (h: Harness, version: string, connectorId = 1) =>
  version === 'ocpp1.6'
    ? h.csmsCall('RemoteStartTransaction', { connectorId, idTag: 'REMOTE-1' })
    : h.csmsCall('RequestStartTransaction', {
        evseId: connectorId,
        remoteStartId: 7,
        idToken: { idToken: 'REMOTE-1', type: 'Central' },
      });

/** The meter samples of running transactions. */
const samples = (h: Harness, version: string) =>
  version === 'ocpp1.6'
    ? h.callsOf('MeterValues')
    : h.callsOf('TransactionEvent').filter((c) => c.payload.triggerReason === 'MeterValuePeriodic');

for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const) {
  test(`${version}: remote start -> Charging with growing meter values -> remote stop -> Finishing until UNPLUG`, async () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'plug' });
    assert.equal(h.connector(1).status, 'Preparing');
    const answer = (await remoteStart(h, version)) as { status: string; transactionId?: string };
    assert.equal(answer.status, 'Accepted');
    assert.equal(h.connector(1).status, 'Charging');
    assert.equal(answer.transactionId, h.connector(1).tx!.id); // 2.0.1 names it in the answer
    if (version === 'ocpp1.6') {
      const start = h.callsOf('StartTransaction')[0];
      assert.deepEqual(
        { ...start.payload, timestamp: 'x' },
        { connectorId: 1, idTag: 'REMOTE-1', meterStart: 0, timestamp: 'x' },
      );
    } else {
      const started = h.callsOf('TransactionEvent')[0].payload;
      assert.equal(started.eventType, 'Started');
      assert.equal(started.triggerReason, 'RemoteStart');
      assert.equal(started.seqNo, 0);
      assert.equal(started.transactionInfo.remoteStartId, 7);
      assert.deepEqual(started.idToken, { idToken: 'REMOTE-1', type: 'Central' });
    }
    for (let i = 0; i < 3; i++) h.tick(60_000);
    const meter = samples(h, version);
    assert.equal(meter.length, 3);
    // 22 kW for 60 s = 366.67 Wh per sample.
    assert.deepEqual(
      meter.map((c) => energyOf(h, version, c)),
      [366, 733, 1100],
    );
    if (version === 'ocpp1.6') assert.ok(meter.every((c) => c.payload.transactionId === 100));
    else
      assert.deepEqual(
        meter.map((c) => c.payload.seqNo),
        [1, 2, 3],
      );

    const stop =
      version === 'ocpp1.6'
        ? await h.csmsCall('RemoteStopTransaction', { transactionId: 100 })
        : await h.csmsCall('RequestStopTransaction', {
            transactionId: h.callsOf('TransactionEvent')[0].payload.transactionInfo.transactionId,
          });
    assert.deepEqual(stop, { status: 'Accepted' });
    assert.equal(h.connector(1).status, 'Finishing');
    if (version === 'ocpp1.6') {
      const s = h.callsOf('StopTransaction')[0].payload;
      assert.equal(s.transactionId, 100);
      assert.equal(s.reason, 'Remote');
      assert.equal(s.meterStop, 1100);
    } else {
      const ended = h.callsOf('TransactionEvent').at(-1)!.payload;
      assert.equal(ended.eventType, 'Ended');
      assert.equal(ended.triggerReason, 'RemoteStop');
      assert.equal(ended.transactionInfo.stoppedReason, 'Remote');
      assert.equal(ended.seqNo, 4);
    }
    h.tick(600_000);
    assert.equal(h.connector(1).status, 'Finishing');
    assert.equal(samples(h, version).length, 3);
    h.send({ type: 'UNPLUG', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Available');
    const statuses = h
      .callsOf('StatusNotification')
      .filter((c) => (c.payload.connectorId === 1 && version === 'ocpp1.6') || c.payload.evseId === 1)
      .map((c) => c.payload.status ?? c.payload.connectorStatus);
    assert.deepEqual(
      statuses,
      version === 'ocpp1.6'
        ? ['Available', 'Preparing', 'Charging', 'Finishing', 'Available']
        : ['Available', 'Occupied', 'Available'],
    );
    assert.equal(h.results[0].commandId, 'plug');
    assertSchemaValid(h, version);
    h.stop();
  });
}

test('ocpp1.6: offline queue delivers StartTransaction, MeterValues, StopTransaction in order with the CSMS id', () => {
  const h = harness('ocpp1.6', { connect: 'manual' });
  h.deploy();
  h.link.sendBack!({ type: 'link.open' });
  assert.equal(h.stage(), 'online');
  h.send({ type: 'DISCONNECT' });
  assert.equal(h.stage(), 'offline');
  // Offline: the token is authorized by the local list, the session runs and ends.
  h.send({
    type: 'SEND_LOCAL_LIST',
    list: { version: 1, updateType: 'Full', entries: [{ idTag: 'LOCAL-1', status: 'Accepted' }] },
  });
  h.send({ type: 'PLUG_IN', connectorId: 2 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'LOCAL-1', commandId: 'tok' });
  assert.equal(h.connector(2).status, 'Charging');
  assert.equal(h.results.at(-1)!.ok, true);
  const sent = h.calls.length;
  h.tick(500); // before the reconnect (750 ms)
  assert.equal(h.stage(), 'offline');
  for (let i = 0; i < 2; i++) h.tick(60_000);
  h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'LOCAL-1' });
  h.send({ type: 'UNPLUG', connectorId: 2 });
  assert.equal(h.connector(2).status, 'Available');
  assert.deepEqual(
    h.ctx().outbox.map((o) => o.action),
    ['StartTransaction', 'MeterValues', 'MeterValues', 'StopTransaction'],
  );
  assert.equal(h.calls.length, sent, 'nothing was sent while offline');
  // The reconnect attempt happened meanwhile and is still waiting for the socket to open.
  assert.equal(h.stage(), 'connecting');
  h.link.sendBack!({ type: 'link.open' });
  assert.equal(h.stage(), 'online');
  const after = h.calls
    .slice(sent)
    .filter((c) => c.action !== 'StatusNotification' && c.action !== 'BootNotification');
  assert.deepEqual(
    after.map((c) => c.action),
    ['StartTransaction', 'MeterValues', 'MeterValues', 'StopTransaction'],
  );
  assert.deepEqual(
    after.slice(1).map((c) => c.payload.transactionId),
    [100, 100, 100],
  );
  assert.equal(h.ctx().outbox.length, 0);
  assert.deepEqual(h.stageLog().slice(-1), ['online:recovered']);
  assertSchemaValid(h, 'ocpp1.6');
  h.stop();
});

test('ocpp2.0.1: offline TransactionEvents carry offline: true and keep their seqNo order', async () => {
  const h = harness('ocpp2.0.1', { connect: 'manual' });
  h.deploy();
  h.link.sendBack!({ type: 'link.open' });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall('RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 1,
    idToken: { idToken: 'R', type: 'Central' },
  });
  h.send({ type: 'DISCONNECT' });
  const sent = h.calls.length;
  for (let i = 0; i < 2; i++) h.tick(60_000);
  h.send({ type: 'EV_STOPS_ENERGY', connectorId: 1 });
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.equal(h.calls.length, sent);
  h.link.sendBack!({ type: 'link.open' });
  const tx = h.calls.slice(sent).filter((c) => c.action === 'TransactionEvent');
  assert.deepEqual(
    tx.map((c) => [c.payload.eventType, c.payload.triggerReason, c.payload.seqNo, c.payload.offline]),
    [
      ['Updated', 'MeterValuePeriodic', 1, true],
      ['Updated', 'MeterValuePeriodic', 2, true],
      ['Updated', 'ChargingStateChanged', 3, true],
      ['Ended', 'EVCommunicationLost', 4, true],
    ],
  );
  assert.equal(tx[2].payload.transactionInfo.chargingState, 'SuspendedEV');
  assert.deepEqual(h.stageLog().slice(-1), ['online:recovered']);
  assertSchemaValid(h, 'ocpp2.0.1');
  h.stop();
});

for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const) {
  test(`${version}: a charging profile limit lowers the meter growth`, async () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await remoteStart(h, version);
    h.tick(60_000);
    const profile =
      version === 'ocpp1.6'
        ? {
            connectorId: 1,
            csChargingProfiles: {
              chargingProfileId: 1,
              stackLevel: 0,
              chargingProfilePurpose: 'TxDefaultProfile',
              chargingProfileKind: 'Relative',
              chargingSchedule: {
                chargingRateUnit: 'W',
                chargingSchedulePeriod: [{ startPeriod: 0, limit: 6000 }],
              },
            },
          }
        : {
            evseId: 1,
            chargingProfile: {
              id: 1,
              stackLevel: 0,
              chargingProfilePurpose: 'TxDefaultProfile',
              chargingProfileKind: 'Relative',
              chargingSchedule: [
                { id: 1, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 6000 }] },
              ],
            },
          };
    assert.deepEqual(await h.csmsCall('SetChargingProfile', profile), { status: 'Accepted' });
    h.tick(60_000);
    const e = samples(h, version).map((c) => energyOf(h, version, c));
    assert.deepEqual(e, [366, 466]); // 22 kW then 6 kW for a minute each
    const composite =
      version === 'ocpp1.6'
        ? (
            (await h.csmsCall('GetCompositeSchedule', {
              connectorId: 1,
              duration: 3600,
              chargingRateUnit: 'W',
            })) as any
          ).chargingSchedule
        : (
            (await h.csmsCall('GetCompositeSchedule', {
              evseId: 1,
              duration: 3600,
              chargingRateUnit: 'W',
            })) as any
          ).schedule;
    assert.deepEqual(composite.chargingSchedulePeriod, [{ startPeriod: 0, limit: 6000 }]);
    const cleared = await h.csmsCall(
      'ClearChargingProfile',
      version === 'ocpp1.6' ? { id: 1 } : { chargingProfileId: 1 },
    );
    assert.deepEqual(cleared, { status: 'Accepted' });
    h.tick(60_000);
    assert.equal(energyOf(h, version, samples(h, version).at(-1)!), 833);
    assertSchemaValid(h, version);
    h.stop();
  });

  test(`${version}: a token is authorized by the CSMS once, then from the cache; Blocked in the local list wins`, async () => {
    const h = harness(version, {
      answers: {
        Authorize: () =>
          version === 'ocpp1.6'
            ? { idTagInfo: { status: 'Accepted' } }
            : { idTokenInfo: { status: 'Accepted' } },
      },
      input: { config: { LocalPreAuthorize: 'true' } },
    });
    h.deploy();
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-1', commandId: 'a' });
    assert.equal(h.callsOf('Authorize').length, 1);
    assert.equal(h.connector(1).status, 'Preparing');
    assert.equal(h.results.at(-1)!.commandId, 'a');
    assert.equal(h.results.at(-1)!.ok, true);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Charging');
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-1' });
    assert.equal(h.connector(1).status, 'Finishing');
    h.send({ type: 'UNPLUG', connectorId: 1 });
    // Cached now: LocalPreAuthorize starts without asking the CSMS.
    h.send({ type: 'PLUG_IN', connectorId: 2 });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'CARD-1', commandId: 'b' });
    assert.equal(h.callsOf('Authorize').length, 1);
    assert.equal(h.connector(2).status, 'Charging');
    assert.deepEqual(h.results.at(-1)!.payload, { status: 'Accepted', source: 'cache' });
    const list = {
      version: 3,
      updateType: 'Full' as const,
      entries: [{ idTag: 'CARD-2', status: 'Blocked' }],
    };
    h.send({ type: 'SEND_LOCAL_LIST', list, commandId: 'c' });
    assert.equal(h.results.at(-1)!.ok, true);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-2', commandId: 'd' });
    assert.equal(h.callsOf('Authorize').length, 1);
    assert.equal(h.results.at(-1)!.ok, false);
    assert.equal(h.connector(1).status, 'Preparing');
    h.send({ type: 'CLEAR_CACHE', commandId: 'e' });
    assert.deepEqual(h.ctx().authCache, {});
    assertSchemaValid(h, version);
    h.stop();
  });

  test(`${version}: EV_STOPS_ENERGY suspends the session and the meter stops growing`, async () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await remoteStart(h, version);
    h.tick(60_000);
    h.send({ type: 'EV_STOPS_ENERGY', connectorId: 1, commandId: 'full' });
    assert.equal(h.connector(1).status, 'SuspendedEV');
    assert.equal(h.results.at(-1)!.ok, true);
    if (version === 'ocpp1.6')
      assert.equal(h.callsOf('StatusNotification').at(-1)!.payload.status, 'SuspendedEV');
    else {
      const ev = h.callsOf('TransactionEvent').at(-1)!.payload;
      assert.equal(ev.triggerReason, 'ChargingStateChanged');
      assert.equal(ev.transactionInfo.chargingState, 'SuspendedEV');
    }
    h.tick(60_000);
    h.tick(60_000);
    assert.deepEqual(
      samples(h, version).map((c) => energyOf(h, version, c)),
      [366, 366, 366],
    );
    assertSchemaValid(h, version);
    h.stop();
  });

  test(`${version}: FAULT stops the transaction and reports Faulted; CLEAR_FAULT brings the connector back`, async () => {
    const h = harness(version);
    h.deploy();
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    await remoteStart(h, version);
    h.send({ type: 'FAULT', connectorId: 1, errorCode: 'GroundFailure' });
    assert.equal(h.connector(1).status, 'Faulted');
    assert.equal(h.connector(1).tx, undefined);
    const last = h.callsOf('StatusNotification').at(-1)!.payload;
    if (version === 'ocpp1.6') assert.deepEqual([last.status, last.errorCode], ['Faulted', 'GroundFailure']);
    else assert.equal(last.connectorStatus, 'Faulted');
    h.send({ type: 'CLEAR_FAULT', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Preparing');
    assertSchemaValid(h, version);
    h.stop();
  });

  test(`${version}: PROXY_CALL returns the central system's answer; commands while stopped fail`, () => {
    const h = harness(version);
    h.deploy();
    h.send({
      type: 'PROXY_CALL',
      action: 'DataTransfer',
      payload: { vendorId: 'evsim', messageId: 'hello' },
      commandId: 'p1',
    });
    assert.deepEqual(h.results.at(-1), {
      type: 'command.result',
      commandId: 'p1',
      identity: 'CP-TEST-1',
      command: 'PROXY_CALL',
      ok: true,
      action: 'DataTransfer',
      payload: { status: 'Accepted' },
    });
    h.send({ type: 'STOP' });
    h.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'p2' });
    assert.equal(h.results.at(-1)!.ok, false);
    assert.equal(h.results.at(-1)!.error!.code, 'NOT_RUNNING');
    h.stop();
  });
}
