import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  RpcClosedError,
  RpcEndpoint,
  RpcError,
  RpcTimeoutError,
  type OcppVersion,
  type RpcClock,
  type RpcEndpointOptions,
  type SchemaErrorReport,
} from '../../protocols/ocpp/index.ts';

/** A clock the test moves by hand. */
function manualClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock = {
    setTimeout: (fn: () => void, ms: number) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id: number) => {
      timers.delete(id);
    },
  } as unknown as RpcClock;
  return {
    clock,
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...timers]) {
        if (timer.at <= now && timers.delete(id)) timer.fn();
      }
    },
    get timers() {
      return timers.size;
    },
  };
}

/** An endpoint whose written frames land in `sent` (parsed). */
function anEndpoint(version: OcppVersion, overrides: Partial<RpcEndpointOptions> = {}) {
  const sent: unknown[][] = [];
  const schemaErrors: SchemaErrorReport[] = [];
  const time = manualClock();
  const endpoint = new RpcEndpoint({
    version,
    send: (text) => sent.push(JSON.parse(text)),
    onCall: () => {
      throw new RpcError('NotSupported');
    },
    onSchemaError: (e) => schemaErrors.push(e),
    clock: time.clock,
    ...overrides,
  });
  return { endpoint, sent, schemaErrors, time };
}

const bootNotification16 = { chargePointVendor: 'Evsim', chargePointModel: 'Virtual-1' };
const bootResult = { status: 'Accepted', currentTime: '2025-01-01T00:00:00Z', interval: 300 };
const heartbeatResult = { currentTime: '2025-01-01T00:00:00Z' };

