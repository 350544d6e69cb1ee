import type { OcppVersion } from './versions.ts';

/**
 * OCPP-J CALLERROR codes, spelled as each version's RPC framework spells them.
 * 1.6 (OCPP-J 1.6 §4.2.3) has `FormationViolation` and the misspelt `OccurenceConstraintViolation`;
 * 2.0.1 and 2.1 renamed them and added `MessageTypeNotSupported` and `RpcFrameworkError`.
 */
const OCPP16_CODES = [
  'NotImplemented',
  'NotSupported',
  'InternalError',
  'ProtocolError',
  'SecurityError',
  'FormationViolation',
  'PropertyConstraintViolation',
  'OccurenceConstraintViolation',
  'TypeConstraintViolation',
  'GenericError',
] as const;

const OCPP20_CODES = [
  'FormatViolation',
  'GenericError',
  'InternalError',
  'MessageTypeNotSupported',
  'NotImplemented',
  'NotSupported',
  'OccurrenceConstraintViolation',
  'PropertyConstraintViolation',
  'ProtocolError',
  'RpcFrameworkError',
  'SecurityError',
  'TypeConstraintViolation',
] as const;

export type Ocpp16ErrorCode = (typeof OCPP16_CODES)[number];
export type Ocpp20ErrorCode = (typeof OCPP20_CODES)[number];
/** Any code of any version; `errorCodeFor` turns it into the spelling of one version. */
export type RpcErrorCode = Ocpp16ErrorCode | Ocpp20ErrorCode;

export const ERROR_CODES: Readonly<Record<OcppVersion, ReadonlySet<string>>> = {
  'ocpp1.6': new Set(OCPP16_CODES),
  'ocpp2.0.1': new Set(OCPP20_CODES),
  'ocpp2.1': new Set(OCPP20_CODES),
};

// Codes that exist under another name in the other family. 1.6 has no message-type or
// framework error: an unknown message type is a ProtocolError there, a broken frame a FormationViolation.
const TO_OCPP16: Readonly<Record<string, Ocpp16ErrorCode>> = {
  FormatViolation: 'FormationViolation',
  OccurrenceConstraintViolation: 'OccurenceConstraintViolation',
  MessageTypeNotSupported: 'ProtocolError',
  RpcFrameworkError: 'FormationViolation',
};
const TO_OCPP20: Readonly<Record<string, Ocpp20ErrorCode>> = {
  FormationViolation: 'FormatViolation',
  OccurenceConstraintViolation: 'OccurrenceConstraintViolation',
};

/**
 * The code `version` uses for `code` (either family's spelling accepted);
 * `GenericError` for a code the version does not know.
 */
export function errorCodeFor(version: OcppVersion, code: string): string {
  if (ERROR_CODES[version].has(code)) return code;
  const renamed = version === 'ocpp1.6' ? TO_OCPP16[code] : TO_OCPP20[code];
  return renamed ?? 'GenericError';
}
