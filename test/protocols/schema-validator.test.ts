import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actionsOf, hasAction, validateCall, validateResult } from '../../protocols/ocpp/index.ts';

const aBootNotification16 = (overrides: Record<string, unknown> = {}) => ({
  chargePointVendor: 'Evsim',
  chargePointModel: 'Virtual-1',
  ...overrides,
});

const aBootNotification201 = (overrides: Record<string, unknown> = {}) => ({
  reason: 'PowerUp',
  chargingStation: { vendorName: 'Evsim', model: 'Virtual-1' },
  ...overrides,
});

const codeOf = (error: { code: string } | null) => error?.code ?? null;

describe('schema validation, OCPP 1.6', () => {
  test('a valid BootNotification passes', () => {
    assert.equal(validateCall('ocpp1.6', 'BootNotification', aBootNotification16()), null);
  });

  test('missing required field -> OccurenceConstraintViolation', () => {
    const error = validateCall('ocpp1.6', 'BootNotification', { chargePointVendor: 'Evsim' });
    assert.equal(codeOf(error), 'OccurenceConstraintViolation');
  });

  test('wrong type -> TypeConstraintViolation', () => {
    const error = validateCall('ocpp1.6', 'BootNotification', aBootNotification16({ chargePointModel: 42 }));
    assert.equal(codeOf(error), 'TypeConstraintViolation');
    assert.equal(error?.details.path, '/chargePointModel');
  });

  test('too long, not in the enum, or not a date-time -> PropertyConstraintViolation', () => {
    const tooLong = validateCall(
      'ocpp1.6',
      'BootNotification',
      aBootNotification16({ chargePointVendor: 'x'.repeat(21) }),
    );
    assert.equal(codeOf(tooLong), 'PropertyConstraintViolation');
    const badEnum = validateCall('ocpp1.6', 'StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: 'Sleeping',
    });
    assert.equal(codeOf(badEnum), 'PropertyConstraintViolation');
    const badDate = validateResult('ocpp1.6', 'Heartbeat', { currentTime: 'yesterday' });
    assert.equal(codeOf(badDate), 'PropertyConstraintViolation');
  });

  test('an unknown field -> FormationViolation (not the PDU structure)', () => {
    const error = validateCall('ocpp1.6', 'Heartbeat', { hello: 1 });
    assert.equal(codeOf(error), 'FormationViolation');
  });

  test('responses are checked against the Response schema', () => {
    assert.equal(validateResult('ocpp1.6', 'Heartbeat', { currentTime: '2025-01-01T00:00:00Z' }), null);
    assert.equal(
      codeOf(validateResult('ocpp1.6', 'BootNotification', { status: 'Accepted' })),
      'OccurenceConstraintViolation',
    );
  });

  test('an action 1.6 does not have -> NotImplemented', () => {
    assert.equal(codeOf(validateCall('ocpp1.6', 'TransactionEvent', {})), 'NotImplemented');
    assert.equal(hasAction('ocpp1.6', 'TransactionEvent'), false);
    assert.equal(hasAction('ocpp1.6', 'StartTransaction'), true);
  });

  test('the 1.6 schema set includes the security whitepaper actions', () => {
    const actions = actionsOf('ocpp1.6');
    assert.ok(actions.includes('SignCertificate'));
    assert.ok(actions.includes('GetConfiguration'));
  });
});

describe('schema validation, OCPP 2.0.1', () => {
  test('a valid BootNotification passes', () => {
    assert.equal(validateCall('ocpp2.0.1', 'BootNotification', aBootNotification201()), null);
  });

  test('missing required field -> OccurrenceConstraintViolation', () => {
    const error = validateCall('ocpp2.0.1', 'BootNotification', {
      chargingStation: { vendorName: 'Evsim', model: 'm' },
    });
    assert.equal(codeOf(error), 'OccurrenceConstraintViolation');
  });

  test('wrong type -> TypeConstraintViolation', () => {
    const error = validateCall('ocpp2.0.1', 'Heartbeat', { customData: 'x' });
    assert.equal(codeOf(error), 'TypeConstraintViolation');
  });

  test('enum value or maxLength broken -> PropertyConstraintViolation', () => {
    assert.equal(
      codeOf(validateCall('ocpp2.0.1', 'BootNotification', aBootNotification201({ reason: 'Bored' }))),
      'PropertyConstraintViolation',
    );
    const longModel = aBootNotification201({
      chargingStation: { vendorName: 'Evsim', model: 'm'.repeat(21) },
    });
    assert.equal(
      codeOf(validateCall('ocpp2.0.1', 'BootNotification', longModel)),
      'PropertyConstraintViolation',
    );
  });

  test('an unknown field -> FormatViolation', () => {
    assert.equal(
      codeOf(validateCall('ocpp2.0.1', 'BootNotification', aBootNotification201({ extra: true }))),
      'FormatViolation',
    );
  });

  test('the 2.0.1 set has TransactionEvent and no StartTransaction', () => {
    assert.equal(hasAction('ocpp2.0.1', 'TransactionEvent'), true);
    assert.equal(codeOf(validateCall('ocpp2.0.1', 'StartTransaction', {})), 'NotImplemented');
  });

  test('a GetVariables result is checked', () => {
    const ok = {
      getVariableResult: [
        {
          attributeStatus: 'Accepted',
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'HeartbeatInterval' },
          attributeValue: '300',
        },
      ],
    };
    assert.equal(validateResult('ocpp2.0.1', 'GetVariables', ok), null);
    assert.equal(
      codeOf(validateResult('ocpp2.0.1', 'GetVariables', { getVariableResult: [] })),
      'OccurrenceConstraintViolation',
    );
  });
});

describe('schema validation, OCPP 2.1', () => {
  test('a valid BootNotification passes and a bad one is refused', () => {
    assert.equal(validateCall('ocpp2.1', 'BootNotification', aBootNotification201()), null);
    assert.equal(codeOf(validateCall('ocpp2.1', 'BootNotification', {})), 'OccurrenceConstraintViolation');
  });
});
