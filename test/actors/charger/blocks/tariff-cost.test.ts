// Tariff and cost (blocks/tariff-cost.ts; OCPP 2.0.1 I02 CostUpdated): the running cost the central
// system sends is kept for its transaction and shown on its connector in the detail view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T0, online } from '../charger-harness.ts';
import { aRemoteStart } from '../builders.ts';
import { chargerView } from '../../../../actors/charger/charger-view.ts';

const connectorView = (h: ReturnType<typeof online>, id: number) =>
  chargerView(h.ctx(), h.clock.now()).connectors[id - 1];

test('ocpp2.0.1: I02 CostUpdated during a transaction is answered and its total shown on the connector, the latest one kept', async () => {
  const h = online('ocpp2.0.1');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  const transactionId = h.connector(1).tx!.id!;
  assert.deepEqual(await h.csmsCall('CostUpdated', { totalCost: 1.25, transactionId }), {});
  h.tick(60_000);
  assert.deepEqual(await h.csmsCall('CostUpdated', { totalCost: 3.5, transactionId }), {});
  const c = connectorView(h, 1);
  assert.deepEqual([c.cost, c.cost_updated_at], [3.5, new Date(T0 + 60_000).toISOString()]);
  assert.equal(connectorView(h, 2).cost, null);
  h.finish();
});

test('ocpp2.0.1: I02 the running cost survives a restart from the snapshot and goes with its transaction', async () => {
  const h = online('ocpp2.0.1');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  await h.csmsCall('CostUpdated', { totalCost: 2, transactionId: h.connector(1).tx!.id! });
  h.restart();
  assert.equal(connectorView(h, 1).cost, 2);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.equal(connectorView(h, 1).cost, null);
  h.finish();
});

test('ocpp2.0.1: I02 CostUpdated for a transaction the charger does not run is answered and changes nothing', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await h.csmsCall('CostUpdated', { totalCost: 9, transactionId: 'nope' }), {});
  assert.equal(h.ctx().costs, undefined);
  h.finish();
});
