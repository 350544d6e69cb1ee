// Bidirectional charging (2.1 block Q) end to end: a charger made by the engine runtime over a
// real WebSocket against ocpp-rpc's RPCServer speaking ocpp2.1 in strict mode, which checks every
// message both ways against the official 2.1 schemas.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { createChargerRuntime, type ChargerRuntime } from '../../engine/charger/charger-runtime.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { track, type TrackedCharger } from './tracked-charger.ts';

type Json = any;

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

let csms: StrictCsms;
let runtime: ChargerRuntime;
const chargers: TrackedCharger[] = [];

before(async () => {
  csms = await startStrictCsms({
    protocols: ['ocpp2.1'],
    handlers: { NotifyEVChargingNeeds: () => ({ status: 'Accepted' }) },
  });
  runtime = createChargerRuntime({
    log: pino({ level: 'silent' }),
    defaultCsmsUrl: () => csms.url,
    callTimeoutMs: 3000,
    timings: { reconnectBaseMs: 100, reconnectMaxMs: 400, bootRetryDefaultSec: 0.2, rebootDelayMs: 50 },
  });
});

after(async () => {
  for (const c of chargers) c.stop();
  await csms.close();
});

function deploy(identity: string): TrackedCharger {
  const c = track(
    runtime.create({
      identity,
      version: 'ocpp2.1',
      model: MODEL_DC,
      serialNumber: `SN-${identity}`,
      config: { MeterValueSampleInterval: '1', MeterValuesSampledData: MEASURANDS },
    }),
  );
  chargers.push(c);
  c.actor.start();
  c.actor.send({ type: 'DEPLOY' });
  return c;
}

const received = (identity: string, action: string) =>
  csms.received.filter((r) => r.identity === identity && r.action === action);

/** measurand -> value of every meter value the central system received in TransactionEvents. */
const readings = (identity: string): Record<string, number>[] =>
  received(identity, 'TransactionEvent').flatMap((r) =>
    (r.params.meterValue ?? []).map((mv: Json) =>
      Object.fromEntries(mv.sampledValue.map((x: Json) => [x.measurand, x.value])),
    ),
  );

test('ocpp2.1: Q01/Q03 a CentralSetpoint of -10 kW makes a bidirectional EV export; the strict 2.1 central system sees NotifyEVChargingNeeds and export meter values, all schema-valid', async () => {
  const id = 'V21-V2X-1';
  const c = deploy(id);
  await c.until(() => c.ctx().stage === 'online', 8000);
  c.actor.send({
    type: 'PLUG_IN',
    connectorId: 1,
    socPercent: 60,
    batteryKwh: 1, // a small battery: its SoC moves within seconds
    bidirectional: true,
    maxDischargeKw: 11,
    minSocPercent: 25,
  });
  const [needs] = await csms.waitFor(() => {
    const got = received(id, 'NotifyEVChargingNeeds');
    return got.length > 0 ? got : undefined;
  });
  assert.equal(needs.params.chargingNeeds.requestedEnergyTransfer, 'DC_BPT');
  assert.equal(needs.params.chargingNeeds.v2xChargingParameters.maxDischargePower, 11_000);

  // The setpoint first (a TxDefaultProfile): the session discharges from its start.
  const set = await csms.call(id, 'SetChargingProfile', {
    evseId: 1,
    chargingProfile: {
      id: 77,
      stackLevel: 1,
      chargingProfilePurpose: 'TxDefaultProfile',
      chargingProfileKind: 'Relative',
      chargingSchedule: [
        {
          id: 77,
          chargingRateUnit: 'W',
          chargingSchedulePeriod: [{ startPeriod: 0, operationMode: 'CentralSetpoint', setpoint: -10_000 }],
        },
      ],
    },
  });
  assert.equal(set.status, 'Accepted');

  const start = await csms.call(id, 'RequestStartTransaction', {
    evseId: 1,
    remoteStartId: 21,
    idToken: { idToken: 'V2X-E2E', type: 'Central' },
  });
  assert.equal(start.status, 'Accepted');

  // Meter values with the export readings: 10 kW out, the register rising, SoC below 60 %.
  const exporting = await csms.waitFor(
    () =>
      readings(id).find(
        (r) => r['Power.Active.Export'] === 10_000 && r['Energy.Active.Export.Register'] > 0 && r.SoC < 60,
      ),
    10_000,
  );
  assert.equal(exporting['Power.Active.Import'], 0);
  assert.ok(exporting.SoC >= 25, `SoC ${exporting.SoC}`);
  const sampled = received(id, 'TransactionEvent').flatMap((r) =>
    (r.params.meterValue ?? []).flatMap((mv: Json) => mv.sampledValue.map((x: Json) => x.measurand)),
  );
  assert.ok(sampled.includes('Energy.Active.Export.Register'));
  assert.ok(sampled.includes('Power.Active.Export'));
  assert.deepEqual(csms.schemaErrors, []);
  assert.deepEqual(csms.badMessages, []);
});
