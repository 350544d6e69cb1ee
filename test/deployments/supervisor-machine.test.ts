// The supervisor machine with a recording factory: which root actors it makes, what each receives,
// and that it keeps nothing after shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createActor } from 'xstate';
import { createSupervisorMachine } from '../../actors/supervisor/supervisor-machine.ts';
import type { ChargerFactory, ChargerSource } from '../../actors/supervisor/supervisor-ports.ts';
import type { LifecycleEvent } from '../../actors/charger/charger-ports.ts';

interface Made {
  id: string;
  how: 'created' | 'restored';
  events: string[];
  stopped: boolean;
}

function harness(restorable = true) {
  const made: Made[] = [];
  const factory: ChargerFactory = {
    create: (s) => record(s, 'created'),
    restore: (s) => (restorable ? record(s, 'restored') : undefined),
  };
  function record(s: ChargerSource, how: Made['how']) {
    const m: Made = { id: s.deploymentId, how, events: [], stopped: false };
    made.push(m);
    return {
      send: (e: LifecycleEvent) => void m.events.push(e.type),
      stop: () => void (m.stopped = true),
    };
  }
  const actor = createActor(createSupervisorMachine(), { input: { factory } });
  actor.start();
  return { actor, made, chargers: () => actor.getSnapshot().context.chargers };
}

const source = (id: string, snapshot?: unknown): ChargerSource => ({
  deploymentId: id,
  orgId: 'org',
  locationId: null,
  input: {
    identity: id,
    version: 'ocpp1.6',
    model: { boot_vendor: 'V', boot_model: 'M', connector_count: 1, max_power_kw: 11, current_type: 'AC' },
  },
  ...(snapshot === undefined ? {} : { snapshot }),
});

test('deploy creates a root actor and sends it DEPLOY; stop, start and restart reach it', () => {
  const h = harness();
  h.actor.send({ type: 'charger.deploy', source: source('a') });
  h.actor.send({ type: 'charger.stop', deploymentId: 'a' });
  h.actor.send({ type: 'charger.start', source: source('a') });
  h.actor.send({ type: 'charger.restart', source: source('a') });
  assert.deepEqual(h.made, [
    { id: 'a', how: 'created', events: ['DEPLOY', 'STOP', 'START', 'RESTART'], stopped: false },
  ]);
  assert.equal(h.chargers().size, 1);
});

test('resume restores the snapshot, re-enters its stage and makes sure it runs', () => {
  const h = harness();
  h.actor.send({ type: 'charger.resume', source: source('b', { value: 'x' }) });
  assert.deepEqual(h.made, [{ id: 'b', how: 'restored', events: ['RESUME', 'START'], stopped: false }]);
});

test('a snapshot that cannot be restored is deployed afresh', () => {
  const h = harness(false);
  h.actor.send({ type: 'charger.resume', source: source('c', { value: 'x' }) });
  assert.deepEqual(h.made, [{ id: 'c', how: 'created', events: ['DEPLOY'], stopped: false }]);
});

test('start of a charger not in this process brings it back first, then starts it', () => {
  const h = harness();
  h.actor.send({ type: 'charger.start', source: source('d', { value: 'stopped' }) });
  h.actor.send({ type: 'charger.restart', source: source('e') });
  assert.deepEqual(h.made, [
    { id: 'd', how: 'restored', events: ['RESUME', 'START'], stopped: false },
    // Without a snapshot there is nothing to restart: a fresh deployment already walks from queued.
    { id: 'e', how: 'created', events: ['DEPLOY'], stopped: false },
  ]);
});

test('delete stops and forgets the charger; deploying an id again replaces the old actor', () => {
  const h = harness();
  h.actor.send({ type: 'charger.deploy', source: source('f') });
  h.actor.send({ type: 'charger.deploy', source: source('f') });
  assert.equal(h.made[0].stopped, true);
  assert.equal(h.chargers().size, 1);
  h.actor.send({ type: 'charger.delete', deploymentId: 'f' });
  assert.equal(h.made[1].stopped, true);
  assert.equal(h.chargers().size, 0);
  h.actor.send({ type: 'charger.stop', deploymentId: 'f' });
  assert.deepEqual(h.made[1].events, ['DEPLOY']);
});

test('shutdown stops every charger and accepts nothing more', () => {
  const h = harness();
  for (const id of ['g', 'h', 'i']) h.actor.send({ type: 'charger.deploy', source: source(id) });
  h.actor.send({ type: 'supervisor.shutdown' });
  assert.ok(h.made.every((m) => m.stopped));
  assert.equal(h.chargers().size, 0);
  h.actor.send({ type: 'charger.deploy', source: source('j') });
  assert.equal(h.made.length, 3);
  assert.equal(h.actor.getSnapshot().value, 'closed');
});

test('10,000 chargers deploy into the Map and are deleted from it, each stopped once', () => {
  const h = harness();
  for (let i = 0; i < 10_000; i++) h.actor.send({ type: 'charger.deploy', source: source(`n${i}`) });
  assert.equal(h.chargers().size, 10_000);
  for (let i = 0; i < 10_000; i++) h.actor.send({ type: 'charger.delete', deploymentId: `n${i}` });
  assert.equal(h.chargers().size, 0);
  assert.equal(h.made.filter((m) => m.stopped).length, 10_000);
});
