// Bidirectional charging (OCPP 2.1 block Q; core/power.ts, blocks/bidirectional.ts, ocpp21/v2x.ts)
// on the machine with a simulated clock: operation modes make a bidirectional EV discharge, the
// export register integrates the export power, the SoC falls and stops at the EV's minimum.
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
const MEASURANDS =
  'Energy.Active.Import.Register,Power.Active.Import,Power.Active.Export,Energy.Active.Export.Register,SoC';

type Sample = { at: number; values: Record<string, number> };

/** Advances the simulated clock `n` minutes, stopping at each of the charger's deadlines on the way. */
function minutes(h: Harness, n: number) {
  const end = h.clock.now() + n * 60_000;
  while (h.clock.now() < end) {
    const now = h.clock.now();
    const due = Object.values(h.ctx().timers).filter((t): t is number => t !== undefined && t > now);
    h.tick(Math.min(end, ...due) - now);
  }
}

/** Every meter value the charger sent in TransactionEvents, in order, as measurand -> value. */
function samples(h: Harness): Sample[] {
  const out: Sample[] = [];
  for (const c of h.callsOf('TransactionEvent'))
    for (const mv of c.payload.meterValue ?? [])
      out.push({
        at: Date.parse(mv.timestamp),
        values: Object.fromEntries(mv.sampledValue.map((x: any) => [x.measurand, x.value])),
      });
  return out;
}

/** A 2.1 DC charger sampling every minute, a bidirectional EV (10 kWh at 50 %, min 30 %, 10 kW out) charging. */
async function session(ev: { bidirectional?: boolean; soc?: number } = {}): Promise<Harness> {
  const h = online(V, {
    input: {
      model: MODEL_DC,
      config: { MeterValueSampleInterval: '60', MeterValuesSampledData: MEASURANDS },
    },
  });
  h.send({
    type: 'PLUG_IN',
    connectorId: 1,
    socPercent: ev.soc ?? 50,
    batteryKwh: 10,
    ...(ev.bidirectional === false ? {} : { bidirectional: true, maxDischargeKw: 10, minSocPercent: 30 }),
  });
  await h.csmsCall('RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 1,
    idToken: { idToken: 'V2X-1', type: 'Central' },
  });
  return h;
}

type PeriodFields = Record<string, unknown>;

/** SetChargingProfile (2.1) of a TxDefaultProfile on EVSE 1 with one period from now. */
function aV2xProfile(period: PeriodFields) {
  return [
    'SetChargingProfile',
    {
      evseId: 1,
      chargingProfile: {
        id: 21,
        stackLevel: 0,
        chargingProfilePurpose: 'TxDefaultProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: [
          { id: 21, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, ...period }] },
        ],
      },
    },
  ] as const;
}

test('ocpp2.1: Q01 a bidirectional EV plugging in sends NotifyEVChargingNeeds with its V2X parameters', async () => {
  const h = await session();
  const [needs] = h.callsOf('NotifyEVChargingNeeds');
  assert.ok(needs, 'NotifyEVChargingNeeds sent');
  assert.equal(needs.payload.evseId, 1);
  assert.equal(needs.payload.chargingNeeds.requestedEnergyTransfer, 'DC_BPT');
  assert.deepEqual(needs.payload.chargingNeeds.availableEnergyTransfer, ['DC', 'DC_BPT']);
  const v2x = needs.payload.chargingNeeds.v2xChargingParameters;
  assert.equal(v2x.maxDischargePower, 10_000);
  assert.equal(v2x.maxChargePower, 50_000);
  assert.equal(v2x.evMinV2XEnergyRequest, -2000); // 50 % -> 30 % of 10 kWh
  assert.equal(v2x.evMaxV2XEnergyRequest, 5000);
  h.finish();
});

test('ocpp2.1: Q01 an EV that only charges sends no NotifyEVChargingNeeds and never discharges', async () => {
  const h = await session({ bidirectional: false });
  assert.equal(h.callsOf('NotifyEVChargingNeeds').length, 0);
  const answer = await h.csmsCall(...aV2xProfile({ operationMode: 'CentralSetpoint', setpoint: -8000 }));
  assert.equal(answer.status, 'Accepted');
  minutes(h, 2);
  assert.equal(h.connector(1).powerW, 0);
  assert.equal(h.connector(1).exportWh ?? 0, 0);
  assert.equal(h.connector(1).soc, 50);
  h.finish();
});

