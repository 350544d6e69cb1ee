// Monitoring (blocks/monitoring.ts, ocpp2/ocpp2-monitoring.ts; OCPP 2.0.1 block N): monitors on the
// power and availability of an EVSE, the NotifyEvent they raise, the report and the level.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T0, online, type Harness } from '../charger-harness.ts';
import { aRemoteStart } from '../builders.ts';

const EVSE1 = { name: 'EVSE', evse: { id: 1 } };
const POWER = { name: 'Power' };
const STATE = { name: 'AvailabilityState' };

function monitor(o: {
  type: string;
  value: number;
  severity?: number;
  variable?: object;
  component?: object;
  id?: number;
  transaction?: boolean;
}) {
  const { variable = POWER, component = EVSE1, severity = 5, ...rest } = o;
  return { component, variable, severity, ...rest };
}

async function setMonitors(h: Harness, ...data: ReturnType<typeof monitor>[]) {
  const answer = await h.csmsCall('SetVariableMonitoring', { setMonitoringData: data });
  return answer.setMonitoringResult.map((r: any) => [r.status, r.id]);
}

const events = (h: Harness) =>
  h
    .callsOf('NotifyEvent')
    .flatMap((c) =>
      c.payload.eventData.map((e: any) => [
        e.trigger,
        e.actualValue,
        e.cleared ?? false,
        e.variableMonitoringId,
      ]),
    );

test("ocpp2.0.1: N04/N07 an UpperThreshold on an EVSE's Power raises NotifyEvent when charging passes it, and a cleared one when it falls back", async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await setMonitors(h, monitor({ type: 'UpperThreshold', value: 10000 })), [
    ['Accepted', 1],
  ]);
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  assert.deepEqual(events(h), [['Alerting', '22000', false, 1]]);
  const [e] = h.callsOf('NotifyEvent')[0].payload.eventData;
  assert.deepEqual(
    [e.component, e.variable, e.eventNotificationType, e.transactionId, e.timestamp],
    [EVSE1, POWER, 'CustomMonitor', h.connector(1).tx!.id, new Date(T0).toISOString()],
  );
  h.tick(60_000);
  assert.equal(events(h).length, 1, 'no new event while it stays past');
  h.send({ type: 'EV_STOPS_ENERGY', connectorId: 1 });
  assert.deepEqual(events(h).at(-1), ['Alerting', '0', true, 1]);
  h.finish();
});

test('ocpp2.0.1: N04/N07 a Delta monitor on AvailabilityState raises an event on each change', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await setMonitors(h, monitor({ type: 'Delta', value: 1, variable: STATE })), [
    ['Accepted', 1],
  ]);
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.deepEqual(events(h), [
    ['Delta', 'Occupied', false, 1],
    ['Delta', 'Available', false, 1],
  ]);
  h.finish();
});

test('ocpp2.0.1: N04/N07 a Periodic monitor reports the value every interval; PeriodicClockAligned on the clock', async () => {
  const h = online('ocpp2.0.1');
  h.tick(10_000);
  assert.deepEqual(
    await setMonitors(
      h,
      monitor({ type: 'Periodic', value: 60 }),
      monitor({ type: 'PeriodicClockAligned', value: 900, variable: STATE }),
    ),
    [
      ['Accepted', 1],
      ['Accepted', 2],
    ],
  );
  h.tick(60_000);
  assert.deepEqual(events(h), [['Periodic', '0', false, 1]]);
  h.tick(830_000); // 08:15:00, the quarter hour
  assert.deepEqual(
    events(h).filter((e) => e[3] === 2),
    [['Periodic', 'Available', false, 2]],
  );
  assert.equal(
    h.callsOf('NotifyEvent').at(-1)!.payload.eventData[0].timestamp,
    new Date(T0 + 900_000).toISOString(),
  );
  h.finish();
});

test('ocpp2.0.1: N04 what cannot be monitored: unknown component or variable, a threshold on a state, a setting, a duplicate, an unknown id', async () => {
  const h = online('ocpp2.0.1');
  await setMonitors(h, monitor({ type: 'UpperThreshold', value: 1000 }));
  assert.deepEqual(
    await setMonitors(
      h,
      monitor({ type: 'Delta', value: 1, component: { name: 'Nope' } }),
      monitor({ type: 'Delta', value: 1, variable: { name: 'Nope' } }),
      monitor({ type: 'UpperThreshold', value: 1, variable: STATE }),
      monitor({
        type: 'Delta',
        value: 1,
        component: { name: 'OCPPCommCtrlr' },
        variable: { name: 'HeartbeatInterval' },
      }),
      monitor({ type: 'UpperThreshold', value: 2000 }),
      monitor({ type: 'Delta', value: 1, id: 77 }),
    ),
    [
      ['UnknownComponent', undefined],
      ['UnknownVariable', undefined],
      ['UnsupportedMonitorType', undefined],
      ['UnsupportedMonitorType', undefined],
      ['Duplicate', undefined],
      ['Rejected', undefined],
    ],
  );
  h.finish();
});

