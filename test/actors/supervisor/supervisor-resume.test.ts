// The supervisor (actors/supervisor/supervisor-machine.ts) passes a restored charger's new attempt
// on as RESUME { nextAttempt }: the charger applies it; nobody edits its snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createActor } from 'xstate';
import { createSupervisorMachine } from '../../../actors/supervisor/supervisor-machine.ts';
import type { ChargerSource } from '../../../actors/supervisor/supervisor-ports.ts';
import type { LifecycleEvent } from '../../../actors/charger/charger-ports.ts';

function supervisor() {
  const events: LifecycleEvent[] = [];
  const handle = { send: (e: LifecycleEvent) => void events.push(e), stop: () => undefined };
  const actor = createActor(createSupervisorMachine(), {
    input: { factory: { create: () => handle, restore: () => handle } },
  });
  actor.start();
  return { actor, events };
}

const source = (extra: Partial<ChargerSource> = {}): ChargerSource => ({
  deploymentId: 'd',
  orgId: 'org',
  locationId: null,
  input: {
    identity: 'd',
    version: 'ocpp1.6',
    model: { boot_vendor: 'V', boot_model: 'M', connector_count: 1, max_power_kw: 11, current_type: 'AC' },
  },
  snapshot: { value: 'x' },
  ...extra,
});

test('rehydration of a snapshot as a new attempt: RESUME carries nextAttempt', () => {
  const s = supervisor();
  s.actor.send({ type: 'charger.resume', source: source({ nextAttempt: true }) });
  assert.deepEqual(s.events, [{ type: 'RESUME', nextAttempt: true }, { type: 'START' }]);
});

test('a snapshot brought back to be started keeps its attempt: plain RESUME, then START', () => {
  const s = supervisor();
  s.actor.send({ type: 'charger.start', source: source() });
  assert.deepEqual(s.events, [{ type: 'RESUME' }, { type: 'START' }]);
});
