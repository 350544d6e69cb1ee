// The official OCA JSON schemas of each OCPP version, compiled on demand by an Ajv of the test's
// own (not the product's validator), strict: an unknown field fails as ocpp-rpc's strict mode
// fails it. typed-ocpp's index would compile every schema of all three versions when loaded
// (~3 s of CPU in every test file that imports it); a charger test uses a dozen of them.
import { Ajv, type ValidateFunction } from 'ajv';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import * as ocpp16 from 'typed-ocpp/dist/ocpp16/schemas.js';
import * as ocpp201 from 'typed-ocpp/dist/ocpp20/schemas.js';
import * as ocpp21 from 'typed-ocpp/dist/ocpp21/schemas.js';
import type { OcppVersion } from '../../protocols/ocpp/versions.ts';

const addFormats = formatsModule as unknown as FormatsPlugin;
const SCHEMAS: Record<OcppVersion, Record<string, object>> = {
  'ocpp1.6': ocpp16,
  'ocpp2.0.1': ocpp201,
  'ocpp2.1': ocpp21,
};
const ajv = new Ajv({ strict: false, allErrors: true, multipleOfPrecision: 6 });
addFormats(ajv, ['date-time', 'uri']);
const compiled = new Map<string, ValidateFunction>();

/** Why `payload` breaks the version's `<action>Request` / `<action>Response` schema; null when it does not. */
export function schemaErrors(
  version: OcppVersion,
  action: string,
  kind: 'Request' | 'Response',
  payload: unknown,
): string | null {
  const name = `${action}${kind}`;
  const key = `${version} ${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    const schema = SCHEMAS[version][name];
    if (!schema) return `${version} has no schema ${name}`;
    compiled.set(key, (validate = ajv.compile(schema)));
  }
  return validate(payload) ? null : ajv.errorsText(validate.errors);
}