// Lets promise reactions run.
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RpcEndpoint: outgoing calls', () => {
  test('resolves with the CALLRESULT payload of the matching id', async () => {
    const { endpoint, sent } = anEndpoint('ocpp1.6');
    const result = endpoint.call('BootNotification', bootNotification16);
    assert.equal(sent.length, 1);
    const [type, id, action, payload] = sent[0];
    assert.deepEqual([type, action, payload], [2, 'BootNotification', bootNotification16]);
    assert.equal(typeof id, 'string');
    endpoint.receive(JSON.stringify([3, id, bootResult]));
    assert.deepEqual(await result, bootResult);
    assert.equal(endpoint.pendingCount, 0);
  });

  test('one outstanding CALL: the others wait and go in order', async () => {
    const { endpoint, sent } = anEndpoint('ocpp1.6');
    const answers: string[] = [];
    const calls = ['first', 'second', 'third'].map((name) =>
      endpoint.call('Heartbeat', {}).then(() => answers.push(name)),
    );
    assert.equal(sent.length, 1);
    assert.equal(endpoint.pendingCount, 3);
    for (let i = 0; i < 3; i++) {
      assert.equal(sent.length, i + 1, 'the next CALL is written only once the previous one is answered');
      endpoint.receive(JSON.stringify([3, sent[i][1], heartbeatResult]));
    }
    await Promise.all(calls);
    assert.deepEqual(answers, ['first', 'second', 'third']);
    assert.equal(new Set(sent.map((frame) => frame[1])).size, 3, 'message ids are unique');
  });

  test('a CALLERROR rejects with an RpcError carrying code, description and details', async () => {
    const { endpoint, sent } = anEndpoint('ocpp2.0.1');
    const result = endpoint.call('Heartbeat', {});
    endpoint.receive(JSON.stringify([4, sent[0][1], 'SecurityError', 'not you', { hint: 1 }]));
    await assert.rejects(result, (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, 'SecurityError');
      assert.equal(error.description, 'not you');
      assert.deepEqual(error.details, { hint: 1 });
      return true;
    });
  });

  test('a timeout rejects with RpcTimeoutError, then the next queued call goes', async () => {
    const { endpoint, sent, time } = anEndpoint('ocpp1.6', { callTimeoutMs: 1000 });
    const first = endpoint.call('Heartbeat', {});
    const second = endpoint.call('Heartbeat', {});
    time.advance(999);
    assert.equal(sent.length, 1);
    time.advance(1);
    await assert.rejects(first, RpcTimeoutError);
    assert.equal(sent.length, 2);
    endpoint.receive(JSON.stringify([3, sent[0][1], heartbeatResult])); // too late: ignored
    endpoint.receive(JSON.stringify([3, sent[1][1], heartbeatResult]));
    assert.deepEqual(await second, heartbeatResult);
    assert.equal(time.timers, 0);
  });

  test('a per-call timeout overrides the default', async () => {
    const { endpoint, time } = anEndpoint('ocpp1.6', { callTimeoutMs: 30_000 });
    const call = endpoint.call('Heartbeat', {}, { timeoutMs: 50 });
    time.advance(50);
    await assert.rejects(call, RpcTimeoutError);
  });

  test('close rejects the outstanding and the queued calls, and later calls', async () => {
    const { endpoint, sent, time } = anEndpoint('ocpp1.6');
    const calls = [
      endpoint.call('Heartbeat', {}),
      endpoint.call('Heartbeat', {}),
      endpoint.call('Heartbeat', {}),
    ];
    endpoint.close(new Error('socket closed'));
    for (const call of calls) await assert.rejects(call, RpcClosedError);
    assert.equal(endpoint.pendingCount, 0);
    assert.equal(time.timers, 0);
    await assert.rejects(endpoint.call('Heartbeat', {}), RpcClosedError);
    assert.equal(sent.length, 1);
  });

  test('an invalid outgoing CALL is refused locally and never written', async () => {
    const { endpoint, sent, schemaErrors } = anEndpoint('ocpp1.6');
    await assert.rejects(
      endpoint.call('BootNotification', { chargePointVendor: 'Evsim' }),
      (error: unknown) => {
        assert.ok(error instanceof RpcError);
        assert.equal(error.code, 'OccurenceConstraintViolation');
        return true;
      },
    );
    assert.equal(sent.length, 0);
    assert.deepEqual(
      schemaErrors.map((e) => [e.direction, e.kind, e.action, e.code]),
      [['out', 'call', 'BootNotification', 'OccurenceConstraintViolation']],
    );
  });

  test('skipValidation writes the payload as given and accepts any result', async () => {
    const { endpoint, sent, schemaErrors } = anEndpoint('ocpp1.6');
    const raw = { chargePointVendor: 'x'.repeat(40), surprise: [1, 2] };
    const result = endpoint.call('BootNotification', raw, { skipValidation: true });
    assert.deepEqual(sent[0].slice(2), ['BootNotification', raw]);
    endpoint.receive(JSON.stringify([3, sent[0][1], { whatever: true }]));
    assert.deepEqual(await result, { whatever: true });
    assert.deepEqual(schemaErrors, []);
  });

  test('an invalid CALLRESULT rejects the call with the matching code and is reported', async () => {
    const { endpoint, sent, schemaErrors } = anEndpoint('ocpp2.0.1');
    const result = endpoint.call('Heartbeat', {});
    endpoint.receive(JSON.stringify([3, sent[0][1], { currentTime: 17 }]));
    await assert.rejects(
      result,
      (error: unknown) => error instanceof RpcError && error.code === 'TypeConstraintViolation',
    );
    assert.deepEqual(
      schemaErrors.map((e) => [e.direction, e.kind, e.action, e.code]),
      [['in', 'result', 'Heartbeat', 'TypeConstraintViolation']],
    );
  });

  test('a malformed answer to the outstanding call rejects it instead of waiting for the timeout', async () => {
    const { endpoint, sent } = anEndpoint('ocpp1.6');
    const result = endpoint.call('Heartbeat', {});
    endpoint.receive(JSON.stringify([3, sent[0][1]]));
    await assert.rejects(
      result,
      (error: unknown) => error instanceof RpcError && error.code === 'FormationViolation',
    );
    assert.equal(sent.length, 1, 'no CALLERROR is sent in reply to a result');
  });

  test('two endpoints wired back to back (a synchronous transport) complete their calls', async () => {
    const wire: { csms?: RpcEndpoint } = {};
    const charger = new RpcEndpoint({
      version: 'ocpp1.6',
      send: (text) => wire.csms?.receive(text),
      onCall: () => ({}),
    });
    wire.csms = new RpcEndpoint({
      version: 'ocpp1.6',
      send: (text) => charger.receive(text),
      onCall: () => heartbeatResult,
    });
    const answers = await Promise.all([charger.call('Heartbeat', {}), charger.call('Heartbeat', {})]);
    assert.deepEqual(answers, [heartbeatResult, heartbeatResult]);
  });

  test('a transport that throws rejects that call, and the next one still goes', async () => {
    let broken = true;
    const sent: string[] = [];
    const endpoint = new RpcEndpoint({
      version: 'ocpp1.6',
      send: (text) => {
        if (broken) throw new Error('socket not open');
        sent.push(text);
      },
      onCall: () => ({}),
    });
    await assert.rejects(endpoint.call('Heartbeat', {}), /socket not open/);
    broken = false;
    const next = endpoint.call('Heartbeat', {});
    endpoint.receive(JSON.stringify([3, JSON.parse(sent[0])[1], heartbeatResult]));
    assert.deepEqual(await next, heartbeatResult);
    assert.equal(endpoint.pendingCount, 0);
  });

  test("validation 'off' sends and accepts anything", async () => {
    const { endpoint, sent } = anEndpoint('ocpp1.6', { validation: 'off' });
    const result = endpoint.call('NoSuchAction', { a: 1 });
    endpoint.receive(JSON.stringify([3, sent[0][1], { b: 2 }]));
    assert.deepEqual(await result, { b: 2 });
  });
});

