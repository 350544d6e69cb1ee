import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERROR_CODES, errorCodeFor } from '../../protocols/ocpp/index.ts';

describe('OCPP-J error codes per version', () => {
  test('1.6 spells FormationViolation and OccurenceConstraintViolation (sic)', () => {
    assert.equal(errorCodeFor('ocpp1.6', 'FormatViolation'), 'FormationViolation');
    assert.equal(errorCodeFor('ocpp1.6', 'FormationViolation'), 'FormationViolation');
    assert.equal(errorCodeFor('ocpp1.6', 'OccurrenceConstraintViolation'), 'OccurenceConstraintViolation');
    assert.equal(errorCodeFor('ocpp1.6', 'OccurenceConstraintViolation'), 'OccurenceConstraintViolation');
  });

  test('2.0.1 and 2.1 spell FormatViolation and OccurrenceConstraintViolation', () => {
    for (const version of ['ocpp2.0.1', 'ocpp2.1'] as const) {
      assert.equal(errorCodeFor(version, 'FormationViolation'), 'FormatViolation');
      assert.equal(errorCodeFor(version, 'OccurenceConstraintViolation'), 'OccurrenceConstraintViolation');
      assert.equal(errorCodeFor(version, 'MessageTypeNotSupported'), 'MessageTypeNotSupported');
      assert.equal(errorCodeFor(version, 'RpcFrameworkError'), 'RpcFrameworkError');
    }
  });

  test('1.6 has no MessageTypeNotSupported: it answers ProtocolError', () => {
    assert.equal(errorCodeFor('ocpp1.6', 'MessageTypeNotSupported'), 'ProtocolError');
  });

  test('codes common to all versions pass through; unknown codes become GenericError', () => {
    for (const version of ['ocpp1.6', 'ocpp2.0.1', 'ocpp2.1'] as const) {
      for (const code of [
        'NotImplemented',
        'NotSupported',
        'InternalError',
        'SecurityError',
        'GenericError',
      ]) {
        assert.equal(errorCodeFor(version, code), code);
      }
      assert.equal(errorCodeFor(version, 'BananaError'), 'GenericError');
    }
  });

  test('the 1.6 and 2.0.1 lists are the ones of the OCPP-J specifications', () => {
    assert.equal(ERROR_CODES['ocpp1.6'].size, 10);
    assert.equal(ERROR_CODES['ocpp2.0.1'].size, 12);
    assert.ok(!ERROR_CODES['ocpp1.6'].has('FormatViolation'));
    assert.ok(!ERROR_CODES['ocpp2.0.1'].has('FormationViolation'));
  });
});
