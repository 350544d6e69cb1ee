// OCPP 2.1 block I on the machine (simulated clock): the tariffs the charger holds (I07, I09, I10,
// I11) and the cost it computes from them (I12 costDetails in TransactionEvent, the running cost
// on the connector). The session's expected cost is computed here from the tariff and what the
// central system saw: the registers and timestamps of the TransactionEvents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { online, type SentCall } from '../charger-harness.ts';
import { aRemoteStart, aRemoteStop } from '../builders.ts';
import { chargerView } from '../../../../actors/charger/charger-view.ts';

const V = 'ocpp2.1';
const VAT = [{ type: 'VAT', tax: 21 }];
const TARIFF = {
  tariffId: 'TARIFF-A',
  currency: 'EUR',
  description: [{ format: 'UTF8', content: '0.35/kWh, 0.05/min, idle 0.25/min, 1.50 start' }],
  fixedFee: { prices: [{ priceFixed: 1.5 }], taxRates: VAT },
  energy: { prices: [{ priceKwh: 0.35 }], taxRates: VAT },
  chargingTime: { prices: [{ priceMinute: 0.05 }], taxRates: VAT },
  idleTime: { prices: [{ priceMinute: 0.25 }], taxRates: VAT },
};

const register = (call: SentCall, context: string): number =>
  call.payload.meterValue
    .flatMap((m: any) => m.sampledValue)
    .find((v: any) => v.context === context && v.measurand === 'Energy.Active.Import.Register').value;

/** Simulated time in steps of a minute at most, so each meter sample is taken when due. */
function run(h: ReturnType<typeof online>, ms: number): void {
  for (; ms > 0; ms -= 60_000) h.tick(Math.min(ms, 60_000));
}

const seconds = (from: SentCall, to: SentCall) =>
  (Date.parse(to.payload.timestamp) - Date.parse(from.payload.timestamp)) / 1000;

test('ocpp2.1: I07 SetDefaultTariff is held per EVSE; I09 GetTariffs lists it; I10 ClearTariffs clears it', async () => {
  const h = online(V);
  assert.deepEqual(await h.csmsCall('GetTariffs', { evseId: 0 }), { status: 'NoTariff' });
  assert.deepEqual(await h.csmsCall('SetDefaultTariff', { evseId: 0, tariff: TARIFF }), {
    status: 'Accepted',
  });
  assert.deepEqual(
    await h.csmsCall('SetDefaultTariff', { evseId: 2, tariff: { ...TARIFF, tariffId: 'TARIFF-B' } }),
    { status: 'Accepted' },
  );
  // The same id on another EVSE is a duplicate.
  assert.deepEqual(await h.csmsCall('SetDefaultTariff', { evseId: 1, tariff: TARIFF }), {
    status: 'DuplicateTariffId',
  });
  assert.deepEqual(await h.csmsCall('GetTariffs', { evseId: 1 }), {
    status: 'Accepted',
    tariffAssignments: [{ tariffId: 'TARIFF-A', tariffKind: 'DefaultTariff', evseIds: [0] }],
  });
  assert.equal((await h.csmsCall('GetTariffs', { evseId: 0 })).tariffAssignments.length, 2);
  assert.deepEqual(await h.csmsCall('ClearTariffs', { tariffIds: ['TARIFF-B', 'NOPE'] }), {
    clearTariffsResult: [
      { tariffId: 'TARIFF-B', status: 'Accepted' },
      { tariffId: 'NOPE', status: 'NoTariff' },
    ],
  });
  assert.deepEqual(await h.csmsCall('ClearTariffs', {}), {
    clearTariffsResult: [{ tariffId: 'TARIFF-A', status: 'Accepted' }],
  });
  assert.deepEqual(await h.csmsCall('ClearTariffs', {}), { clearTariffsResult: [{ status: 'NoTariff' }] });
  h.finish();
});

