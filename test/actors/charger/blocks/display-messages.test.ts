// Display messages (blocks/display-messages.ts; OCPP 2.0.1 block O): kept with id, priority, state,
// time window and transaction; reported with NotifyDisplayMessages; the one on show in the detail view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T0, online, type Harness } from '../charger-harness.ts';
import { aRemoteStart } from '../builders.ts';
import { chargerView } from '../../../../actors/charger/charger-view.ts';

const at = (ms: number) => new Date(T0 + ms).toISOString();

/** SetDisplayMessage's payload: message `id`, NormalCycle, UTF8, with these MessageInfo fields. */
function aMessage(
  id: number,
  o: { content?: string; format?: string; priority?: string; state?: string; [k: string]: unknown } = {},
) {
  const { content = `message ${id}`, format = 'UTF8', priority = 'NormalCycle', ...rest } = o;
  return { message: { id, priority, message: { format, content }, ...rest } };
}

const set = async (h: Harness, id: number, o: Parameters<typeof aMessage>[1] = {}) =>
  (await h.csmsCall('SetDisplayMessage', aMessage(id, o))).status;

const onShow = (h: Harness) => chargerView(h.ctx(), h.clock.now()).display_message;

test('ocpp2.0.1: O01 SetDisplayMessage is Accepted and the message is on show in the detail view', async () => {
  const h = online('ocpp2.0.1');
  assert.equal(onShow(h), null);
  assert.equal(await set(h, 1, { content: 'Welcome' }), 'Accepted');
  assert.deepEqual(onShow(h), {
    id: 1,
    priority: 'NormalCycle',
    state: null,
    format: 'UTF8',
    language: null,
    content: 'Welcome',
    start_at: null,
    end_at: null,
    transaction_id: null,
    kept: 1,
  });
  h.finish();
});

test('ocpp2.0.1: O06 a SetDisplayMessage with the id of a kept message replaces it', async () => {
  const h = online('ocpp2.0.1');
  await set(h, 1, { content: 'first' });
  await set(h, 1, { content: 'second', priority: 'InFront' });
  assert.equal(h.ctx().displayMessages!.length, 1);
  assert.deepEqual([onShow(h)!.content, onShow(h)!.priority], ['second', 'InFront']);
  h.finish();
});

test('ocpp2.0.1: O01 the message on show is the highest priority (AlwaysFront, InFront, NormalCycle), the latest of equals', async () => {
  const h = online('ocpp2.0.1');
  await set(h, 1, { priority: 'NormalCycle' });
  await set(h, 2, { priority: 'InFront' });
  await set(h, 3, { priority: 'AlwaysFront' });
  h.tick(1_000);
  await set(h, 4, { priority: 'AlwaysFront' });
  assert.equal(onShow(h)!.id, 4);
  await h.csmsCall('ClearDisplayMessage', { id: 4 });
  await h.csmsCall('ClearDisplayMessage', { id: 3 });
  assert.equal(onShow(h)!.id, 2);
  h.finish();
});

test('ocpp2.0.1: O01 a message for a state is on show only in it (Charging while a transaction charges)', async () => {
  const h = online('ocpp2.0.1');
  await set(h, 1, { state: 'Charging', priority: 'AlwaysFront', content: 'charging' });
  await set(h, 2, { state: 'Idle', content: 'idle' });
  assert.equal(onShow(h)!.content, 'idle');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  assert.equal(onShow(h)!.content, 'charging');
  h.finish();
});

test('ocpp2.0.1: O01 a message waits for its startDateTime and goes at its endDateTime (no longer reported)', async () => {
  const h = online('ocpp2.0.1');
  assert.equal(await set(h, 1, { startDateTime: at(60_000), endDateTime: at(120_000) }), 'Accepted');
  assert.equal(onShow(h), null);
  h.tick(60_000);
  assert.equal(onShow(h)!.id, 1);
  assert.equal(onShow(h)!.end_at, at(120_000));
  h.tick(60_000);
  assert.equal(onShow(h), null);
  assert.deepEqual(await h.csmsCall('GetDisplayMessages', { requestId: 1 }), { status: 'Unknown' });
  assert.equal(h.ctx().displayMessages, undefined);
  // A window that already ended is refused.
  assert.equal(await set(h, 2, { endDateTime: at(0) }), 'Rejected');
  h.finish();
});

