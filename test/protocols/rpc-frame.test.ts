import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFrame, serializeCall, serializeError, serializeResult } from '../../protocols/ocpp/index.ts';

describe('OCPP-J framing', () => {
  test('serializes CALL, CALLRESULT and CALLERROR as the OCPP-J arrays', () => {
    assert.equal(serializeCall('a1', 'Heartbeat', {}), '[2,"a1","Heartbeat",{}]');
    assert.equal(serializeResult('a1', { currentTime: 'x' }), '[3,"a1",{"currentTime":"x"}]');
    assert.equal(serializeError('a1', 'NotSupported', 'nope'), '[4,"a1","NotSupported","nope",{}]');
  });

  test('CALLERROR description is cut to the 255 characters OCPP-J allows', () => {
    const [, , , description] = JSON.parse(serializeError('a1', 'GenericError', 'x'.repeat(300)));
    assert.equal(description.length, 255);
  });

  test('parses the three message types', () => {
    assert.deepEqual(parseFrame('[2,"1","Heartbeat",{}]', 'ocpp1.6'), {
      type: 2,
      id: '1',
      action: 'Heartbeat',
      payload: {},
    });
    assert.deepEqual(parseFrame('[3,"1",{"a":1}]', 'ocpp1.6'), { type: 3, id: '1', payload: { a: 1 } });
    assert.deepEqual(parseFrame('[4,"1","NotSupported","no",{"k":2}]', 'ocpp2.0.1'), {
      type: 4,
      id: '1',
      code: 'NotSupported',
      description: 'no',
      details: { k: 2 },
    });
  });

  test('a CALLERROR without description or details is still read (field leniency)', () => {
    assert.deepEqual(parseFrame('[4,"1","GenericError"]', 'ocpp1.6'), {
      type: 4,
      id: '1',
      code: 'GenericError',
      description: '',
      details: {},
    });
  });

  test('not JSON, not an array or no readable id: RpcFrameworkError without id', () => {
    for (const text of ['{nope', '{"a":1}', '[2]', '[2,17,"Heartbeat",{}]']) {
      const frame = parseFrame(text, 'ocpp2.0.1');
      assert.equal(frame.type, 0, text);
      assert.equal(frame.type === 0 && frame.problem, 'RpcFrameworkError', text);
      assert.equal(frame.type === 0 && frame.id, null, text);
    }
  });

  test('a malformed CALL or CALLRESULT with a readable id is a FormatViolation for that id', () => {
    for (const text of [
      '[2,"9","Heartbeat"]',
      '[2,"9",5,{}]',
      '[2,"9","Heartbeat",[]]',
      '[2,"9","Heartbeat",null]',
      '[2,"9","Heartbeat",{},{}]',
      '[3,"9"]',
      '[3,"9","ok"]',
      '[4,"9",12,"x",{}]',
    ]) {
      assert.deepEqual(
        { ...parseFrame(text, 'ocpp1.6'), message: '' },
        { type: 0, id: '9', problem: 'FormatViolation', message: '' },
        text,
      );
    }
  });

  test('an unknown message type is MessageTypeNotSupported; SEND (6) exists only in OCPP 2.1', () => {
    const unknown = parseFrame('[7,"5","Heartbeat",{}]', 'ocpp2.0.1');
    assert.equal(unknown.type === 0 && unknown.problem, 'MessageTypeNotSupported');
    assert.equal(unknown.type === 0 && unknown.id, '5');
    const send201 = parseFrame('[6,"5","NotifyPeriodicEventStream",{}]', 'ocpp2.0.1');
    assert.equal(send201.type === 0 && send201.problem, 'MessageTypeNotSupported');
    assert.equal(parseFrame('[6,"5","NotifyPeriodicEventStream",{}]', 'ocpp2.1').type, 6);
  });
});