test('ocpp2.1: I07 a tariff with conditions the charger cannot price is ConditionNotSupported; an unknown EVSE Rejected', async () => {
  const h = online(V);
  const timed = { ...TARIFF, energy: { prices: [{ priceKwh: 0.3, conditions: { dayOfWeek: ['Monday'] } }] } };
  assert.deepEqual(await h.csmsCall('SetDefaultTariff', { evseId: 0, tariff: timed }), {
    status: 'ConditionNotSupported',
  });
  assert.deepEqual(await h.csmsCall('SetDefaultTariff', { evseId: 9, tariff: TARIFF }), {
    status: 'Rejected',
  });
  h.finish();
});

test('ocpp2.1: I12 a tariff session: the final cost is the tariff applied to the metered energy, charging and idle time, to the cent', async () => {
  const h = online(V);
  await h.csmsCall('SetDefaultTariff', { evseId: 0, tariff: TARIFF });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(V));
  const transactionId = h.connector(1).tx!.id!;
  run(h, 37 * 60_000 + 12_345);
  h.send({ type: 'EV_STOPS_ENERGY', connectorId: 1 });
  run(h, 14 * 60_000 + 4_321);
  await h.csmsCall(...aRemoteStop(V, transactionId));

  const events = h.callsOf('TransactionEvent');
  const started = events.find((e) => e.payload.eventType === 'Started')!;
  const ended = events.find((e) => e.payload.eventType === 'Ended')!;
  const idleFrom = events.find((e) => e.payload.transactionInfo.chargingState === 'SuspendedEV')!;
  assert.equal(started.payload.transactionInfo.tariffId, 'TARIFF-A');
  // What the central system saw, and the tariff applied to it by hand.
  const kWh = (register(ended, 'Transaction.End') - register(started, 'Transaction.Begin')) / 1000;
  const total = Math.round(seconds(started, ended));
  const idle = Math.round(seconds(idleFrom, ended));
  assert.ok(kWh > 5, `${kWh} kWh`);
  const net = 1.5 + kWh * 0.35 + ((total - idle) / 60) * 0.05 + (idle / 60) * 0.25;
  const expected = Math.round(net * 1.21 * 100) / 100;

  const d = ended.payload.costDetails;
  assert.equal(d.totalCost.currency, 'EUR');
  assert.equal(d.totalCost.typeOfCost, 'NormalCost');
  assert.equal(d.totalCost.total.inclTax, expected);
  assert.equal(d.totalCost.total.exclTax, Math.round(net * 100) / 100);
  assert.deepEqual(d.totalUsage, { energy: kWh * 1000, chargingTime: total, idleTime: idle });
  assert.equal(d.chargingPeriods[0].tariffId, 'TARIFF-A');
  // The running cost went with the Updated events, growing.
  const running = events
    .filter((e) => e.payload.eventType === 'Updated')
    .map((e) => e.payload.costDetails.totalCost.total.inclTax);
  assert.ok(running.length >= 30, `${running.length} Updated events`);
  assert.deepEqual(
    running,
    [...running].sort((a, b) => a - b),
  );
  assert.ok(running.at(-1)! <= expected);
  h.finish();
});

test('ocpp2.1: I02 the running cost the charger computes is shown on its connector while the transaction runs', async () => {
  const h = online(V);
  await h.csmsCall('SetDefaultTariff', { evseId: 1, tariff: TARIFF });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(V));
  h.tick(10 * 60_000);
  const view = chargerView(h.ctx(), h.clock.now()).connectors[0];
  const last = h.callsOf('TransactionEvent').at(-1)!;
  assert.equal(view.cost, last.payload.costDetails.totalCost.total.inclTax);
  assert.ok(view.cost! > 1.5 * 1.21);
  h.finish();
});

test('ocpp2.1: I02 I03 the display shows the running cost while the transaction runs, then its total for a minute', async () => {
  const h = online(V);
  await h.csmsCall('SetDefaultTariff', { evseId: 0, tariff: TARIFF });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(V));
  run(h, 5 * 60_000);
  const display = () => chargerView(h.ctx(), h.clock.now()).display_message;
  const running = h.callsOf('TransactionEvent').at(-1)!.payload.costDetails.totalCost.total.inclTax;
  assert.equal(display()?.content, `Cost so far: ${running.toFixed(2)} EUR`);
  await h.csmsCall(...aRemoteStop(V, h.connector(1).tx!.id!));
  const total = h.callsOf('TransactionEvent').at(-1)!.payload.costDetails.totalCost.total.inclTax;
  assert.equal(display()?.content, `Total cost: ${total.toFixed(2)} EUR incl. tax`);
  // The charger's own messages are not the CSMS's to read.
  assert.deepEqual(await h.csmsCall('GetDisplayMessages', { requestId: 1 }), { status: 'Unknown' });
  h.tick(60_000);
  assert.equal(display(), null);
  h.finish();
});