test('ocpp2.0.1: O03 a message for a transaction: UnknownTransaction for one that does not run; shown while it runs, gone when it ends', async () => {
  const h = online('ocpp2.0.1');
  assert.equal(await set(h, 1, { transactionId: 'nope' }), 'UnknownTransaction');
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1'));
  const transactionId = h.connector(1).tx!.id!;
  assert.equal(await set(h, 2, { transactionId, content: 'your session' }), 'Accepted');
  assert.deepEqual([onShow(h)!.content, onShow(h)!.transaction_id], ['your session', transactionId]);
  h.send({ type: 'UNPLUG', connectorId: 1 });
  assert.equal(onShow(h), null);
  assert.deepEqual(await h.csmsCall('GetDisplayMessages', { requestId: 1 }), { status: 'Unknown' });
  h.finish();
});

test('ocpp2.0.1: O01 a format the display cannot show (HTML, URI) is NotSupportedMessageFormat', async () => {
  const h = online('ocpp2.0.1');
  assert.equal(await set(h, 1, { format: 'HTML', content: '<b>hi</b>' }), 'NotSupportedMessageFormat');
  assert.equal(
    await set(h, 2, { format: 'URI', content: 'https://example.com' }),
    'NotSupportedMessageFormat',
  );
  assert.equal(h.ctx().displayMessages, undefined);
  h.finish();
});

test('ocpp2.0.1: O01 more messages than the charger keeps (8) are Rejected', async () => {
  const h = online('ocpp2.0.1');
  for (let id = 1; id <= 8; id++) assert.equal(await set(h, id), 'Accepted');
  assert.equal(await set(h, 9), 'Rejected');
  assert.equal(await set(h, 8, { content: 'replaced' }), 'Accepted');
  h.finish();
});

test('ocpp2.0.1: O04 GetDisplayMessages: Accepted, then NotifyDisplayMessages with the matching messages, 4 a message, tbc until the last', async () => {
  const h = online('ocpp2.0.1');
  for (let id = 1; id <= 5; id++) await set(h, id, { priority: id === 3 ? 'InFront' : 'NormalCycle' });
  await set(h, 6, { state: 'Faulted', endDateTime: at(3_600_000) });
  const before = h.calls.length;
  assert.deepEqual(await h.csmsCall('GetDisplayMessages', { requestId: 7 }), { status: 'Accepted' });
  const notes = h.callsSince(before).filter((c) => c.action === 'NotifyDisplayMessages');
  assert.deepEqual(
    notes.map((n) => [
      n.payload.requestId,
      n.payload.messageInfo.map((m: any) => m.id),
      n.payload.tbc ?? false,
    ]),
    [
      [7, [1, 2, 3, 4], true],
      [7, [5, 6], false],
    ],
  );
  assert.deepEqual(notes[1].payload.messageInfo[1], {
    id: 6,
    priority: 'NormalCycle',
    state: 'Faulted',
    endDateTime: at(3_600_000),
    message: { format: 'UTF8', content: 'message 6' },
  });
  const filtered = async (q: object) => {
    const n = h.calls.length;
    const answer = await h.csmsCall('GetDisplayMessages', { requestId: 8, ...q });
    const ids = h
      .callsSince(n)
      .filter((c) => c.action === 'NotifyDisplayMessages')
      .flatMap((c) => c.payload.messageInfo.map((m: any) => m.id));
    return [answer.status, ids];
  };
  assert.deepEqual(await filtered({ priority: 'InFront' }), ['Accepted', [3]]);
  assert.deepEqual(await filtered({ state: 'Faulted' }), ['Accepted', [6]]);
  assert.deepEqual(await filtered({ id: [2, 5, 99] }), ['Accepted', [2, 5]]);
  assert.deepEqual(await filtered({ id: [99] }), ['Unknown', []]);
  h.finish();
});

test('ocpp2.0.1: O05 ClearDisplayMessage removes a kept message (Accepted), Unknown for another id', async () => {
  const h = online('ocpp2.0.1');
  await set(h, 1);
  assert.deepEqual(await h.csmsCall('ClearDisplayMessage', { id: 2 }), { status: 'Unknown' });
  assert.deepEqual(await h.csmsCall('ClearDisplayMessage', { id: 1 }), { status: 'Accepted' });
  assert.equal(onShow(h), null);
  h.finish();
});

test('ocpp2.0.1: O01 the kept messages survive a restart from the persisted snapshot', async () => {
  const h = online('ocpp2.0.1');
  await set(h, 1, { priority: 'AlwaysFront', content: 'kept' });
  const persisted = h.restart() as { context: { displayMessages?: unknown[] } };
  assert.equal(persisted.context.displayMessages?.length, 1);
  assert.equal(onShow(h)!.content, 'kept');
  h.finish();
});

test('ocpp1.6: SetDisplayMessage is not a 1.6 call: NotImplemented', async () => {
  const h = online('ocpp1.6');
  await assert.rejects(h.csmsCall('SetDisplayMessage', aMessage(1)), /NotImplemented/);
  h.stop();
});
