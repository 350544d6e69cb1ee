// OCPP 2.1 block R, DER control, on the machine with a simulated clock (blocks/der.ts,
// core/der-limits.ts, ocpp21/der-control.ts): the controls the CSMS sets, gets and clears, what
// the simulated inverter does with them (a discharge limit, an under-frequency droop, a trip), and
// the alarms of grid events injected through the API. Every message both ways is checked against
// the official 2.1 schemas (h.finish()).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { online, type Harness } from '../charger-harness.ts';

const V = 'ocpp2.1';
const MODEL_DC = {
  boot_vendor: 'EVSim',
  boot_model: 'DC-50-BPT',
  firmware_version: '1.0.0',
  connector_count: 1,
  max_power_kw: 50,
  current_type: 'DC' as const,
  connector_types: ['CCS2'],
};

/** A 2.1 DC charger (50 kW) with a bidirectional EV (60 kWh at 60 %, 20 kW out) charging. */
async function session(): Promise<Harness> {
  const h = online(V, { input: { model: MODEL_DC } });
  h.send({
    type: 'PLUG_IN',
    connectorId: 1,
    socPercent: 60,
    batteryKwh: 60,
    bidirectional: true,
    maxDischargeKw: 20,
    minSocPercent: 20,
  });
  await h.csmsCall('RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 1,
    idToken: { idToken: 'DER-1', type: 'Central' },
  });
  return h;
}

/** A 2.1 profile asking the EV to discharge at `setpointW` (negative). */
const discharge = (setpointW: number) =>
  [
    'SetChargingProfile',
    {
      evseId: 1,
      chargingProfile: {
        id: 7,
        stackLevel: 0,
        chargingProfilePurpose: 'TxDefaultProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: [
          {
            id: 7,
            chargingRateUnit: 'W',
            chargingSchedulePeriod: [
              { startPeriod: 0, operationMode: 'CentralSetpoint', setpoint: setpointW },
            ],
          },
        ],
      },
    },
  ] as const;

const limitMaxDischarge = (controlId: string, pct: number, priority: number, isDefault = false) => ({
  isDefault,
  controlId,
  controlType: 'LimitMaxDischarge',
  limitMaxDischarge: { priority, pctMaxDischargePower: pct },
});

const FREQ_DROOP = {
  isDefault: false,
  controlId: 'droop-1',
  controlType: 'FreqDroop',
  freqDroop: { priority: 1, overFreq: 50.2, underFreq: 49.8, overDroop: 5, underDroop: 5, responseTime: 1 },
};

const HF_TRIP = {
  isDefault: true,
  controlId: 'hf-trip',
  controlType: 'HFMustTrip',
  curve: {
    priority: 0,
    yUnit: 'Not_Applicable',
    curveData: [
      { x: 0.16, y: 62 },
      { x: 300, y: 61.2 },
    ],
  },
};

test('ocpp2.1: R01 SetDERControl LimitMaxDischarge caps the discharge at its share of the rating; NotifyDERStartStop says it started', async () => {
  const h = await session();
  await h.csmsCall(...discharge(-20_000));
  assert.equal(h.connector(1).powerW, -20_000); // the EV's maximum
  assert.deepEqual(await h.csmsCall('SetDERControl', limitMaxDischarge('lmd-1', 20, 5)), {
    status: 'Accepted',
  });
  assert.equal(h.connector(1).powerW, -10_000); // 20 % of 50 kW
  const [started] = h.callsOf('NotifyDERStartStop');
  assert.equal(started.payload.controlId, 'lmd-1');
  assert.equal(started.payload.started, true);
  // A control of higher priority (lower value) supersedes it.
  assert.deepEqual(await h.csmsCall('SetDERControl', limitMaxDischarge('lmd-2', 10, 1)), {
    status: 'Accepted',
    supersededIds: ['lmd-1'],
  });
  assert.equal(h.connector(1).powerW, -5_000);
  assert.deepEqual(h.callsOf('NotifyDERStartStop')[1].payload.supersededIds, ['lmd-1']);
  h.finish();
});

