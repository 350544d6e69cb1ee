// Meter values end to end (see e2e-suite.ts): every configured measurand reaches a strict central
// system valid and coherent, the switch to Charging is said at once, an unknown measurand is refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSIONS, e2eSuite, type Json } from './e2e-suite.ts';

const ALL_16 =
  'Energy.Active.Import.Register,Power.Active.Import,Power.Offered,Current.Import,Current.Offered,Voltage,SoC,Temperature';
// 2.x has no Temperature measurand.
const ALL_2 = ALL_16.replace(',Temperature', '');

for (const version of VERSIONS)
  e2eSuite(version, 'meter values', (e) => {
    const all = e.v16 ? ALL_16 : ALL_2;

    /** A charger online sampling every measurand each second, a cable in connector 1, a remote start. */
    async function charging(id: string) {
      const c = e.deploy(id, { config: { MeterValueSampleInterval: '1', MeterValuesSampledData: all } });
      await e.online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'plug' });
      await e.quiet(c);
      await (e.v16
        ? e.call(id, 'RemoteStartTransaction', { connectorId: 1, idTag: 'METER-1' })
        : e.call(id, 'RequestStartTransaction', {
            evseId: 1,
            remoteStartId: 9,
            idToken: { idToken: 'METER-1', type: 'Central' },
          }));
      return c;
    }

    const periodic = (id: string): Json[] =>
      e.v16
        ? e.received(id, 'MeterValues')
        : e.received(id, 'TransactionEvent').filter((r) => r.params.triggerReason === 'MeterValuePeriodic');

    /** The first periodic sample, once it arrived (one a second). */
    async function waitPeriodic(id: string): Promise<Json> {
      for (let i = 0; i < 200 && periodic(id).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(periodic(id).length > 0, 'no periodic sample within 10 s');
      return periodic(id)[0];
    }

    test('J02 every configured measurand arrives, per phase, and power is the sum of voltage x current', async () => {
      const id = `${e.tag}-METER-ALL`;
      await charging(id);
      const sample = await waitPeriodic(id);
      const sv: Json[] = sample.params.meterValue[0].sampledValue;
      const measurands = new Set(sv.map((x) => x.measurand));
      // SoC is the EV's, reported by DC chargers only.
      assert.deepEqual(
        [...measurands],
        all.split(',').filter((m) => m !== 'SoC'),
      );
      const amps = sv.filter((x) => x.measurand === 'Current.Import');
      const volts = sv.filter((x) => x.measurand === 'Voltage');
      assert.deepEqual(
        amps.map((x) => x.phase),
        ['L1', 'L2', 'L3'],
      );
      const power = Number(sv.find((x) => x.measurand === 'Power.Active.Import').value);
      const sum = amps.reduce((acc, a, i) => acc + Number(a.value) * Number(volts[i].value), 0);
      assert.equal(power, 22000);
      assert.ok(Math.abs(sum - power) < 50, `V x I = ${sum}`);
    });

    /** Polls until `done` holds (10 s at most). */
    async function until(done: () => boolean, what: string): Promise<void> {
      for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(done(), `${what} within 10 s`);
    }

    const powerOf = (m: Json): number =>
      Number(
        m.params.meterValue[0].sampledValue.find((x: Json) => x.measurand === 'Power.Active.Import').value,
      );
    const connectorOf = (m: Json): number => (e.v16 ? m.params.connectorId : m.params.evse.id);

    test('J02 two sessions share the charger: 11 kW each on a 22 kW charger', async () => {
      const id = `${e.tag}-METER-SHARE`;
      const c = await charging(id);
      c.actor.send({ type: 'PLUG_IN', connectorId: 2, commandId: 'plug-2' });
      await e.quiet(c);
      await (e.v16
        ? e.call(id, 'RemoteStartTransaction', { connectorId: 2, idTag: 'METER-2' })
        : e.call(id, 'RequestStartTransaction', {
            evseId: 2,
            remoteStartId: 11,
            idToken: { idToken: 'METER-2', type: 'Central' },
          }));
      const started = periodic(id).length;
      const both = () => {
        const later = periodic(id).slice(started);
        return [1, 2].every((n) => later.some((m) => connectorOf(m) === n));
      };
      await until(both, 'samples of both sessions');
      const later = periodic(id).slice(started);
      for (const n of [1, 2]) assert.equal(powerOf(later.find((m) => connectorOf(m) === n)), 11000);
      if (!e.v16)
        assert.ok(
          e
            .received(id, 'TransactionEvent')
            .some((m) => m.params.triggerReason === 'ChargingRateChanged' && m.params.evse.id === 1),
        );
    });

    test('J01 clock-aligned samples are stamped on the interval boundary', async () => {
      const id = `${e.tag}-METER-CLOCK`;
      const c = e.deploy(id, { config: { ClockAlignedDataInterval: '1' } });
      await e.online(c);
      const clock = () =>
        e
          .received(id, 'MeterValues')
          .filter((m) => m.params.meterValue[0].sampledValue[0].context === 'Sample.Clock');
      await until(() => clock().length >= 4, 'two clock-aligned samples of both connectors');
      for (const m of clock()) assert.match(m.params.meterValue[0].timestamp, /T\d\d:\d\d:\d\d\.000Z$/);
    });

    test(`J01 clock-aligned samples include the main meter (${e.v16 ? 'connector 0' : 'evseId 0'})`, async () => {
      const id = `${e.tag}-METER-MAIN`;
      const c = e.deploy(id, { config: { ClockAlignedDataInterval: '1' } });
      await e.online(c);
      const main = () =>
        e.received(id, 'MeterValues').filter((m) => (e.v16 ? m.params.connectorId : m.params.evseId) === 0);
      await until(() => main().length >= 1, 'a clock-aligned sample of the main meter');
      assert.equal(main()[0].params.meterValue[0].sampledValue[0].context, 'Sample.Clock');
    });

    test(`the end message carries the readings kept during the session (${e.v16 ? 'StopTxnSampledData, StopTxnAlignedData' : 'TxEndedMeasurands of SampledDataCtrlr and AlignedDataCtrlr'}), then the end reading`, async () => {
      const id = `${e.tag}-METER-ENDED`;
      const config: Record<string, string> = e.v16
        ? { MeterValueSampleInterval: '1', ClockAlignedDataInterval: '1' }
        : { SampledDataTxEndedInterval: '1', AlignedDataTxEndedInterval: '1' };
      const c = e.deploy(id, {
        config: {
          ...config,
          StopTxnSampledData: 'Energy.Active.Import.Register',
          StopTxnAlignedData: 'Power.Active.Import',
        },
      });
      await e.online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'METER-END' });
      await c.until(() => (c.ctx().connectors[0].tx?.endSamples?.length ?? 0) >= 4 * 5, 8000);
      c.actor.send({ type: 'UNPLUG', connectorId: 1 });
      const end = e.v16
        ? (await e.waitReceived(id, 'StopTransaction'))[0].params.transactionData
        : (
            await e
              .csms()
              .waitFor(() => e.received(id, 'TransactionEvent').find((m) => m.params.eventType === 'Ended'))
          ).params.meterValue;
      const contexts: string[] = end.map((mv: Json) => mv.sampledValue[0].context);
      assert.ok(contexts.includes('Sample.Periodic'));
      assert.ok(contexts.includes('Sample.Clock'));
      assert.equal(contexts.at(-1), 'Transaction.End');
      for (const mv of end)
        assert.equal(
          mv.sampledValue[0].measurand,
          mv.sampledValue[0].context === 'Sample.Clock'
            ? 'Power.Active.Import'
            : 'Energy.Active.Import.Register',
        );
    });

    if (!e.v16)
      test('SampledDataCtrlr.TxStartedMeasurands decides what TransactionEvent Started carries', async () => {
        const id = `${e.tag}-METER-STARTED`;
        const c = e.deploy(id, { config: { TxStartedMeasurands: 'Energy.Active.Import.Register,Voltage' } });
        await e.online(c);
        c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
        c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'METER-START' });
        const [started] = await e.waitReceived(id, 'TransactionEvent');
        assert.equal(started.params.eventType, 'Started');
        assert.deepEqual(
          [...new Set(started.params.meterValue[0].sampledValue.map((v: Json) => v.measurand))],
          ['Energy.Active.Import.Register', 'Voltage'],
        );
      });

    test(`${e.v16 ? 'ChangeConfiguration' : 'B05 SetVariables'} naming a measurand the charger cannot read is Rejected`, async () => {
      const id = `${e.tag}-METER-REJECT`;
      const c = e.deploy(id);
      await e.online(c);
      const value = 'Energy.Active.Import.Register,Frequency';
      const answer = e.v16
        ? await e.call(id, 'ChangeConfiguration', { key: 'MeterValuesSampledData', value })
        : await e.call(id, 'SetVariables', {
            setVariableData: [
              {
                component: { name: 'SampledDataCtrlr' },
                variable: { name: 'TxUpdatedMeasurands' },
                attributeValue: value,
              },
            ],
          });
      assert.equal(e.v16 ? answer.status : answer.setVariableResult[0].attributeStatus, 'Rejected');
    });

    if (!e.v16)
      test('E02 TransactionEvent Updated ChargingStateChanged (Charging) follows Started at once', async () => {
        const id = `${e.tag}-METER-PROMPT`;
        const c = e.deploy(id, { config: { MeterValueSampleInterval: '3600' } });
        await e.online(c);
        c.actor.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'plug' });
        await e.quiet(c);
        await e.call(id, 'RequestStartTransaction', {
          evseId: 1,
          remoteStartId: 10,
          idToken: { idToken: 'METER-2', type: 'Central' },
        });
        const [started, changed] = await e.waitReceived(id, 'TransactionEvent', 2);
        assert.equal(started.params.eventType, 'Started');
        assert.equal(changed.params.triggerReason, 'ChargingStateChanged');
        assert.equal(changed.params.transactionInfo.chargingState, 'Charging');
      });
  });
