import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { errorCodeFor } from './error-codes.ts';
import { RpcError } from './rpc-error.ts';
import { VERSION_PROFILES, perVersion, type OcppVersion } from './versions.ts';

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, the plugin itself.
const addFormats = formatsModule as unknown as FormatsPlugin;

// One Ajv for all versions (the schemas carry no $id, so they cannot collide). First error only:
// it picks the CALLERROR code, and stopping early is cheaper.
const ajv = new Ajv({ strict: false, allErrors: false, multipleOfPrecision: 6 });
addFormats(ajv, ['date-time', 'uri']);

/** Compiled on first use of each (version, schema): compiling a whole version up front costs ~1 s. */
const compiled = perVersion(() => new Map<string, ValidateFunction>());

function validatorFor(version: OcppVersion, name: string): ValidateFunction | undefined {
  let validate = compiled[version].get(name);
  if (validate) return validate;
  const schemas = VERSION_PROFILES[version].schemas;
  if (!Object.hasOwn(schemas, name)) return undefined;
  validate = ajv.compile(schemas[name]);
  compiled[version].set(name, validate);
  return validate;
}

/** Whether `action` exists in the version's schema set (in either direction). */
export function hasAction(version: OcppVersion, action: string): boolean {
  return Object.hasOwn(VERSION_PROFILES[version].schemas, `${action}Request`);
}

/** Every action of a version, from its schema set. */
export function actionsOf(version: OcppVersion): string[] {
  return Object.keys(VERSION_PROFILES[version].schemas)
    .filter((name) => name.endsWith('Request'))
    .map((name) => name.slice(0, -'Request'.length));
}

// JSON-schema keyword of the first failure -> the OCPP-J error it means (generic spelling).
const CODE_BY_KEYWORD: Readonly<Record<string, string>> = {
  type: 'TypeConstraintViolation',
  required: 'OccurrenceConstraintViolation',
  minItems: 'OccurrenceConstraintViolation',
  maxItems: 'OccurrenceConstraintViolation',
  enum: 'PropertyConstraintViolation',
  const: 'PropertyConstraintViolation',
  maxLength: 'PropertyConstraintViolation',
  minLength: 'PropertyConstraintViolation',
  format: 'PropertyConstraintViolation',
  pattern: 'PropertyConstraintViolation',
  maximum: 'PropertyConstraintViolation',
  minimum: 'PropertyConstraintViolation',
  exclusiveMaximum: 'PropertyConstraintViolation',
  exclusiveMinimum: 'PropertyConstraintViolation',
  multipleOf: 'PropertyConstraintViolation',
  // additionalProperties and anything else: the payload does not have the PDU's structure.
};

function toRpcError(version: OcppVersion, name: string, error: ErrorObject): RpcError {
  const code = errorCodeFor(version, CODE_BY_KEYWORD[error.keyword] ?? 'FormatViolation');
  const where = error.instancePath || '(payload)';
  const extra =
    error.keyword === 'additionalProperties' ? ` '${String(error.params.additionalProperty)}'` : '';
  return new RpcError(code, `${name} ${where} ${error.message ?? 'is invalid'}${extra}`, {
    schema: name,
    path: error.instancePath,
    keyword: error.keyword,
  });
}

function check(version: OcppVersion, action: string, suffix: string, payload: unknown): RpcError | null {
  const name = action + suffix;
  const validate = validatorFor(version, name);
  if (!validate) return new RpcError('NotImplemented', `${action} is not an action of ${version}`);
  if (validate(payload)) return null;
  return toRpcError(version, name, validate.errors![0]);
}

/** Checks a CALL payload against the official schema: null when valid, else the CALLERROR to answer. */
export function validateCall(version: OcppVersion, action: string, payload: unknown): RpcError | null {
  return check(version, action, 'Request', payload);
}

/** Checks a CALLRESULT payload for `action`: null when valid, else the error it amounts to. */
export function validateResult(version: OcppVersion, action: string, payload: unknown): RpcError | null {
  return check(version, action, 'Response', payload);
}

/** Where a payload breaks its schema, for callers that report it as data (the API's 422 `loc`). */
export interface PayloadIssue {
  /** Path into the payload: property names and list indexes, ending at a missing property's name. */
  path: Array<string | number>;
  message: string;
  /** The JSON-schema keyword that failed (required, type, enum, additionalProperties, ...). */
  keyword: string;
}

/** The first way `payload` breaks `action`'s CALL schema in `version`; null when valid or the action is unknown. */
export function callPayloadIssue(
  version: OcppVersion,
  action: string,
  payload: unknown,
): PayloadIssue | null {
  const validate = validatorFor(version, `${action}Request`);
  if (!validate || validate(payload)) return null;
  const error = validate.errors![0];
  const path: Array<string | number> = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
  return { path, message: error.message ?? 'is invalid', keyword: error.keyword };
}
