import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSchemaValid, harness } from './charger-harness.ts';

test('ocpp1.6: every CSMS call is answered with a schema-valid payload', async () => {
  const h = harness('ocpp1.6');
  h.deploy();
  const cfg = (await h.csmsCall('GetConfiguration', {
    key: ['HeartbeatInterval', 'NumberOfConnectors', 'NoSuchKey'],
  })) as any;
  assert.deepEqual(cfg.configurationKey, [
    { key: 'HeartbeatInterval', readonly: false, value: '300' },
    { key: 'NumberOfConnectors', readonly: true, value: '2' },
  ]);
  assert.deepEqual(cfg.unknownKey, ['NoSuchKey']);
  assert.ok(((await h.csmsCall('GetConfiguration', {})) as any).configurationKey.length > 20);
  assert.deepEqual(
    await h.csmsCall('ChangeConfiguration', { key: 'MeterValueSampleInterval', value: '30' }),
    { status: 'Accepted' },
  );
  assert.deepEqual(await h.csmsCall('ChangeConfiguration', { key: 'NumberOfConnectors', value: '5' }), {
    status: 'Rejected',
  });
  assert.deepEqual(await h.csmsCall('ChangeConfiguration', { key: 'HeartbeatInterval', value: 'soon' }), {
    status: 'Rejected',
  });
  assert.deepEqual(await h.csmsCall('ChangeConfiguration', { key: 'Nope', value: '1' }), {
    status: 'NotSupported',
  });
  assert.deepEqual(await h.csmsCall('ClearCache', {}), { status: 'Accepted' });
  assert.deepEqual(
    await h.csmsCall('SendLocalList', {
      listVersion: 4,
      updateType: 'Full',
      localAuthorizationList: [{ idTag: 'A', idTagInfo: { status: 'Accepted' } }],
    }),
    { status: 'Accepted' },
  );
  assert.deepEqual(
    await h.csmsCall('SendLocalList', {
      listVersion: 4,
      updateType: 'Differential',
      localAuthorizationList: [],
    }),
    {
      status: 'VersionMismatch',
    },
  );
  assert.deepEqual(await h.csmsCall('GetLocalListVersion', {}), { listVersion: 4 });
  const before = h.calls.length;
  assert.deepEqual(
    await h.csmsCall('TriggerMessage', { requestedMessage: 'StatusNotification', connectorId: 2 }),
    { status: 'Accepted' },
  );
  assert.deepEqual(
    h.calls.slice(before).map((c) => [c.action, c.payload.connectorId]),
    [['StatusNotification', 2]],
  );
  assert.deepEqual(await h.csmsCall('TriggerMessage', { requestedMessage: 'Heartbeat' }), {
    status: 'Accepted',
  });
  assert.equal(h.calls.at(-1)!.action, 'Heartbeat');
  assert.deepEqual(await h.csmsCall('TriggerMessage', { requestedMessage: 'MeterValues', connectorId: 1 }), {
    status: 'Accepted',
  });
  assert.equal(h.calls.at(-1)!.action, 'MeterValues');
  assert.deepEqual(await h.csmsCall('TriggerMessage', { requestedMessage: 'FirmwareStatusNotification' }), {
    status: 'Accepted',
  });
  assert.deepEqual(await h.csmsCall('ChangeAvailability', { connectorId: 2, type: 'Inoperative' }), {
    status: 'Accepted',
  });
  assert.equal(h.connector(2).status, 'Unavailable');
  assert.deepEqual(await h.csmsCall('ChangeAvailability', { connectorId: 2, type: 'Operative' }), {
    status: 'Accepted',
  });
  assert.equal(h.connector(2).status, 'Available');
  assert.deepEqual(await h.csmsCall('ChangeAvailability', { connectorId: 9, type: 'Operative' }), {
    status: 'Rejected',
  });
  assert.deepEqual(await h.csmsCall('UnlockConnector', { connectorId: 1 }), { status: 'Unlocked' });
  assert.deepEqual(await h.csmsCall('UnlockConnector', { connectorId: 9 }), { status: 'UnlockFailed' });
  assert.deepEqual(await h.csmsCall('DataTransfer', { vendorId: 'acme', messageId: 'x', data: 'hi' }), {
    status: 'Accepted',
    data: 'hi',
  });
  assert.deepEqual(await h.csmsCall('ClearChargingProfile', { id: 42 }), { status: 'Unknown' });
  assert.deepEqual(await h.csmsCall('RemoteStopTransaction', { transactionId: 999 }), { status: 'Rejected' });
  await assert.rejects(
    h.csmsCall('UpdateFirmware', { location: 'http://x', retrieveDate: new Date().toISOString() }),
    /NotImplemented/,
  );
  assertSchemaValid(h, 'ocpp1.6');
  h.stop();
});

test('ocpp1.6: Reset Soft stops the transaction with reason SoftReset, answers, then reboots through BootNotification', async () => {
  const h = harness('ocpp1.6');
  h.deploy();
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall('RemoteStartTransaction', { connectorId: 1, idTag: 'R' });
  const boots = h.callsOf('BootNotification').length;
  assert.deepEqual(await h.csmsCall('Reset', { type: 'Soft' }), { status: 'Accepted' });
  assert.equal(h.callsOf('StopTransaction')[0].payload.reason, 'SoftReset');
  h.tick(200);
  assert.equal(h.stage(), 'online');
  assert.equal(h.callsOf('BootNotification').length, boots + 1);
  assert.ok(h.stageLog().includes('starting:in_progress'));
  assert.deepEqual(h.stageLog().slice(-1), ['online:succeeded']);
  assertSchemaValid(h, 'ocpp1.6');
  h.stop();
});

