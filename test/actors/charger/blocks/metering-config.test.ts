// Meter values configured for a transaction's start and end and for the clock (blocks/metering.ts,
// wire/sampled-values.ts): 2.0.1 SampledDataCtrlr.TxStartedMeasurands, TxEndedMeasurands /
// TxEndedInterval, AlignedDataCtrlr.TxEndedMeasurands / TxEndedInterval / SendDuringIdle; 1.6
// StopTxnSampledData / StopTxnAlignedData in StopTransaction's transactionData and the main meter
// (connector 0) on the clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T0, harness, online, type Harness } from '../charger-harness.ts';
import { aConfigurationChange, aRemoteStart } from '../builders.ts';
import type { OcppVersion } from '../../../../actors/charger/charger-ports.ts';
import { MAX_END_SAMPLES } from '../../../../actors/charger/blocks/metering.ts';

type Mv = { timestamp: string; sampledValue: Record<string, any>[] };

const ENERGY = 'Energy.Active.Import.Register';
const setting = (component: string, variable: string) => ({ key: variable, component, variable });

/** A charger with these settings, a session started on connector 1 at T0. */
async function charging(version: OcppVersion, config: Record<string, string> = {}): Promise<Harness> {
  const h = online(version, { input: { config } });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(version));
  return h;
}

/** The end message's meter values (1.6 StopTransaction transactionData, 2.0.1 TransactionEvent Ended). */
function endValues(h: Harness): Mv[] {
  if (h.version === 'ocpp1.6') return h.callsOf('StopTransaction')[0].payload.transactionData;
  return h.callsOf('TransactionEvent').find((c) => c.payload.eventType === 'Ended')!.payload.meterValue;
}

/** Each meter value as `HH:MM:SS context measurand,measurand`. */
const described = (mvs: Mv[]) =>
  mvs.map(
    (mv) =>
      `${mv.timestamp.slice(11, 19)} ${mv.sampledValue[0].context} ${mv.sampledValue.map((v) => v.measurand).join(',')}`,
  );

const minutes = (h: Harness, n: number) => {
  for (let i = 0; i < n; i++) h.tick(60_000);
};

test('ocpp2.0.1: SampledDataCtrlr.TxStartedMeasurands decides what TransactionEvent Started carries', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(
    await h.csmsCall(
      ...aConfigurationChange(
        'ocpp2.0.1',
        setting('SampledDataCtrlr', 'TxStartedMeasurands'),
        `${ENERGY},Voltage`,
      ),
    ),
    {
      setVariableResult: [
        {
          attributeStatus: 'Accepted',
          component: { name: 'SampledDataCtrlr' },
          variable: { name: 'TxStartedMeasurands' },
        },
      ],
    },
  );
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  const started = h.callsOf('TransactionEvent').find((c) => c.payload.eventType === 'Started')!;
  assert.deepEqual(described(started.payload.meterValue), [
    `08:00:00 Transaction.Begin ${ENERGY},Voltage,Voltage,Voltage`,
  ]);
  h.finish();
});

test('ocpp1.6: StopTxnSampledData readings every MeterValueSampleInterval from the start go in transactionData, then the end reading', async () => {
  const h = await charging('ocpp1.6', { StopTxnSampledData: `${ENERGY},Power.Active.Import` });
  minutes(h, 3);
  h.tick(30_000);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  const data = endValues(h);
  assert.deepEqual(described(data), [
    `08:01:00 Sample.Periodic ${ENERGY},Power.Active.Import`,
    `08:02:00 Sample.Periodic ${ENERGY},Power.Active.Import`,
    `08:03:00 Sample.Periodic ${ENERGY},Power.Active.Import`,
    `08:03:30 Transaction.End ${ENERGY},Power.Active.Import`,
  ]);
  // 22 kW: the register grows 366.7 Wh a minute.
  assert.deepEqual(
    data.map((mv) => Number(mv.sampledValue[0].value)),
    [366, 733, 1100, 1283],
  );
  h.finish();
});

test('ocpp1.6: StopTxnAlignedData readings on the ClockAlignedDataInterval boundaries go in transactionData', async () => {
  const h = await charging('ocpp1.6', {
    StopTxnSampledData: '',
    StopTxnAlignedData: 'Power.Active.Import',
    ClockAlignedDataInterval: '120',
  });
  minutes(h, 5);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.deepEqual(described(endValues(h)), [
    '08:02:00 Sample.Clock Power.Active.Import',
    '08:04:00 Sample.Clock Power.Active.Import',
    `08:05:00 Transaction.End ${ENERGY}`,
  ]);
  h.finish();
});

test('ocpp2.0.1: TxEndedMeasurands every SampledDataCtrlr.TxEndedInterval go in TransactionEvent Ended (0: only the end reading)', async () => {
  const h = await charging('ocpp2.0.1', { StopTxnSampledData: ENERGY, SampledDataTxEndedInterval: '120' });
  minutes(h, 5);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.deepEqual(described(endValues(h)), [
    `08:02:00 Sample.Periodic ${ENERGY}`,
    `08:04:00 Sample.Periodic ${ENERGY}`,
    `08:05:00 Transaction.End ${ENERGY}`,
  ]);
  h.finish();
});

test('ocpp2.0.1: AlignedDataCtrlr.TxEndedMeasurands on the clock of AlignedDataCtrlr.TxEndedInterval go in TransactionEvent Ended', async () => {
  const h = await charging('ocpp2.0.1');
  for (const [variable, value] of [
    ['TxEndedMeasurands', 'Current.Import'],
    ['TxEndedInterval', '180'],
  ])
    await h.csmsCall(...aConfigurationChange('ocpp2.0.1', setting('AlignedDataCtrlr', variable), value));
  minutes(h, 7);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.deepEqual(described(endValues(h)), [
    '08:03:00 Sample.Clock Current.Import,Current.Import,Current.Import',
    '08:06:00 Sample.Clock Current.Import,Current.Import,Current.Import',
    `08:07:00 Transaction.End ${ENERGY}`,
  ]);
  h.finish();
});