describe('RpcEndpoint: incoming calls', () => {
  test('the handler result becomes the CALLRESULT', async () => {
    const seen: unknown[] = [];
    const { endpoint, sent } = anEndpoint('ocpp1.6', {
      onCall: (action, payload) => {
        seen.push([action, payload]);
        return { status: 'Accepted' };
      },
    });
    endpoint.receive('[2,"c1","Reset",{"type":"Soft"}]');
    assert.deepEqual(seen, [['Reset', { type: 'Soft' }]]);
    assert.deepEqual(sent, [[3, 'c1', { status: 'Accepted' }]]);
  });

  test('an async handler answers when it resolves', async () => {
    const { endpoint, sent } = anEndpoint('ocpp2.0.1', {
      onCall: async () => ({ status: 'Accepted' }),
    });
    endpoint.receive('[2,"c1","Reset",{"type":"Immediate"}]');
    await flush();
    assert.deepEqual(sent, [[3, 'c1', { status: 'Accepted' }]]);
  });

  test('an invalid CALL gets the CALLERROR of its fault and never reaches the handler', () => {
    const cases: Array<[OcppVersion, string, string]> = [
      ['ocpp1.6', '[2,"c1","Reset",{}]', 'OccurenceConstraintViolation'],
      ['ocpp1.6', '[2,"c2","Reset",{"type":5}]', 'TypeConstraintViolation'],
      ['ocpp1.6', '[2,"c3","Reset",{"type":"Warm"}]', 'PropertyConstraintViolation'],
      ['ocpp1.6', '[2,"c4","Reset",{"type":"Soft","x":1}]', 'FormationViolation'],
      ['ocpp2.0.1', '[2,"c5","Reset",{}]', 'OccurrenceConstraintViolation'],
      ['ocpp2.0.1', '[2,"c6","Reset",{"type":"Soft"}]', 'PropertyConstraintViolation'],
      ['ocpp2.0.1', '[2,"c7","Reset",{"type":"Immediate","evseId":"1"}]', 'TypeConstraintViolation'],
      ['ocpp2.0.1', '[2,"c8","Reset",{"type":"Immediate","x":1}]', 'FormatViolation'],
    ];
    for (const [version, text, code] of cases) {
      let handled = false;
      const { endpoint, sent, schemaErrors } = anEndpoint(version, {
        onCall: () => {
          handled = true;
          return {};
        },
      });
      endpoint.receive(text);
      assert.equal(handled, false, text);
      assert.equal(sent.length, 1, text);
      assert.deepEqual(sent[0].slice(0, 3), [4, JSON.parse(text)[1], code], text);
      assert.deepEqual(
        schemaErrors.map((e) => [e.direction, e.kind, e.action, e.code]),
        [['in', 'call', 'Reset', code]],
        text,
      );
    }
  });

  test('an action the version does not have -> NotImplemented', () => {
    const { endpoint, sent } = anEndpoint('ocpp1.6');
    endpoint.receive('[2,"c1","GetVariables",{"getVariableData":[]}]');
    assert.deepEqual(sent[0].slice(0, 3), [4, 'c1', 'NotImplemented']);
  });

  test('a handler throwing RpcError answers with its code, spelt for the version', () => {
    const { endpoint, sent } = anEndpoint('ocpp1.6', {
      onCall: (action) => {
        throw action === 'Reset'
          ? new RpcError('NotSupported', 'no resets here')
          : new RpcError('FormatViolation');
      },
    });
    endpoint.receive('[2,"c1","Reset",{"type":"Soft"}]');
    endpoint.receive('[2,"c2","ClearCache",{}]');
    assert.deepEqual(sent, [
      [4, 'c1', 'NotSupported', 'no resets here', {}],
      [4, 'c2', 'FormationViolation', '', {}],
    ]);
  });

  test('anything else thrown answers InternalError; an unknown code answers GenericError', async () => {
    const { endpoint, sent } = anEndpoint('ocpp2.0.1', {
      onCall: async (action) => {
        if (action === 'Reset') throw new TypeError('boom');
        throw new RpcError('Teapot');
      },
    });
    endpoint.receive('[2,"c1","Reset",{"type":"Immediate"}]');
    endpoint.receive('[2,"c2","ClearCache",{}]');
    await flush();
    assert.deepEqual(
      sent.map((frame) => frame.slice(0, 3)),
      [
        [4, 'c1', 'InternalError'],
        [4, 'c2', 'GenericError'],
      ],
    );
  });

  test('a handler answering outside the schema sends InternalError and reports it', () => {
    const { endpoint, sent, schemaErrors } = anEndpoint('ocpp1.6', { onCall: () => ({ status: 'Maybe' }) });
    endpoint.receive('[2,"c1","Reset",{"type":"Soft"}]');
    assert.deepEqual(sent[0].slice(0, 3), [4, 'c1', 'InternalError']);
    assert.deepEqual(
      schemaErrors.map((e) => [e.direction, e.kind, e.action, e.code]),
      [['out', 'result', 'Reset', 'PropertyConstraintViolation']],
    );
  });

  test('frames that are not OCPP-J: answered per version', () => {
    const v16 = anEndpoint('ocpp1.6');
    v16.endpoint.receive('[9,"m1"]');
    v16.endpoint.receive('not json');
    assert.deepEqual(
      v16.sent.map((frame) => frame.slice(0, 3)),
      [[4, 'm1', 'ProtocolError']],
      '1.6 cannot answer without a message id',
    );
    const v201 = anEndpoint('ocpp2.0.1');
    v201.endpoint.receive('[9,"m1"]');
    v201.endpoint.receive('not json');
    v201.endpoint.receive('[2,"m2","Reset"]');
    assert.deepEqual(
      v201.sent.map((frame) => frame.slice(0, 3)),
      [
        [4, 'm1', 'MessageTypeNotSupported'],
        [4, '-1', 'RpcFrameworkError'],
        [4, 'm2', 'FormatViolation'],
      ],
    );
  });

  test('nothing is answered after close', async () => {
    let release: (value: unknown) => void = () => {};
    const { endpoint, sent } = anEndpoint('ocpp1.6', {
      onCall: () => new Promise((resolve) => (release = resolve)),
    });
    endpoint.receive('[2,"c1","ClearCache",{}]');
    endpoint.close();
    release({ status: 'Accepted' });
    await flush();
    endpoint.receive('[2,"c2","ClearCache",{}]');
    assert.deepEqual(sent, []);
  });
});