test('ocpp2.0.1: every CSMS call is answered with a schema-valid payload', async () => {
  const h = harness('ocpp2.0.1');
  h.deploy();
  const got = (await h.csmsCall('GetVariables', {
    getVariableData: [
      { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } },
      { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'Nope' } },
      { component: { name: 'NoSuchCtrlr' }, variable: { name: 'X' } },
      { component: { name: 'EVSE', evse: { id: 1 } }, variable: { name: 'AvailabilityState' } },
    ],
  })) as any;
  assert.deepEqual(
    got.getVariableResult.map((r: any) => [r.attributeStatus, r.attributeValue]),
    [
      ['Accepted', '300'],
      ['UnknownVariable', undefined],
      ['UnknownComponent', undefined],
      ['Accepted', 'Available'],
    ],
  );
  const set = (await h.csmsCall('SetVariables', {
    setVariableData: [
      {
        component: { name: 'SampledDataCtrlr' },
        variable: { name: 'TxUpdatedInterval' },
        attributeValue: '15',
      },
      { component: { name: 'ChargingStation' }, variable: { name: 'Model' }, attributeValue: 'X' },
    ],
  })) as any;
  assert.deepEqual(
    set.setVariableResult.map((r: any) => r.attributeStatus),
    ['Accepted', 'Rejected'],
  );
  const before = h.calls.length;
  assert.deepEqual(await h.csmsCall('GetBaseReport', { requestId: 5, reportBase: 'FullInventory' }), {
    status: 'Accepted',
  });
  const reports = h.calls.slice(before).filter((c) => c.action === 'NotifyReport');
  assert.ok(reports.length >= 1);
  assert.ok(reports.every((r) => r.payload.requestId === 5));
  assert.equal(reports.at(-1)!.payload.tbc, false);
  const all = reports.flatMap((r) => r.payload.reportData);
  assert.ok(
    all.some((d: any) => d.component.name === 'SampledDataCtrlr' && d.variableAttribute[0].value === '15'),
  );
  assert.deepEqual(
    await h.csmsCall('GetReport', {
      requestId: 6,
      componentVariable: [{ component: { name: 'AuthCacheCtrlr' } }],
    }),
    { status: 'Accepted' },
  );
  assert.deepEqual(
    await h.csmsCall('GetReport', { requestId: 7, componentVariable: [{ component: { name: 'Nothing' } }] }),
    {
      status: 'EmptyResultSet',
    },
  );
  assert.deepEqual(await h.csmsCall('ClearCache', {}), { status: 'Accepted' });
  assert.deepEqual(
    await h.csmsCall('SendLocalList', {
      versionNumber: 2,
      updateType: 'Full',
      localAuthorizationList: [
        { idToken: { idToken: 'A', type: 'ISO14443' }, idTokenInfo: { status: 'Accepted' } },
      ],
    }),
    { status: 'Accepted' },
  );
  assert.deepEqual(await h.csmsCall('GetLocalListVersion', {}), { versionNumber: 2 });
  assert.deepEqual(
    await h.csmsCall('TriggerMessage', { requestedMessage: 'StatusNotification', evse: { id: 1 } }),
    { status: 'Accepted' },
  );
  assert.deepEqual(await h.csmsCall('TriggerMessage', { requestedMessage: 'BootNotification' }), {
    status: 'Accepted',
  });
  assert.deepEqual(await h.csmsCall('TriggerMessage', { requestedMessage: 'LogStatusNotification' }), {
    status: 'NotImplemented',
  });
  assert.deepEqual(
    await h.csmsCall('ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 2 } }),
    { status: 'Accepted' },
  );
  assert.equal(h.callsOf('StatusNotification').at(-1)!.payload.connectorStatus, 'Unavailable');
  assert.deepEqual(await h.csmsCall('UnlockConnector', { evseId: 1, connectorId: 1 }), {
    status: 'Unlocked',
  });
  assert.deepEqual(await h.csmsCall('UnlockConnector', { evseId: 7, connectorId: 1 }), {
    status: 'UnknownConnector',
  });
  assert.deepEqual(await h.csmsCall('DataTransfer', { vendorId: 'acme' }), { status: 'Accepted' });
  assert.deepEqual(await h.csmsCall('RequestStopTransaction', { transactionId: 'nope' }), {
    status: 'Rejected',
  });
  await assert.rejects(h.csmsCall('CostUpdated', { totalCost: 1, transactionId: 'x' }), /NotImplemented/);
  assertSchemaValid(h, 'ocpp2.0.1');
  h.stop();
});

test('ocpp2.0.1: Reset OnIdle is Scheduled during a transaction and reboots when it ends', async () => {
  const h = harness('ocpp2.0.1');
  h.deploy();
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall('RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 1,
    idToken: { idToken: 'R', type: 'Central' },
  });
  const boots = h.callsOf('BootNotification').length;
  assert.deepEqual(await h.csmsCall('Reset', { type: 'OnIdle' }), { status: 'Scheduled' });
  h.tick(1_000);
  assert.equal(h.callsOf('BootNotification').length, boots);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  h.tick(200);
  assert.equal(h.callsOf('BootNotification').length, boots + 1);
  assert.equal(h.stage(), 'online');
  assert.deepEqual(await h.csmsCall('Reset', { type: 'Immediate' }), { status: 'Accepted' });
  h.tick(200);
  assert.equal(h.callsOf('BootNotification').length, boots + 2);
  assertSchemaValid(h, 'ocpp2.0.1');
  h.stop();
});