test('ocpp2.1: Q03 a negative CentralSetpoint discharges the EV: the export register integrates the export power, SoC stops at the minimum', async () => {
  const h = await session();
  h.tick(60_000); // one minute charging at 50 kW first
  const answer = await h.csmsCall(...aV2xProfile({ operationMode: 'CentralSetpoint', setpoint: -8000 }));
  assert.equal(answer.status, 'Accepted');
  const from = samples(h).length;
  minutes(h, 30);
  const s = samples(h).slice(from - 1);
  // Discharging at 8 kW while above the minimum, then nothing.
  assert.ok(s.some((x) => x.values['Power.Active.Export'] === 8000));
  assert.equal(s.at(-1)!.values['Power.Active.Export'], 0);
  assert.equal(s.at(-1)!.values['Power.Active.Import'], 0);
  // The export register rises by the integral of the reported export power (each held until the next report).
  let integralWh = 0;
  for (let i = 1; i < s.length; i++)
    integralWh += (s[i - 1].values['Power.Active.Export'] * (s[i].at - s[i - 1].at)) / 3_600_000;
  const registerWh =
    s.at(-1)!.values['Energy.Active.Export.Register'] - s[0].values['Energy.Active.Export.Register'];
  assert.ok(integralWh > 0);
  assert.ok(
    Math.abs(registerWh - integralWh) <= 0.02 * integralWh,
    `register ${registerWh} Wh, integral ${integralWh} Wh`,
  );
  // SoC fell, never below 30 %, and stopped there: what the battery held above 30 % went out.
  const socs = s.map((x) => x.values.SoC);
  assert.ok(
    socs.every((x, i) => i === 0 || x <= socs[i - 1]),
    `SoC falls: ${socs}`,
  );
  assert.equal(Math.min(...socs), 30);
  assert.equal(h.connector(1).soc, 30);
  const socBefore = s[0].values.SoC;
  assert.ok(
    Math.abs(registerWh - ((socBefore - 30) / 100) * 10_000) < 100 + 1,
    `${registerWh} Wh from ${socBefore} %`,
  );
  // The import register did not move while discharging.
  assert.equal(
    s.at(-1)!.values['Energy.Active.Import.Register'],
    s[0].values['Energy.Active.Import.Register'],
  );
  minutes(h, 10);
  assert.equal(h.connector(1).soc, 30);
  assert.equal(h.connector(1).powerW, 0);
  h.finish();
});

test('ocpp2.1: Q03 a discharge is the least of the setpoint, the discharge limit and the EV maximum', async () => {
  const h = await session();
  await h.csmsCall(...aV2xProfile({ operationMode: 'CentralSetpoint', setpoint: -20_000 }));
  assert.equal(h.connector(1).powerW, -10_000); // the EV gives at most 10 kW
  await h.csmsCall(
    ...aV2xProfile({ operationMode: 'CentralSetpoint', setpoint: -20_000, dischargeLimit: -4000 }),
  );
  assert.equal(h.connector(1).powerW, -4000);
  await h.csmsCall(...aV2xProfile({ operationMode: 'CentralSetpoint', setpoint: 7000 }));
  assert.equal(h.connector(1).powerW, 7000); // a positive setpoint charges at it
  h.finish();
});

test('ocpp2.1: Q03 CentralSetpoint without a setpoint is Rejected', async () => {
  const h = await session();
  const answer = await h.csmsCall(...aV2xProfile({ operationMode: 'CentralSetpoint' }));
  assert.equal(answer.status, 'Rejected');
  h.finish();
});

test('ocpp2.1: Q01 NotifyAllowedEnergyTransfer without a bidirectional mode stops the discharge', async () => {
  const h = await session();
  await h.csmsCall(...aV2xProfile({ operationMode: 'CentralSetpoint', setpoint: -8000 }));
  assert.equal(h.connector(1).powerW, -8000);
  const txId = h.connector(1).tx!.id!;
  assert.deepEqual(
    await h.csmsCall('NotifyAllowedEnergyTransfer', { transactionId: txId, allowedEnergyTransfer: ['DC'] }),
    { status: 'Accepted' },
  );
  assert.equal(h.connector(1).powerW, 0);
  await h.csmsCall('NotifyAllowedEnergyTransfer', {
    transactionId: txId,
    allowedEnergyTransfer: ['DC', 'DC_BPT'],
  });
  assert.equal(h.connector(1).powerW, -8000);
  const unknown = await h.csmsCall('NotifyAllowedEnergyTransfer', {
    transactionId: 'nope',
    allowedEnergyTransfer: ['DC'],
  });
  assert.equal(unknown.status, 'Rejected');
  h.finish();
});