describe('RpcEndpoint: the answers told to a meter (engine/metrics)', () => {
  test('onCallAnswered gets the CALLRESULT payload, the CALLERROR code, or nothing on a timeout', async () => {
    const told: unknown[][] = [];
    const { endpoint, sent, time } = anEndpoint('ocpp1.6', {
      onCallAnswered: (action, _ms, outcome, answer) => told.push([action, outcome, answer]),
      callTimeoutMs: 1000,
    });
    const boot = endpoint.call('BootNotification', bootNotification16);
    endpoint.receive(JSON.stringify([3, sent[0][1], bootResult]));
    await boot;
    const hb = endpoint.call('Heartbeat', {}).catch((e: unknown) => e);
    endpoint.receive(JSON.stringify([4, sent[1][1], 'SecurityError', 'no', {}]));
    await hb;
    const late = endpoint.call('Heartbeat', {}).catch((e: unknown) => e);
    time.advance(1000);
    assert.ok((await late) instanceof RpcTimeoutError);
    assert.deepEqual(told, [
      ['BootNotification', 'result', bootResult],
      ['Heartbeat', 'error', 'SecurityError'],
      ['Heartbeat', 'timeout', undefined],
    ]);
  });

  test('onLateAnswer hears an answer to the last timed-out CALL once; an answer to an unknown id is not one', async () => {
    const late: unknown[][] = [];
    const { endpoint, sent, time } = anEndpoint('ocpp1.6', {
      onCallAnswered: () => {},
      onLateAnswer: (action, ms) => late.push([action, ms >= 0]),
      callTimeoutMs: 1000,
    });
    const hb = endpoint.call('Heartbeat', {}).catch((e: unknown) => e);
    time.advance(1000);
    assert.ok((await hb) instanceof RpcTimeoutError);
    endpoint.receive('[3,"no-such-id",{"currentTime":"2025-01-01T00:00:00Z"}]');
    endpoint.receive(JSON.stringify([3, sent[0][1], heartbeatResult]));
    endpoint.receive(JSON.stringify([3, sent[0][1], heartbeatResult]));
    const auth = endpoint.call('Authorize', { idTag: 'T' }).catch((e: unknown) => e);
    time.advance(1000);
    await auth;
    endpoint.receive(JSON.stringify([4, sent[1][1], 'InternalError', 'slow', {}]));
    assert.deepEqual(late, [
      ['Heartbeat', true],
      ['Authorize', true],
    ]);
  });

  test("onCallReplied gets the charger's answer payload, or the code of its CALLERROR", async () => {
    const told: unknown[][] = [];
    const { endpoint } = anEndpoint('ocpp1.6', {
      onCall: (action) => {
        if (action === 'Reset') throw new RpcError('NotSupported');
        return { status: 'Accepted' };
      },
      onCallReplied: (action, payload, code) => told.push([action, payload, code]),
    });
    endpoint.receive(JSON.stringify([2, 'a', 'ChangeAvailability', { connectorId: 1, type: 'Inoperative' }]));
    endpoint.receive(JSON.stringify([2, 'b', 'Reset', { type: 'Soft' }]));
    endpoint.receive(JSON.stringify([2, 'c', 'NoSuchAction', {}]));
    await flush();
    assert.deepEqual(told, [
      ['ChangeAvailability', { status: 'Accepted' }, null],
      ['Reset', undefined, 'NotSupported'],
      ['NoSuchAction', undefined, 'NotImplemented'],
    ]);
  });
});
