// A charger misbehaving on purpose (docs/faults.md#misbehaving-on-purpose) against the strict
// ocpp-rpc central system, which must see exactly the misbehaviour: invalid JSON, a CALL edited
// to break its schema, an answer with a wrong message id. Not on e2eSuite: its last test asserts
// the central system saw no invalid message, which is the point here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { createChargerRuntime, type ChargerRuntime } from '../../engine/charger/charger-runtime.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { MODEL } from './e2e-suite.ts';
import { track, type TrackedCharger } from './tracked-charger.ts';

let csms: StrictCsms;
let runtime: ChargerRuntime;
const chargers: TrackedCharger[] = [];
const injected: Array<{ identity: string; kind: string; text: string }> = [];

before(async () => {
  csms = await startStrictCsms({ protocols: ['ocpp1.6'] });
  runtime = createChargerRuntime({
    log: pino({ level: 'silent' }),
    defaultCsmsUrl: () => csms.url,
    frameObserver: (identity) => (_d, text, _t, _id, _a, _e, kind) => {
      if (kind) injected.push({ identity, kind, text });
    },
  });
});

after(async () => {
  for (const c of chargers) c.stop();
  await csms.close();
});

async function online(identity: string): Promise<TrackedCharger> {
  const c = track(
    runtime.create({ identity, version: 'ocpp1.6', model: MODEL, serialNumber: `SN-${identity}` }),
  );
  chargers.push(c);
  c.actor.start();
  c.actor.send({ type: 'DEPLOY' });
  await c.until(() => c.ctx().stage === 'online', 8000);
  return c;
}

test('raw text: invalid JSON reaches the central system as written, and the log says so', async () => {
  const c = await online('MIS-RAW');
  assert.equal(runtime.misbehave(c.actor, { kind: 'raw_text', text: '[2,"x1","Heartbeat",{' }), true);
  const bad = await csms.waitFor(() => csms.badMessages.find((m) => m.identity === 'MIS-RAW'));
  assert.equal(bad.text, '[2,"x1","Heartbeat",{');
  assert.deepEqual(
    injected.filter((i) => i.identity === 'MIS-RAW').map((i) => i.kind),
    ['raw_text'],
  );
  // The charger itself is unharmed.
  assert.equal(c.ctx().stage, 'online');
});

test('edit_next_call: the next StatusNotification goes out breaking its schema; the strict central system flags it', async () => {
  const c = await online('MIS-EDIT');
  runtime.misbehave(c.actor, {
    kind: 'edit_next_call',
    action: 'StatusNotification',
    payload: { status: 'Frobnicated', errorCode: null },
  });
  c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
  const flagged = await csms.waitFor(() =>
    csms.schemaErrors.find((e) => e.identity === 'MIS-EDIT' && e.method === 'StatusNotification'),
  );
  assert.equal(flagged.params.status, 'Frobnicated');
  assert.equal('errorCode' in flagged.params, false);
  assert.deepEqual(
    injected.filter((i) => i.identity === 'MIS-EDIT').map((i) => i.kind),
    ['edited'],
  );
  // Only the next one: the one after goes as the charger wrote it.
  c.actor.send({ type: 'UNPLUG', connectorId: 1 });
  await csms.waitFor(() =>
    csms.received.find(
      (r) =>
        r.identity === 'MIS-EDIT' && r.action === 'StatusNotification' && r.params.status === 'Available',
    ),
  );
});

test('wrong_message_id: the charger answers the central system’s CALL under another id; the call times out', async () => {
  const c = await online('MIS-ID');
  runtime.misbehave(c.actor, { kind: 'wrong_message_id', message_id: 'not-yours' });
  await assert.rejects(csms.call('MIS-ID', 'ClearCache', {}, { timeoutMs: 500 }));
  const answer = csms.frames
    .filter((f) => f.identity === 'MIS-ID' && !f.outbound)
    .map((f) => JSON.parse(f.text))
    .find((f) => f[0] === 3);
  assert.equal(answer[1], 'not-yours');
  assert.deepEqual(
    injected.filter((i) => i.identity === 'MIS-ID').map((i) => i.kind),
    ['wrong_message_id'],
  );
  // The next answer is right again.
  assert.deepEqual(await csms.call('MIS-ID', 'ClearCache', {}), { status: 'Accepted' });
  assert.equal(c.ctx().stage, 'online');
});
