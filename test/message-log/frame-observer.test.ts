// The RpcEndpoint's frame observer, the one place every logged frame comes from: each frame in
// and out, in wire order and before it is acted on, with its message type, id, the action of the
// CALL it belongs to, and the validation error of a frame that failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcEndpoint, RpcError, type RpcEndpointOptions } from '../../protocols/ocpp/index.ts';

interface Seen {
  direction: 'in' | 'out';
  text: string;
  type: number | null;
  messageId: string | null;
  action: string | null;
  error: string | null;
}

function anEndpoint(overrides: Partial<RpcEndpointOptions> = {}) {
  const seen: Seen[] = [];
  const wire: string[] = [];
  const endpoint = new RpcEndpoint({
    version: 'ocpp1.6',
    send: (text) => wire.push(text),
    onCall: (action) => {
      if (action === 'Reset') return { status: 'Accepted' };
      throw new RpcError('NotSupported', `${action} not here`);
    },
    onFrame: (direction, text, type, messageId, action, error) =>
      seen.push({ direction, text, type, messageId, action, error }),
    ...overrides,
  });
  return { endpoint, seen, wire };
}

const boot = { chargePointVendor: 'V', chargePointModel: 'M' };
const bootResult = { status: 'Accepted', currentTime: '2025-01-01T00:00:00Z', interval: 300 };

test('a CALL out and its CALLRESULT in: both told, the answer with the action of its call', async () => {
  const { endpoint, seen, wire } = anEndpoint();
  const answer = endpoint.call('BootNotification', boot);
  const id = JSON.parse(wire[0])[1];
  const result = JSON.stringify([3, id, bootResult]);
  endpoint.receive(result);
  await answer;
  assert.deepEqual(seen, [
    { direction: 'out', text: wire[0], type: 2, messageId: id, action: 'BootNotification', error: null },
    { direction: 'in', text: result, type: 3, messageId: id, action: 'BootNotification', error: null },
  ]);
});

test('the answer is told before the next queued CALL it lets go', async () => {
  const { endpoint, seen, wire } = anEndpoint();
  const first = endpoint.call('Heartbeat', {});
  const second = endpoint.call('Heartbeat', {});
  endpoint.receive(JSON.stringify([3, JSON.parse(wire[0])[1], { currentTime: '2025-01-01T00:00:00Z' }]));
  endpoint.receive(JSON.stringify([3, JSON.parse(wire[1])[1], { currentTime: '2025-01-01T00:00:00Z' }]));
  await Promise.all([first, second]);
  assert.deepEqual(
    seen.map((s) => `${s.direction}${s.type}`),
    ['out2', 'in3', 'out2', 'in3'],
  );
});

test('a CALL in and our CALLRESULT or CALLERROR out carry its action', async () => {
  const { endpoint, seen } = anEndpoint();
  endpoint.receive('[2,"r1","Reset",{"type":"Soft"}]');
  endpoint.receive('[2,"r2","ClearCache",{}]');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    seen.map((s) => [s.direction, s.type, s.messageId, s.action, s.error]),
    [
      ['in', 2, 'r1', 'Reset', null],
      ['out', 3, 'r1', 'Reset', null],
      ['in', 2, 'r2', 'ClearCache', null],
      ['out', 4, 'r2', 'ClearCache', null],
    ],
  );
});

test('a CALL that breaks its schema is told with the validation error; so is a result that does', async () => {
  const { endpoint, seen, wire } = anEndpoint();
  endpoint.receive('[2,"x1","Reset",{"type":"Sideways"}]');
  assert.equal(seen[0].action, 'Reset');
  assert.match(seen[0].error!, /^PropertyConstraintViolation: ResetRequest \/type/);
  assert.equal(seen[1].type, 4, 'answered with a CALLERROR');
  const call = endpoint.call('Heartbeat', {});
  const id = JSON.parse(wire[wire.length - 1])[1];
  endpoint.receive(JSON.stringify([3, id, { currentTime: 42 }]));
  await assert.rejects(call);
  const last = seen[seen.length - 1];
  assert.equal(last.action, 'Heartbeat');
  assert.match(last.error!, /HeartbeatResponse/);
});

test('a frame that is not OCPP-J is told with no type and the framing error; a late answer with no action', () => {
  const { endpoint, seen } = anEndpoint();
  endpoint.receive('{not json');
  endpoint.receive('[3,"nobody-asked",{}]');
  assert.deepEqual(seen[0], {
    direction: 'in',
    text: '{not json',
    type: null,
    messageId: null,
    action: null,
    error: 'FormationViolation: message is not JSON', // 1.6 spelling of RpcFrameworkError
  });
  assert.deepEqual(seen[1].action, null);
  assert.equal(seen[1].type, 3);
});

test('without an observer nothing changes on the wire', async () => {
  const { endpoint, wire } = anEndpoint({ onFrame: undefined });
  const answer = endpoint.call('BootNotification', boot);
  endpoint.receive(JSON.stringify([3, JSON.parse(wire[0])[1], bootResult]));
  assert.deepEqual(await answer, bootResult);
});