test('ocpp2.1: R01 a control with a duration ends by itself: the discharge limit lifts when it is over', async () => {
  const h = await session();
  await h.csmsCall(...discharge(-20_000));
  const timed = limitMaxDischarge('lmd-10min', 20, 5);
  await h.csmsCall('SetDERControl', {
    ...timed,
    limitMaxDischarge: { ...timed.limitMaxDischarge, duration: 600 },
  });
  assert.equal(h.connector(1).powerW, -10_000);
  h.tick(599_000);
  assert.equal(h.connector(1).powerW, -10_000);
  h.tick(1_000);
  assert.equal(h.connector(1).powerW, -20_000);
  h.finish();
});

test('ocpp2.1: R01 SetDERControl answers NotSupported for a control the inverter lacks, Rejected without its settings', async () => {
  const h = online(V);
  const voltVar = {
    isDefault: true,
    controlId: 'vv',
    controlType: 'VoltVar',
    curve: { priority: 0, yUnit: 'PctMaxVar', curveData: [{ x: 100, y: 0 }] },
  };
  const answer = await h.csmsCall('SetDERControl', voltVar);
  assert.equal(answer.status, 'NotSupported');
  const bare = { isDefault: true, controlId: 'x', controlType: 'LimitMaxDischarge' };
  assert.equal((await h.csmsCall('SetDERControl', bare)).status, 'Rejected');
  // Nothing was kept.
  assert.deepEqual(await h.csmsCall('GetDERControl', { requestId: 1 }), { status: 'NotFound' });
  assert.equal(h.callsOf('NotifyDERStartStop').length, 0);
  h.finish();
});

test('ocpp2.1: R01 FreqDroop: under its threshold the charging power falls with the grid frequency', async () => {
  const h = await session();
  assert.equal(h.connector(1).powerW, 50_000);
  assert.equal((await h.csmsCall('SetDERControl', FREQ_DROOP)).status, 'Accepted');
  assert.equal(h.connector(1).powerW, 50_000); // nominal 50 Hz
  h.send({ type: 'GRID_FREQUENCY', hz: 49.3 });
  // 0.5 Hz under 49.8 Hz with a 5 % droop (2.5 Hz for the whole rating): 20 % of 50 kW falls away.
  assert.equal(Math.round(h.connector(1).powerW), 40_000);
  h.send({ type: 'GRID_FREQUENCY', hz: 47 });
  assert.equal(h.connector(1).powerW, 0); // beyond the whole droop
  h.send({ type: 'GRID_FREQUENCY', hz: 50 });
  assert.equal(h.connector(1).powerW, 50_000);
  h.finish();
});

test('ocpp2.1: R02 GetDERControl reports the controls held by its filters in ReportDERControl; NotFound when none match', async () => {
  const h = online(V);
  await h.csmsCall('SetDERControl', limitMaxDischarge('default-lmd', 50, 3, true));
  await h.csmsCall('SetDERControl', limitMaxDischarge('lmd-1', 20, 5));
  await h.csmsCall('SetDERControl', HF_TRIP);
  assert.deepEqual(await h.csmsCall('GetDERControl', { requestId: 11 }), { status: 'Accepted' });
  const [all] = h.callsOf('ReportDERControl');
  assert.equal(all.payload.requestId, 11);
  assert.deepEqual(
    all.payload.limitMaxDischarge.map((c: any) => [c.id, c.isDefault, c.isSuperseded]),
    [
      ['default-lmd', true, true], // the CSMS's own control is in force over the default
      ['lmd-1', false, false],
    ],
  );
  assert.equal(all.payload.limitMaxDischarge[1].limitMaxDischarge.pctMaxDischargePower, 20);
  assert.deepEqual(
    all.payload.curve.map((c: any) => [c.id, c.curveType, c.curve.curveData.length]),
    [['hf-trip', 'HFMustTrip', 2]],
  );

  assert.deepEqual(
    await h.csmsCall('GetDERControl', { requestId: 12, isDefault: true, controlType: 'HFMustTrip' }),
    {
      status: 'Accepted',
    },
  );
  const only = h.callsOf('ReportDERControl')[1].payload;
  assert.equal(only.requestId, 12);
  assert.deepEqual(Object.keys(only).sort(), ['curve', 'requestId']);
  await h.csmsCall('GetDERControl', { requestId: 13, controlId: 'lmd-1' });
  assert.deepEqual(
    h.callsOf('ReportDERControl')[2].payload.limitMaxDischarge.map((c: any) => c.id),
    ['lmd-1'],
  );
  assert.deepEqual(await h.csmsCall('GetDERControl', { requestId: 14, controlId: 'nope' }), {
    status: 'NotFound',
  });
  assert.equal(h.callsOf('ReportDERControl').length, 3);
  h.finish();
});

