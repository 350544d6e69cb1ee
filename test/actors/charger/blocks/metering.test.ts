// Meter values a central system can trust (blocks/metering.ts, core/power.ts, wire/sampled-values.ts):
// every configured measurand, coherent with each other and with the limits, per phase, tapering
// with the EV's battery, shared between connectors, on the clock; unknown measurands refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_AC, T0, VERSIONS, online, type Harness } from '../charger-harness.ts';
import { aChargingProfile, aConfigurationChange, aRemoteStart } from '../builders.ts';
import { samples, statusesOf } from '../observations.ts';
import type { OcppVersion } from '../../../../actors/charger/charger-ports.ts';

const ALL =
  'Energy.Active.Import.Register,Power.Active.Import,Power.Offered,Current.Import,Current.Offered,Voltage,SoC,Temperature';
const SAMPLED = {
  key: 'MeterValuesSampledData',
  component: 'SampledDataCtrlr',
  variable: 'TxUpdatedMeasurands',
};
const ALIGNED = { key: 'MeterValuesAlignedData', component: 'AlignedDataCtrlr', variable: 'Measurands' };
const ALIGNED_INTERVAL = {
  key: 'ClockAlignedDataInterval',
  component: 'AlignedDataCtrlr',
  variable: 'Interval',
};
const MODEL_DC = {
  ...MODEL_AC,
  boot_model: 'DC-50',
  max_power_kw: 50,
  current_type: 'DC' as const,
  connector_count: 1,
};
const MODEL_1P = { ...MODEL_AC, boot_model: 'AC-7-Single', max_power_kw: 7.4 };

interface Reading {
  measurand: string;
  value: number;
  phase?: string;
  unit: string;
  context: string;
  location?: string;
}

/** The sampled values of a message's first MeterValue, read the same for both versions. */
function readingsOf(call: { payload: Record<string, any> }): Reading[] {
  const mv = call.payload.meterValue ?? call.payload.transactionData;
  return mv[0].sampledValue.map((x: any) => ({
    measurand: x.measurand,
    value: Number(x.value),
    unit: x.unit ?? x.unitOfMeasure?.unit,
    context: x.context,
    ...(x.phase ? { phase: x.phase } : {}),
    ...(x.location ? { location: x.location } : {}),
  }));
}

const valueOf = (r: Reading[], measurand: string, phase?: string) =>
  r.find((x) => x.measurand === measurand && x.phase === phase)!.value;

/** P = sum over the phases of V x I, within the rounding of the readings. */
function assertCoherent(r: Reading[]) {
  const volts = r.filter((x) => x.measurand === 'Voltage');
  const amps = r.filter((x) => x.measurand === 'Current.Import');
  assert.equal(volts.length, amps.length);
  const sum = amps.reduce((acc, a, i) => acc + a.value * volts[i].value, 0);
  const power = valueOf(r, 'Power.Active.Import');
  assert.ok(Math.abs(sum - power) <= Math.max(5, power * 0.002), `V x I = ${sum}, power ${power}`);
}

/** A session on connector 1 with every measurand sampled each minute. */
async function charging(version: OcppVersion, model: object = MODEL_AC, plug: object = {}): Promise<Harness> {
  const h = online(version, { input: { model: model as never, config: { MeterValuesSampledData: ALL } } });
  h.send({ type: 'PLUG_IN', connectorId: 1, ...plug });
  await h.csmsCall(...aRemoteStart(version));
  return h;
}

/**
 * Simulated time in steps of a second: the test clock fires every timer due within one tick at
 * the tick's end, so a timer between two samples needs the small steps to show its own time.
 */
function tickBySecond(h: Harness, ms: number) {
  for (let t = 0; t < ms; t += 1000) h.tick(1000);
}

/** 2.0.1: the TransactionEvents of a trigger reason. */
const events = (h: Harness, reason: string) =>
  h.callsOf('TransactionEvent').filter((c) => c.payload.triggerReason === reason);