test('ocpp2.1: I11 ChangeTransactionTariff prices the running transaction by the new tariff; another currency or transaction is refused', async () => {
  const h = online(V);
  await h.csmsCall('SetDefaultTariff', { evseId: 0, tariff: TARIFF });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(V));
  const transactionId = h.connector(1).tx!.id!;
  const flat = { tariffId: 'FLAT', currency: 'EUR', fixedFee: { prices: [{ priceFixed: 9.99 }] } };
  assert.deepEqual(await h.csmsCall('ChangeTransactionTariff', { transactionId: 'nope', tariff: flat }), {
    status: 'TxNotFound',
  });
  assert.deepEqual(
    await h.csmsCall('ChangeTransactionTariff', { transactionId, tariff: { ...flat, currency: 'USD' } }),
    { status: 'NoCurrencyChange' },
  );
  assert.deepEqual(await h.csmsCall('ChangeTransactionTariff', { transactionId, tariff: flat }), {
    status: 'Accepted',
  });
  h.tick(5 * 60_000);
  await h.csmsCall(...aRemoteStop(V, transactionId));
  const ended = h.callsOf('TransactionEvent').at(-1)!;
  assert.equal(ended.payload.transactionInfo.tariffId, 'FLAT');
  assert.deepEqual(ended.payload.costDetails.totalCost.total, { exclTax: 9.99, inclTax: 9.99 });
  // I09: the transaction's tariff is listed with the defaults while it runs; gone after.
  assert.deepEqual(await h.csmsCall('GetTariffs', { evseId: 1 }), {
    status: 'Accepted',
    tariffAssignments: [{ tariffId: 'TARIFF-A', tariffKind: 'DefaultTariff', evseIds: [0] }],
  });
  h.finish();
});

test("ocpp2.1: I08 the tariff of an Authorize answer prices that token's transaction; GetTariffs lists it as its DriverTariff", async () => {
  const driver = { tariffId: 'DRIVER-7', currency: 'EUR', energy: { prices: [{ priceKwh: 0.19 }] } };
  const h = online(V, {
    answers: {
      Authorize: (p) =>
        p.idToken.idToken === 'FLEET-7'
          ? { idTokenInfo: { status: 'Accepted' }, tariff: driver }
          : { idTokenInfo: { status: 'Accepted' } },
    },
  });
  await h.csmsCall('SetDefaultTariff', { evseId: 0, tariff: TARIFF });
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'FLEET-7' });
  h.send({ type: 'PLUG_IN', connectorId: 2 });
  h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'WALK-IN' });
  const started = h.callsOf('TransactionEvent').filter((e) => e.payload.eventType === 'Started');
  assert.deepEqual(
    started.map((e) => [e.payload.evse.id, e.payload.transactionInfo.tariffId]),
    [
      [1, 'DRIVER-7'],
      [2, 'TARIFF-A'],
    ],
  );
  assert.deepEqual((await h.csmsCall('GetTariffs', { evseId: 1 })).tariffAssignments, [
    { tariffId: 'TARIFF-A', tariffKind: 'DefaultTariff', evseIds: [0] },
    { tariffId: 'DRIVER-7', tariffKind: 'DriverTariff', evseIds: [1] },
  ]);
  h.finish();
});

test('ocpp2.1: I12 a transaction without a tariff carries no cost', async () => {
  const h = online(V);
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart(V));
  h.tick(2 * 60_000);
  assert.ok(h.callsOf('TransactionEvent').every((e) => e.payload.costDetails === undefined));
  h.finish();
});