test('ocpp2.1: R03 ClearDERControl clears by default / type / id: the limit goes, NotifyDERStartStop says it stopped', async () => {
  const h = await session();
  await h.csmsCall(...discharge(-20_000));
  await h.csmsCall('SetDERControl', limitMaxDischarge('lmd-1', 20, 5));
  await h.csmsCall('SetDERControl', HF_TRIP);
  assert.equal(h.connector(1).powerW, -10_000);
  // The defaults only: the CSMS's own LimitMaxDischarge stays.
  assert.deepEqual(await h.csmsCall('ClearDERControl', { isDefault: true }), { status: 'Accepted' });
  assert.equal(h.connector(1).powerW, -10_000);
  assert.deepEqual(await h.csmsCall('ClearDERControl', { isDefault: false, controlId: 'lmd-1' }), {
    status: 'Accepted',
  });
  assert.equal(h.connector(1).powerW, -20_000);
  const stopped = h.callsOf('NotifyDERStartStop').at(-1)!;
  assert.deepEqual([stopped.payload.controlId, stopped.payload.started], ['lmd-1', false]);
  assert.deepEqual(await h.csmsCall('ClearDERControl', { isDefault: false }), { status: 'NotFound' });
  h.finish();
});

test('ocpp2.1: R04 a grid event injected through the API sends NotifyDERAlarm; with its must-trip control held the charger trips until it ends', async () => {
  const h = await session();
  h.send({ type: 'GRID_EVENT', fault: 'UnderVoltage', ended: false, commandId: 'g0' });
  // No LVMustTrip held: the alarm, and charging goes on.
  assert.equal(h.connector(1).powerW, 50_000);
  await h.csmsCall('SetDERControl', HF_TRIP);
  h.send({ type: 'GRID_EVENT', fault: 'OverFrequency', ended: false, extraInfo: '62.1 Hz', commandId: 'g1' });
  assert.equal(h.connector(1).powerW, 0);
  h.tick(60_000);
  const registerAtTrip = h.connector(1).meterWh;
  h.tick(60_000);
  assert.equal(h.connector(1).meterWh, registerAtTrip); // no energy while tripped
  h.send({ type: 'GRID_EVENT', fault: 'OverFrequency', ended: true, commandId: 'g2' });
  assert.equal(h.connector(1).powerW, 50_000);

  const alarms = h.callsOf('NotifyDERAlarm').map((c) => c.payload);
  assert.deepEqual(
    alarms.map((a) => [a.controlType, a.gridEventFault, a.alarmEnded ?? false]),
    [
      ['LVMustTrip', 'UnderVoltage', false],
      ['HFMustTrip', 'OverFrequency', false],
      ['HFMustTrip', 'OverFrequency', true],
    ],
  );
  assert.equal(alarms[1].extraInfo, '62.1 Hz');
  const results = h.results.filter((r) => r.commandId?.startsWith('g'));
  assert.deepEqual(
    results.map((r) => [r.ok, (r.payload as any).tripped]),
    [
      [true, false],
      [true, true],
      [true, false],
    ],
  );
  h.finish();
});

test('a grid event on a charger without DER control (2.0.1) fails the command, nothing sent', () => {
  const h = online('ocpp2.0.1');
  h.send({ type: 'GRID_EVENT', fault: 'OverFrequency', ended: false, commandId: 'g' });
  const [r] = h.results.filter((x) => x.commandId === 'g');
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'NotSupported');
  assert.equal(h.callsOf('NotifyDERAlarm').length, 0);
  h.finish();
});