test('ocpp2.1: Q07 CentralFrequency follows the grid frequency set through the API on its frequency-watt curve', async () => {
  const h = await session();
  const curve = [
    { frequency: 49.8, power: -10_000 },
    { frequency: 50, power: 0 },
    { frequency: 50.2, power: 10_000 },
  ];
  await h.csmsCall(
    ...aV2xProfile({ operationMode: 'CentralFrequency', v2xFreqWattCurve: curve, v2xBaseline: 1000 }),
  );
  assert.equal(h.connector(1).powerW, 1000); // nominal 50 Hz: the baseline
  h.send({ type: 'GRID_FREQUENCY', hz: 49.9, commandId: 'f1' });
  assert.equal(h.connector(1).powerW, -4000); // 1000 + (-5000)
  h.send({ type: 'GRID_FREQUENCY', hz: 50.3, commandId: 'f2' });
  assert.equal(h.connector(1).powerW, 11_000);
  assert.deepEqual(
    h.results.filter((r) => r.commandId?.startsWith('f')).map((r) => r.ok),
    [true, true],
  );
  h.finish();
});

test('ocpp2.1: Q08 LocalFrequency without a curve droops: full discharge 0.2 Hz under nominal', async () => {
  const h = await session();
  await h.csmsCall(...aV2xProfile({ operationMode: 'LocalFrequency' }));
  assert.equal(h.connector(1).powerW, 0);
  h.send({ type: 'GRID_FREQUENCY', hz: 49.7 });
  assert.equal(h.connector(1).powerW, -10_000); // the EV's maximum
  h.send({ type: 'GRID_FREQUENCY', hz: 50.1 });
  assert.equal(Math.round(h.connector(1).powerW), 25_000); // half the 50 kW rating
  h.finish();
});

test('ocpp2.1: Q10 Idle: no energy either way', async () => {
  const h = await session();
  assert.equal(h.connector(1).powerW, 50_000);
  await h.csmsCall(...aV2xProfile({ operationMode: 'Idle' }));
  assert.equal(h.connector(1).powerW, 0);
  h.finish();
});

test('ocpp2.1: Q03 a TxProfile sent with RequestStartTransaction keeps its setpoint: the session discharges from its start', async () => {
  const h = online(V, { input: { model: MODEL_DC } });
  h.send({
    type: 'PLUG_IN',
    connectorId: 1,
    socPercent: 50,
    batteryKwh: 10,
    bidirectional: true,
    maxDischargeKw: 10,
    minSocPercent: 30,
  });
  const answer = await h.csmsCall('RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 2,
    idToken: { idToken: 'V2X-2', type: 'Central' },
    chargingProfile: {
      id: 5,
      stackLevel: 0,
      chargingProfilePurpose: 'TxProfile',
      chargingProfileKind: 'Relative',
      chargingSchedule: [
        {
          id: 5,
          chargingRateUnit: 'W',
          chargingSchedulePeriod: [{ startPeriod: 0, operationMode: 'CentralSetpoint', setpoint: -6000 }],
        },
      ],
    },
  });
  assert.equal(answer.status, 'Accepted');
  assert.equal(h.connector(1).powerW, -6000);
  h.finish();
});

test('ocpp2.1: Q01 on an AC charger a bidirectional EV asks for AC_BPT and discharges as on DC', async () => {
  const h = online(V); // the harness's 22 kW three-phase AC model
  h.send({ type: 'PLUG_IN', connectorId: 1, socPercent: 50, bidirectional: true, maxDischargeKw: 7 });
  const [needs] = h.callsOf('NotifyEVChargingNeeds');
  assert.equal(needs.payload.chargingNeeds.requestedEnergyTransfer, 'AC_BPT');
  assert.deepEqual(needs.payload.chargingNeeds.availableEnergyTransfer, ['AC_three_phase', 'AC_BPT']);
  await h.csmsCall('RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 3,
    idToken: { idToken: 'V2X-AC', type: 'Central' },
  });
  await h.csmsCall(...aV2xProfile({ operationMode: 'CentralSetpoint', setpoint: -11_000 }));
  assert.equal(h.connector(1).powerW, -7000);
  h.finish();
});
