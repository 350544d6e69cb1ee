// The 2.1 charger end to end (engine runtime, real WebSocket) against ocpp-rpc's RPCServer in strict
// mode speaking `ocpp2.1` with ocpp-rpc's own 2.1 schemas (e2e-suite.ts checks 0 schema errors
// both ways at the end): boot, authorization, a priced transaction with meter values, its final
// cost; DER controls (block R) and a grid event's alarm; and a 2.1 call the charger has no feature
// for answered NotSupported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { e2eSuite, rpcCode, type Json } from './e2e-suite.ts';

const TARIFF = {
  tariffId: 'E2E-21',
  currency: 'EUR',
  fixedFee: { prices: [{ priceFixed: 0.5 }], taxRates: [{ type: 'VAT', tax: 21 }] },
  energy: { prices: [{ priceKwh: 0.42 }], taxRates: [{ type: 'VAT', tax: 21 }] },
  chargingTime: { prices: [{ priceMinute: 0.6 }], taxRates: [{ type: 'VAT', tax: 21 }] },
};

const register = (event: Json, context: string): number =>
  event.meterValue
    .flatMap((m: Json) => m.sampledValue)
    .find((v: Json) => v.context === context && v.measurand === 'Energy.Active.Import.Register').value;

e2eSuite('ocpp2.1', 'boot, authorization, a priced transaction', (e) => {
  test('B01 C01 E01 E06 J02 I07 I12: boots, authorizes, charges with meter values, stops; the final cost is the tariff applied to what the CSMS saw', async () => {
    const id = `${e.tag}-SESSION`;
    const c = e.deploy(id, { config: { MeterValueSampleInterval: '1' } });
    await e.online(c);
    const [boot] = e.received(id, 'BootNotification');
    assert.equal(boot.protocol, 'ocpp2.1');
    assert.deepEqual(await e.call(id, 'SetDefaultTariff', { evseId: 1, tariff: TARIFF }), {
      status: 'Accepted',
    });

    c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
    c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-21' });
    const [started] = await e.waitReceived(id, 'TransactionEvent', 1);
    assert.equal(e.received(id, 'Authorize').length, 1);
    await e.waitReceived(id, 'TransactionEvent', 4, 10_000);
    const triggered = await e.call(id, 'TriggerMessage', {
      requestedMessage: 'MeterValues',
      evse: { id: 1 },
    });
    assert.equal(triggered.status, 'Accepted');
    await e.waitReceived(id, 'MeterValues', 1);
    c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-21' });
    const ended = await e
      .waitReceived(id, 'TransactionEvent')
      .then(() =>
        c.until(() => e.received(id, 'TransactionEvent').find((r) => r.params.eventType === 'Ended')),
      );

    const begin = started.params;
    const end = ended.params;
    assert.equal(begin.transactionInfo.tariffId, 'E2E-21');
    const kWh = (register(end, 'Transaction.End') - register(begin, 'Transaction.Begin')) / 1000;
    const seconds = Math.round((Date.parse(end.timestamp) - Date.parse(begin.timestamp)) / 1000);
    const idle = end.costDetails.totalUsage.idleTime;
    const net = 0.5 + kWh * 0.42 + ((seconds - idle) / 60) * 0.6;
    assert.deepEqual(end.costDetails.totalUsage, {
      energy: kWh * 1000,
      chargingTime: seconds,
      idleTime: idle,
    });
    assert.equal(end.costDetails.totalCost.total.inclTax, Math.round(net * 1.21 * 100) / 100);
    const periodic = e
      .received(id, 'TransactionEvent')
      .filter((r) => r.params.triggerReason === 'MeterValuePeriodic');
    assert.ok(periodic.length >= 1);
    assert.ok(periodic.every((r) => r.params.costDetails.totalCost.currency === 'EUR'));
  });

  test('K a 2.1 call the charger has no feature for: CALLERROR NotSupported, and the charger stays online', async () => {
    const id = `${e.tag}-REFUSE`;
    const c = e.deploy(id);
    await e.online(c);
    await assert.rejects(
      e.call(id, 'UsePriorityCharging', { transactionId: 'none', activate: true }),
      (err) => rpcCode(err) === 'NotSupported',
    );
    assert.deepEqual(await e.call(id, 'GetTariffs', { evseId: 0 }), { status: 'NoTariff' });
  });

  test('R01 R02 R03 R04: DER controls set, reported, cleared; a grid event raises NotifyDERAlarm', async () => {
    const id = `${e.tag}-DER`;
    const c = e.deploy(id);
    await e.online(c);
    const droop = {
      isDefault: false,
      controlId: 'DROOP-1',
      controlType: 'FreqDroop',
      freqDroop: {
        priority: 1,
        overFreq: 50.2,
        underFreq: 49.8,
        overDroop: 5,
        underDroop: 5,
        responseTime: 1,
      },
    };
    assert.deepEqual(await e.call(id, 'SetDERControl', droop), { status: 'Accepted' });
    const [started] = await e.waitReceived(id, 'NotifyDERStartStop', 1);
    assert.deepEqual([started.params.controlId, started.params.started], ['DROOP-1', true]);
    const trip = {
      isDefault: true,
      controlId: 'HF-TRIP',
      controlType: 'HFMustTrip',
      curve: { priority: 0, yUnit: 'Not_Applicable', curveData: [{ x: 0.16, y: 62 }] },
    };
    assert.deepEqual(await e.call(id, 'SetDERControl', trip), { status: 'Accepted' });
    const voltVar = { ...trip, controlId: 'VV', controlType: 'VoltVar' };
    assert.equal((await e.call(id, 'SetDERControl', voltVar)).status, 'NotSupported');

    assert.deepEqual(await e.call(id, 'GetDERControl', { requestId: 5 }), { status: 'Accepted' });
    const [report] = await e.waitReceived(id, 'ReportDERControl', 1);
    assert.equal(report.params.requestId, 5);
    assert.deepEqual(report.params.freqDroop[0].id, 'DROOP-1');
    assert.deepEqual(report.params.curve[0].curveType, 'HFMustTrip');

    c.actor.send({ type: 'GRID_EVENT', fault: 'OverFrequency', ended: false });
    const [alarm] = await e.waitReceived(id, 'NotifyDERAlarm', 1);
    assert.deepEqual(
      [alarm.params.controlType, alarm.params.gridEventFault],
      ['HFMustTrip', 'OverFrequency'],
    );

    assert.deepEqual(await e.call(id, 'ClearDERControl', { isDefault: false }), { status: 'Accepted' });
    const stopped = await e.waitReceived(id, 'NotifyDERStartStop', 2);
    assert.equal(stopped[1].params.started, false);
    assert.deepEqual(await e.call(id, 'ClearDERControl', { isDefault: false }), { status: 'NotFound' });
  });
});
