// Configuration (blocks/configuration.ts, the 1.6 keys and the 2.x device model of the adapters).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { online } from '../charger-harness.ts';

test('ocpp1.6: GetConfiguration answers the keys asked, and names the unknown ones', async () => {
  const h = online('ocpp1.6');
  const cfg = await h.csmsCall('GetConfiguration', {
    key: ['HeartbeatInterval', 'NumberOfConnectors', 'NoSuchKey'],
  });
  assert.deepEqual(cfg.configurationKey, [
    { key: 'HeartbeatInterval', readonly: false, value: '300' },
    { key: 'NumberOfConnectors', readonly: true, value: '2' },
  ]);
  assert.deepEqual(cfg.unknownKey, ['NoSuchKey']);
  h.finish();
});

test('ocpp1.6: SupportedFeatureProfiles names every profile the charger implements, reservations and firmware included', async () => {
  const h = online('ocpp1.6');
  const [entry] = (await h.csmsCall('GetConfiguration', { key: ['SupportedFeatureProfiles'] }))
    .configurationKey;
  assert.deepEqual(entry.value.split(',').sort(), [
    'Core',
    'FirmwareManagement',
    'LocalAuthListManagement',
    'RemoteTrigger',
    'Reservation',
    'SmartCharging',
  ]);
  h.finish();
});

test('ocpp1.6: GetConfiguration without keys answers every setting', async () => {
  const h = online('ocpp1.6');
  assert.ok((await h.csmsCall('GetConfiguration', {})).configurationKey.length > 20);
  h.finish();
});

for (const [key, value, status] of [
  ['MeterValueSampleInterval', '30', 'Accepted'],
  ['NumberOfConnectors', '5', 'Rejected'], // read-only
  ['HeartbeatInterval', 'soon', 'Rejected'], // not an integer
  ['Nope', '1', 'NotSupported'],
]) {
  test(`ocpp1.6: ChangeConfiguration ${key}=${value} is ${status}`, async () => {
    const h = online('ocpp1.6');
    assert.deepEqual(await h.csmsCall('ChangeConfiguration', { key, value }), { status });
    if (status === 'Accepted')
      assert.equal((await h.csmsCall('GetConfiguration', { key: [key] })).configurationKey[0].value, value);
    h.finish();
  });
}

test('ocpp2.0.1: B06 GetVariables answers each variable, or why not', async () => {
  const h = online('ocpp2.0.1');
  const got = await h.csmsCall('GetVariables', {
    getVariableData: [
      { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } },
      { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'Nope' } },
      { component: { name: 'NoSuchCtrlr' }, variable: { name: 'X' } },
      { component: { name: 'EVSE', evse: { id: 1 } }, variable: { name: 'AvailabilityState' } },
    ],
  });
  assert.deepEqual(
    got.getVariableResult.map((r: any) => [r.attributeStatus, r.attributeValue]),
    [
      ['Accepted', '300'],
      ['UnknownVariable', undefined],
      ['UnknownComponent', undefined],
      ['Accepted', 'Available'],
    ],
  );
  h.finish();
});

test('ocpp2.0.1: B05 SetVariables: a writable variable is Accepted, a read-only one Rejected', async () => {
  const h = online('ocpp2.0.1');
  const set = await h.csmsCall('SetVariables', {
    setVariableData: [
      {
        component: { name: 'SampledDataCtrlr' },
        variable: { name: 'TxUpdatedInterval' },
        attributeValue: '15',
      },
      { component: { name: 'ChargingStation' }, variable: { name: 'Model' }, attributeValue: 'X' },
    ],
  });
  assert.deepEqual(
    set.setVariableResult.map((r: any) => r.attributeStatus),
    ['Accepted', 'Rejected'],
  );
  assert.equal(h.ctx().settings.MeterValueSampleInterval, '15');
  h.finish();
});

test('ocpp2.0.1: B07 GetBaseReport: Accepted, then the device model in NotifyReport messages', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall('SetVariables', {
    setVariableData: [
      {
        component: { name: 'SampledDataCtrlr' },
        variable: { name: 'TxUpdatedInterval' },
        attributeValue: '15',
      },
    ],
  });
  const before = h.calls.length;
  assert.deepEqual(await h.csmsCall('GetBaseReport', { requestId: 5, reportBase: 'FullInventory' }), {
    status: 'Accepted',
  });
  const reports = h.callsSince(before).filter((c) => c.action === 'NotifyReport');
  assert.ok(reports.length >= 1);
  assert.ok(reports.every((r) => r.payload.requestId === 5));
  assert.equal(reports.at(-1)!.payload.tbc, false);
  const all = reports.flatMap((r) => r.payload.reportData);
  assert.ok(
    all.some((d: any) => d.component.name === 'SampledDataCtrlr' && d.variableAttribute[0].value === '15'),
  );
  h.finish();
});

test('ocpp2.0.1: B08 GetReport of a known component is Accepted', async () => {
  const h = online('ocpp2.0.1');
  const before = h.calls.length;
  assert.deepEqual(
    await h.csmsCall('GetReport', {
      requestId: 6,
      componentVariable: [{ component: { name: 'AuthCacheCtrlr' } }],
    }),
    { status: 'Accepted' },
  );
  const reports = h.callsSince(before).filter((c) => c.action === 'NotifyReport');
  assert.ok(
    reports.flatMap((r) => r.payload.reportData).every((d: any) => d.component.name === 'AuthCacheCtrlr'),
  );
  h.finish();
});

test('ocpp2.0.1: B08 GetReport of an unknown component is EmptyResultSet', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(
    await h.csmsCall('GetReport', { requestId: 7, componentVariable: [{ component: { name: 'Nothing' } }] }),
    { status: 'EmptyResultSet' },
  );
  h.finish();
});
