// The OCPP-J versions we speak and the facts of each, in one place: add a version here (and its
// charger wire in actors/charger/ocpp-wires.ts, which the compiler then asks for) and the API's
// fields, the scenario schema, the load test and the console accept it.
// test/protocols/version-profiles.test.ts fails when a version lacks a part of its profile.
//
// The official OCA JSON schemas, as plain objects (one `<Action>Request` / `<Action>Response` per
// action). Imported from the data modules only: typed-ocpp's index compiles every schema of every
// version at load with an Ajv that strips unknown fields instead of flagging them.
import * as ocpp16Schemas from 'typed-ocpp/dist/ocpp16/schemas.js';
import * as ocpp201Schemas from 'typed-ocpp/dist/ocpp20/schemas.js';
import * as ocpp21Schemas from 'typed-ocpp/dist/ocpp21/schemas.js';

/**
 * OCPP-J CALLERROR codes, spelled as each version's RPC framework spells them.
 * 1.6 (OCPP-J 1.6 §4.2.3) has `FormationViolation` and the misspelt `OccurenceConstraintViolation`;
 * 2.0.1 and 2.1 renamed them and added `MessageTypeNotSupported` and `RpcFrameworkError`.
 */
export const OCPP16_ERROR_CODES = [
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

export const OCPP20_ERROR_CODES = [
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

/** How a version spells the CALLERROR codes (`errorCodeFor` in error-codes.ts reads it). */
export interface ErrorSpelling {
  /** Every code of the version's RPC framework. */
  readonly codes: readonly string[];
  /** A code of another version's spelling -> this version's code for the same failure. */
  readonly renamed: Readonly<Record<string, string>>;
}

// 1.6 has no message-type or framework error: an unknown message type is a ProtocolError there,
// a broken frame a FormationViolation.
const OCPP16_ERRORS: ErrorSpelling = {
  codes: OCPP16_ERROR_CODES,
  renamed: {
    FormatViolation: 'FormationViolation',
    OccurrenceConstraintViolation: 'OccurenceConstraintViolation',
    MessageTypeNotSupported: 'ProtocolError',
    RpcFrameworkError: 'FormationViolation',
  },
};

const OCPP20_ERRORS: ErrorSpelling = {
  codes: OCPP20_ERROR_CODES,
  renamed: {
    FormationViolation: 'FormatViolation',
    OccurenceConstraintViolation: 'OccurrenceConstraintViolation',
  },
};

/** What differs between OCPP-J versions below the messages themselves. */
export interface VersionProfile {
  /** How people name it: `--ocpp 1.6`, the console's version list. */
  readonly label: string;
  /** The short form in paths and E23's `version_path` (v16, v201, v21). */
  readonly path: string;
  /** The official schema set: `<Action>Request` / `<Action>Response` (schema-validator.ts). */
  readonly schemas: Readonly<Record<string, object>>;
  readonly errors: ErrorSpelling;
  /** Whether SEND (6, an unconfirmed CALL) exists (rpc-frame.ts). */
  readonly send: boolean;
  /** Whether CALLRESULTERROR (5, an error about a CALLRESULT) exists (rpc-frame.ts). */
  readonly callResultError: boolean;
  /**
   * Whether a frame whose message id cannot be read is answered with a CALLERROR of id "-1"
   * (OCPP-J 2.0.1 §4.2.3); 1.6 says nothing, so such a frame is dropped (rpc-endpoint.ts).
   */
  readonly answersUnreadableId: boolean;
}

// The key is the version's name everywhere (API fields, stored rows, the charger's input) and its
// WebSocket subprotocol, as OCPP-J names them. Oldest first: lists in answers and forms keep it.
const PROFILES = {
  'ocpp1.6': {
    label: '1.6',
    path: 'v16',
    schemas: ocpp16Schemas,
    errors: OCPP16_ERRORS,
    send: false,
    callResultError: false,
    answersUnreadableId: false,
  },
  'ocpp2.0.1': {
    label: '2.0.1',
    path: 'v201',
    schemas: ocpp201Schemas,
    errors: OCPP20_ERRORS,
    send: false,
    callResultError: false,
    answersUnreadableId: true,
  },
  'ocpp2.1': {
    label: '2.1',
    path: 'v21',
    schemas: ocpp21Schemas,
    errors: OCPP20_ERRORS,
    send: true,
    callResultError: true,
    answersUnreadableId: true,
  },
} satisfies Record<string, VersionProfile>;

/** The OCPP-J versions we speak; the value is also the WebSocket subprotocol name. */
export type OcppVersion = keyof typeof PROFILES;

export const VERSION_PROFILES: Readonly<Record<OcppVersion, VersionProfile>> = PROFILES;

/** Every version we speak, oldest first: what API fields, the scenario schema and the load test accept. */
export const OCPP_VERSIONS = Object.keys(PROFILES) as [OcppVersion, ...OcppVersion[]];

/** The same list as WebSocket subprotocols (a central system offers these; a charger asks for one). */
export const SUBPROTOCOLS: readonly OcppVersion[] = OCPP_VERSIONS;

export function isOcppVersion(value: string): value is OcppVersion {
  return Object.hasOwn(PROFILES, value);
}

/** A table with one entry per version, made from each version's profile. */
export function perVersion<T>(
  make: (profile: VersionProfile, version: OcppVersion) => T,
): Record<OcppVersion, T> {
  const table = {} as Record<OcppVersion, T>;
  for (const v of OCPP_VERSIONS) table[v] = make(PROFILES[v], v);
  return table;
}