test(`ocpp1.6: a long session keeps its latest ${MAX_END_SAMPLES} readings for StopTransaction, then the end reading`, async () => {
  const h = await charging('ocpp1.6');
  minutes(h, MAX_END_SAMPLES + 10);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  const data = endValues(h);
  assert.equal(data.length, MAX_END_SAMPLES + 1);
  assert.equal(data[0].timestamp, new Date(T0 + 11 * 60_000).toISOString());
  assert.equal(data.at(-2)!.timestamp, new Date(T0 + (MAX_END_SAMPLES + 10) * 60_000).toISOString());
  h.finish();
});

test('ocpp1.6: clock-aligned values include the main meter (connector 0): the energy and power of every connector', async () => {
  const h = await charging('ocpp1.6', {
    ClockAlignedDataInterval: '300',
    MeterValuesAlignedData: `${ENERGY},Power.Active.Import,Power.Offered,SoC`,
  });
  minutes(h, 5);
  const clock = h
    .callsOf('MeterValues')
    .filter((c) => c.payload.meterValue[0].sampledValue[0].context === 'Sample.Clock');
  assert.deepEqual(
    clock.map((c) => c.payload.connectorId),
    [1, 2, 0],
  );
  const main = clock[2].payload.meterValue[0].sampledValue;
  // What has no meaning for the whole charger (what is offered, an EV's SoC) is not read.
  assert.deepEqual(
    main.map((v: any) => [v.measurand, v.value]),
    [
      [ENERGY, '1833'],
      ['Power.Active.Import', '22000'],
    ],
  );
  h.finish();
});

test('ocpp2.0.1: clock-aligned values include the main meter (evseId 0) after the EVSEs: energy and power of all', async () => {
  const h = await charging('ocpp2.0.1', {
    ClockAlignedDataInterval: '300',
    MeterValuesAlignedData: `${ENERGY},Power.Active.Import,Power.Offered,SoC`,
  });
  minutes(h, 5);
  // EVSE 1 charges: its sample goes in TransactionEvent MeterValueClock; EVSE 2 and the main meter in MeterValues.
  assert.equal(
    h.callsOf('TransactionEvent').filter((c) => c.payload.triggerReason === 'MeterValueClock').length,
    1,
  );
  const clock = h.callsOf('MeterValues');
  assert.deepEqual(
    clock.map((c) => c.payload.evseId),
    [2, 0],
  );
  const main = clock[1].payload.meterValue[0];
  assert.equal(main.sampledValue[0].context, 'Sample.Clock');
  // What has no meaning for the whole charger (what is offered, an EV's SoC) is not read.
  assert.deepEqual(
    main.sampledValue.map((v: any) => [v.measurand, v.value, v.unitOfMeasure.unit]),
    [
      [ENERGY, 1833, 'Wh'],
      ['Power.Active.Import', 22000, 'W'],
    ],
  );
  h.finish();
});

test('ocpp2.0.1: AlignedDataCtrlr.SendDuringIdle true: no clock-aligned values while a transaction runs, again once none runs', async () => {
  const h = await charging('ocpp2.0.1', {
    ClockAlignedDataInterval: '300',
    AlignedDataSendDuringIdle: 'true',
  });
  minutes(h, 5);
  const clockEvents = () =>
    h.callsOf('TransactionEvent').filter((c) => c.payload.triggerReason === 'MeterValueClock').length +
    h.callsOf('MeterValues').length;
  assert.equal(clockEvents(), 0);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  minutes(h, 5);
  assert.deepEqual(
    h.callsOf('MeterValues').map((c) => [c.payload.evseId, c.payload.meterValue[0].timestamp.slice(11, 19)]),
    [
      [1, '08:10:00'],
      [2, '08:10:00'],
      [0, '08:10:00'],
    ],
  );
  h.finish();
});

test("ocpp1.6: GetConfiguration lists none of 2.0.1's own variables, and ChangeConfiguration of one is NotSupported", async () => {
  const h = online('ocpp1.6');
  const keys = (await h.csmsCall('GetConfiguration', {})).configurationKey.map((k: any) => k.key);
  assert.ok(keys.includes('StopTxnAlignedData'));
  assert.ok(!keys.includes('TxStartedMeasurands'));
  assert.ok(!keys.includes('AlignedDataSendDuringIdle'));
  assert.deepEqual(await h.csmsCall('ChangeConfiguration', { key: 'TxStartedMeasurands', value: ENERGY }), {
    status: 'NotSupported',
  });
  h.finish();
});

test('ocpp1.6: a charger restored after a while keeps one StopTxnSampledData reading for the missed time, not one per missed interval', async () => {
  const h = await charging('ocpp1.6', { StopTxnSampledData: ENERGY });
  minutes(h, 2);
  const persisted = JSON.parse(JSON.stringify(h.actor.getPersistedSnapshot()));
  h.stop();
  const later = harness('ocpp1.6', { snapshot: persisted, at: T0 + 10 * 60_000 + 30_000 });
  later.resume();
  later.send({ type: 'UNPLUG', connectorId: 1 });
  const times = endValues(later).map((mv) => mv.timestamp.slice(11, 19));
  assert.deepEqual(times, ['08:01:00', '08:02:00', '08:10:00', '08:10:30']);
  later.finish();
});