test('ocpp2.0.1: N05 SetMonitoringLevel: monitors of a higher severity raise no event', async () => {
  const h = online('ocpp2.0.1');
  await setMonitors(h, monitor({ type: 'Delta', value: 1, variable: STATE, severity: 7 }));
  assert.deepEqual(await h.csmsCall('SetMonitoringLevel', { severity: 4 }), { status: 'Accepted' });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  assert.deepEqual(events(h), []);
  assert.deepEqual(await h.csmsCall('SetMonitoringLevel', { severity: 9 }), { status: 'Accepted' });
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.deepEqual(events(h), [['Delta', 'Available', false, 1]]);
  h.finish();
});

test('ocpp2.0.1: N02 GetMonitoringReport: Accepted, then NotifyMonitoringReport by component and variable; criteria filter; EmptyResultSet', async () => {
  const h = online('ocpp2.0.1');
  await setMonitors(
    h,
    monitor({ type: 'UpperThreshold', value: 10000 }),
    monitor({ type: 'LowerThreshold', value: 100, severity: 3 }),
    monitor({ type: 'Delta', value: 1, variable: STATE }),
  );
  const before = h.calls.length;
  assert.deepEqual(await h.csmsCall('GetMonitoringReport', { requestId: 3 }), { status: 'Accepted' });
  const [report] = h.callsSince(before).filter((c) => c.action === 'NotifyMonitoringReport');
  assert.deepEqual(report.payload.monitor, [
    {
      component: EVSE1,
      variable: POWER,
      variableMonitoring: [
        { id: 1, transaction: false, value: 10000, type: 'UpperThreshold', severity: 5 },
        { id: 2, transaction: false, value: 100, type: 'LowerThreshold', severity: 3 },
      ],
    },
    {
      component: EVSE1,
      variable: STATE,
      variableMonitoring: [{ id: 3, transaction: false, value: 1, type: 'Delta', severity: 5 }],
    },
  ]);
  assert.deepEqual([report.payload.requestId, report.payload.seqNo, report.payload.tbc], [3, 0, undefined]);
  const n = h.calls.length;
  assert.deepEqual(
    await h.csmsCall('GetMonitoringReport', { requestId: 4, monitoringCriteria: ['DeltaMonitoring'] }),
    {
      status: 'Accepted',
    },
  );
  assert.deepEqual(
    h
      .callsSince(n)
      .find((c) => c.action === 'NotifyMonitoringReport')!
      .payload.monitor.map((m: any) => m.variable.name),
    ['AvailabilityState'],
  );
  assert.deepEqual(
    await h.csmsCall('GetMonitoringReport', { requestId: 5, monitoringCriteria: ['PeriodicMonitoring'] }),
    {
      status: 'EmptyResultSet',
    },
  );
  h.finish();
});

test('ocpp2.0.1: N06 ClearVariableMonitoring: Accepted for a monitor set, NotFound otherwise; N03 SetMonitoringBase FactoryDefault clears them all', async () => {
  const h = online('ocpp2.0.1');
  await setMonitors(
    h,
    monitor({ type: 'Delta', value: 1, variable: STATE }),
    monitor({ type: 'Periodic', value: 30 }),
  );
  assert.deepEqual(await h.csmsCall('ClearVariableMonitoring', { id: [1, 9] }), {
    clearMonitoringResult: [
      { id: 1, status: 'Accepted' },
      { id: 9, status: 'NotFound' },
    ],
  });
  assert.deepEqual(await h.csmsCall('SetMonitoringBase', { monitoringBase: 'All' }), { status: 'Accepted' });
  assert.equal(h.ctx().monitors!.length, 1);
  assert.deepEqual(await h.csmsCall('SetMonitoringBase', { monitoringBase: 'FactoryDefault' }), {
    status: 'Accepted',
  });
  assert.equal(h.ctx().monitors, undefined);
  assert.equal(h.ctx().timers.monitoring, undefined);
  h.finish();
});

test('ocpp2.0.1: N04 monitors survive a restart from the snapshot and keep their period', async () => {
  const h = online('ocpp2.0.1');
  await setMonitors(h, monitor({ type: 'Periodic', value: 60 }));
  h.tick(30_000);
  h.restart();
  assert.equal(h.ctx().monitors!.length, 1);
  h.tick(30_000);
  assert.deepEqual(events(h), [['Periodic', '0', false, 1]]);
  h.finish();
});