for (const version of VERSIONS) {
  test(`${version}: J02 every configured measurand is sent, per phase on a three-phase AC charger`, async () => {
    const h = await charging(version);
    h.tick(60_000);
    const r = readingsOf(samples(h)[0]);
    assert.deepEqual(
      r.map((x) => [x.measurand, x.phase ?? '', x.unit]),
      [
        ['Energy.Active.Import.Register', '', 'Wh'],
        ['Power.Active.Import', '', 'W'],
        ['Power.Offered', '', 'W'],
        ['Current.Import', 'L1', 'A'],
        ['Current.Import', 'L2', 'A'],
        ['Current.Import', 'L3', 'A'],
        ['Current.Offered', '', 'A'],
        ['Voltage', 'L1-N', 'V'],
        ['Voltage', 'L2-N', 'V'],
        ['Voltage', 'L3-N', 'V'],
        // 2.x has no Temperature measurand (a device-model variable there).
        ...(version === 'ocpp1.6' ? [['Temperature', '', 'Celsius']] : []),
      ],
    );
    assert.ok(r.every((x) => x.context === 'Sample.Periodic'));
    h.finish();
  });

  test(`${version}: J02 the readings agree: power is the sum of voltage x current per phase, energy its integral`, async () => {
    const h = await charging(version);
    for (let i = 0; i < 3; i++) h.tick(60_000);
    const all = samples(h).map(readingsOf);
    for (const r of all) assertCoherent(r);
    assert.equal(valueOf(all[0], 'Power.Active.Import'), 22000);
    assert.equal(valueOf(all[0], 'Current.Import', 'L2'), 31.88); // 22 kW / (3 x 230 V)
    const energy = all.map((r) => valueOf(r, 'Energy.Active.Import.Register'));
    // 22 kW for a minute is 366.7 Wh: each sample adds it to the register (whole Wh).
    assert.deepEqual(energy, [366, 733, 1100]);
    h.finish();
  });

  test(`${version}: J02 a single-phase AC charger reports one phase`, async () => {
    const h = await charging(version, MODEL_1P);
    h.tick(60_000);
    const r = readingsOf(samples(h)[0]);
    assert.deepEqual(
      r.filter((x) => x.measurand === 'Current.Import' || x.measurand === 'Voltage').map((x) => x.phase),
      ['L1', 'L1-N'],
    );
    assert.equal(valueOf(r, 'Power.Active.Import'), 7400);
    assertCoherent(r);
    h.finish();
  });

  test(`${version}: J02 a DC charger reports no phases, the pack's voltage and the EV's SoC`, async () => {
    const h = await charging(version, MODEL_DC, { socPercent: 20, batteryKwh: 60 });
    h.tick(60_000);
    const r = readingsOf(samples(h)[0]);
    assert.ok(r.every((x) => x.phase === undefined));
    assert.equal(valueOf(r, 'Power.Active.Import'), 50000);
    assert.deepEqual(
      r.find((x) => x.measurand === 'SoC'),
      {
        measurand: 'SoC',
        value: 21, // 833 Wh of 60 kWh on top of 20 %
        unit: 'Percent',
        context: 'Sample.Periodic',
        location: 'EV',
      },
    );
    assertCoherent(r);
    h.finish();
  });

  test(`${version}: J02 a DC session tapers above 80 % SoC and suspends (SuspendedEV) the moment the battery is full`, async () => {
    const h = await charging(version, MODEL_DC, { socPercent: 75, batteryKwh: 20 });
    tickBySecond(h, 60 * 60_000);
    const all = samples(h).map(readingsOf);
    const soc = all.map((r) => valueOf(r, 'SoC'));
    const power = all.map((r) => valueOf(r, 'Power.Active.Import'));
    for (const r of all) assertCoherent(r);
    // Full power to 80 %, then less and less as the SoC rises; nothing once full.
    assert.equal(power[0], 50000);
    for (let i = 1; i < soc.length; i++) {
      assert.ok(soc[i] >= soc[i - 1]);
      if (soc[i - 1] > 80)
        assert.ok(power[i] < power[i - 1] || power[i] === 0, `power ${power[i]} at ${soc[i]} %`);
    }
    assert.equal(soc.at(-1), 100);
    assert.equal(power.at(-1), 0);
    // The change is said when the battery fills up, not with the next sample.
    const full = h.ctx().connectors[0];
    assert.equal(full.status, 'SuspendedEV');
    if (version === 'ocpp1.6') {
      const status = h.callsOf('StatusNotification').find((c) => c.payload.status === 'SuspendedEV')!;
      assert.notEqual((Date.parse(status.payload.timestamp) - T0) % 60_000, 0);
    } else {
      const change = events(h, 'ChargingStateChanged').at(-1)!;
      assert.equal(change.payload.transactionInfo.chargingState, 'SuspendedEV');
      assert.notEqual((Date.parse(change.payload.timestamp) - T0) % 60_000, 0);
      assert.equal(valueOf(readingsOf(change), 'SoC'), 100);
    }
    h.finish();
  });

  test(`${version}: K01 the readings follow the charging profile's limit (power, current, offered)`, async () => {
    const h = await charging(version);
    h.tick(60_000);
    assert.deepEqual(await h.csmsCall(...aChargingProfile(version, { limit: 16, unit: 'A' })), {
      status: 'Accepted',
    });
    h.tick(60_000);
    const r = readingsOf(samples(h).at(-1)!);
    assert.equal(valueOf(r, 'Power.Active.Import'), 11040); // 16 A x 3 x 230 V
    assert.equal(valueOf(r, 'Power.Offered'), 11040);
    assert.equal(valueOf(r, 'Current.Offered'), 16);
    assert.equal(valueOf(r, 'Current.Import', 'L1'), 16);
    assertCoherent(r);
    h.finish();
  });

  test(`${version}: K01 a profile of 0 A suspends the session at once (SuspendedEVSE)`, async () => {
    const h = await charging(version);
    h.tick(10_000);
    const before = h.calls.length;
    await h.csmsCall(...aChargingProfile(version, { limit: 0, unit: 'A' }));
    assert.equal(h.connector(1).status, 'SuspendedEVSE');
    const said = h.callsSince(before);
    if (version === 'ocpp1.6')
      assert.deepEqual(
        said.filter((c) => c.action === 'StatusNotification').map((c) => c.payload.status),
        ['SuspendedEVSE'],
      );
    else {
      const change = said.filter((c) => c.action === 'TransactionEvent');
      assert.deepEqual(
        change.map((c) => [c.payload.triggerReason, c.payload.transactionInfo.chargingState]),
        [['ChargingStateChanged', 'SuspendedEVSE']],
      );
    }
    h.finish();
  });

  test(`${version}: E02 the switch to Charging is said at once when energy starts to flow`, async () => {
    const h = await charging(version);
    if (version === 'ocpp1.6') assert.deepEqual(statusesOf(h, 1), ['Available', 'Preparing', 'Charging']);
    else
      assert.deepEqual(
        h
          .callsOf('TransactionEvent')
          .map((c) => [c.payload.triggerReason, c.payload.transactionInfo.chargingState]),
        [
          ['RemoteStart', 'EVConnected'],
          ['ChargingStateChanged', 'Charging'],
        ],
      );
    h.finish();
  });

  test(`${version}: K01 a profile period beginning changes the rate on time${version === 'ocpp1.6' ? '' : ' (ChargingRateChanged)'}`, async () => {
    const h = await charging(version);
    // Unlimited until 90 s into the transaction, then 6 kW.
    const [action, payload] = aChargingProfile(version, { limit: 22000 });
    const p = payload as any;
    const schedule =
      version === 'ocpp1.6' ? p.csChargingProfiles.chargingSchedule : p.chargingProfile.chargingSchedule[0];
    schedule.chargingSchedulePeriod = [
      { startPeriod: 0, limit: 22000 },
      { startPeriod: 90, limit: 6000 },
    ];
    await h.csmsCall(action, payload);
    tickBySecond(h, 120_000);
    const energy = samples(h).map((c) => valueOf(readingsOf(c), 'Energy.Active.Import.Register'));
    // 22 kW for 90 s (550 Wh), then 6 kW for 30 s (50 Wh).
    assert.deepEqual(energy, [366, 600]);
    if (version !== 'ocpp1.6') {
      const rate = events(h, 'ChargingRateChanged');
      assert.equal(rate.length, 1);
      assert.equal(rate[0].payload.timestamp, new Date(T0 + 90_000).toISOString());
      assert.equal(valueOf(readingsOf(rate[0]), 'Power.Active.Import'), 6000);
    }
    h.finish();
  });

  test(`${version}: J02 connectors share the charger's power: two sessions on a 22 kW charger get 11 kW each`, async () => {
    const h = await charging(version);
    h.tick(30_000);
    h.send({ type: 'PLUG_IN', connectorId: 2 });
    await h.csmsCall(...aRemoteStart(version, { connectorId: 2, idTag: 'REMOTE-2' }));
    assert.deepEqual(
      h.ctx().connectors.map((c) => c.powerW),
      [11000, 11000],
    );
    h.tick(30_000);
    const last = (id: number) =>
      readingsOf(
        samples(h)
          .filter((c) => (c.payload.connectorId ?? c.payload.evse?.id) === id)
          .at(-1)!,
      );
    assert.equal(valueOf(last(1), 'Power.Active.Import'), 11000);
    assert.equal(valueOf(last(1), 'Power.Offered'), 11000);
    // 30 s at 22 kW and 30 s at 11 kW.
    assert.equal(valueOf(last(1), 'Energy.Active.Import.Register'), 275);
    if (version !== 'ocpp1.6')
      assert.equal(events(h, 'ChargingRateChanged').filter((c) => c.payload.evse.id === 1).length, 1);
    // One session ends: the other has the charger to itself again.
    h.send({ type: 'UNPLUG', connectorId: 2 });
    assert.equal(h.connector(1).powerW, 22000);
    h.finish();
  });

  test(`${version}: J01 clock-aligned samples come on the interval's boundary with MeterValuesAlignedData`, async () => {
    const h = await charging(version);
    h.tick(7 * 60_000 + 12_000);
    assert.deepEqual(
      await h.csmsCall(...aConfigurationChange(version, ALIGNED, 'Energy.Active.Import.Register,Voltage')),
      aSet(version, 'Accepted', ALIGNED),
    );
    assert.deepEqual(
      await h.csmsCall(...aConfigurationChange(version, ALIGNED_INTERVAL, '900')),
      aSet(version, 'Accepted'),
    );
    tickBySecond(h, 16 * 60_000);
    const clock =
      version === 'ocpp1.6'
        ? h
            .callsOf('MeterValues')
            .filter(
              (c) =>
                c.payload.meterValue[0].sampledValue[0].context === 'Sample.Clock' &&
                c.payload.connectorId > 0,
            )
        : [...events(h, 'MeterValueClock'), ...h.callsOf('MeterValues').filter((c) => c.payload.evseId > 0)];
    // Both connectors at 08:15:00 UTC (the next at 08:30): connector 1 in its transaction, connector 2 idle.
    assert.deepEqual(clock.map((c) => c.payload.meterValue[0].timestamp).sort(), [
      '2025-03-01T08:15:00.000Z',
      '2025-03-01T08:15:00.000Z',
    ]);
    const r = readingsOf(clock[0]);
    assert.deepEqual(
      r.map((x) => [x.measurand, x.context]),
      [
        ['Energy.Active.Import.Register', 'Sample.Clock'],
        ['Voltage', 'Sample.Clock'],
        ['Voltage', 'Sample.Clock'],
        ['Voltage', 'Sample.Clock'],
      ],
    );
    h.finish();
  });

  for (const setting of [
    SAMPLED,
    ALIGNED,
    { key: 'StopTxnSampledData', component: 'SampledDataCtrlr', variable: 'TxEndedMeasurands' },
  ])
    test(`${version}: ${version === 'ocpp1.6' ? 'ChangeConfiguration' : 'B05 SetVariables'} of ${version === 'ocpp1.6' ? setting.key : `${setting.component}.${setting.variable}`} naming a measurand the charger cannot read is Rejected`, async () => {
      const h = online(version);
      const answer = await h.csmsCall(
        ...aConfigurationChange(version, setting, 'Energy.Active.Import.Register,Frequency'),
      );
      assert.deepEqual(answer, aSet(version, 'Rejected', setting));
      assert.equal(h.ctx().settings[setting.key], undefined);
      // 2.x has no Temperature measurand; an AC charger reads no SoC.
      const ac = ALL.replace(',SoC', '');
      const all = version === 'ocpp1.6' ? ac : ac.replace(',Temperature', '');
      assert.deepEqual(
        await h.csmsCall(...aConfigurationChange(version, setting, all)),
        aSet(version, 'Accepted', setting),
      );
      assert.equal(h.ctx().settings[setting.key], all);
      h.finish();
    });
}

/** The answer to aConfigurationChange with this status. */
function aSet(version: OcppVersion, status: string, setting = ALIGNED_INTERVAL): object {
  if (version === 'ocpp1.6') return { status };
  return {
    setVariableResult: [
      {
        attributeStatus: status,
        component: { name: setting.component },
        variable: { name: setting.variable },
      },
    ],
  };
}

for (const version of VERSIONS)
  for (const setting of [SAMPLED, ALIGNED])
    test(`${version}: ${version === 'ocpp1.6' ? setting.key : `B05 ${setting.component}.${setting.variable}`} with SoC on an AC charger (no ISO 15118) is Rejected and the previous list stays; a DC charger takes it`, async () => {
      const h = online(version);
      const before = 'Energy.Active.Import.Register,Voltage';
      assert.deepEqual(
        await h.csmsCall(...aConfigurationChange(version, setting, before)),
        aSet(version, 'Accepted', setting),
      );
      assert.deepEqual(
        await h.csmsCall(...aConfigurationChange(version, setting, `${before},SoC`)),
        aSet(version, 'Rejected', setting),
      );
      assert.equal(h.ctx().settings[setting.key], before);
      h.finish();
      const dc = online(version, { input: { model: MODEL_DC } });
      assert.deepEqual(
        await dc.csmsCall(...aConfigurationChange(version, setting, `${before},SoC`)),
        aSet(version, 'Accepted', setting),
      );
      dc.finish();
    });
