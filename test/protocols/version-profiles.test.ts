// The profile of each OCPP version (protocols/ocpp/versions.ts) is the one place a version is
// added: these tests fail when a version lacks a part of its profile, a charger wire, or when a
// field that takes a version accepts another list than the one the chargers speak.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  ERROR_CODES,
  OCPP_VERSIONS,
  SUBPROTOCOLS,
  VERSION_PROFILES,
  actionsOf,
  errorCodeFor,
  isOcppVersion,
  parseFrame,
} from '../../protocols/ocpp/index.ts';
import { OCPP_WIRES } from '../../actors/charger/ocpp-wires.ts';
import { createDeploymentBody, createLocationBody } from '../../api/schemas/deployments.ts';
import { createChargePointBody } from '../../api/schemas/cpo-charge-points.ts';
import { scenarioSchema } from '../../engine/scenarios/scenario-schema.ts';
import { parseLoadtestOptions } from '../../tools/loadtest/options.ts';

const sorted = (values: Iterable<string>) => [...values].sort();

test('every version we speak has a complete profile', () => {
  assert.deepEqual(SUBPROTOCOLS, OCPP_VERSIONS);
  assert.deepEqual(sorted(Object.keys(VERSION_PROFILES)), sorted(OCPP_VERSIONS));
  for (const v of OCPP_VERSIONS) {
    const p = VERSION_PROFILES[v];
    assert.ok(isOcppVersion(v), v);
    assert.match(v, /^ocpp\d+(\.\d+)+$/, `${v}: the subprotocol name OCPP-J gives it`);
    assert.equal(p.label, v.slice('ocpp'.length), `${v}: label`);
    assert.match(p.path, /^v\d+$/, `${v}: path`);
    for (const key of ['send', 'callResultError', 'answersUnreadableId'] as const)
      assert.equal(typeof p[key], 'boolean', `${v}: ${key}`);
    assert.ok(p.errors.codes.length > 0, `${v}: error codes`);
  }
  assert.equal(new Set(OCPP_VERSIONS.map((v) => VERSION_PROFILES[v].label)).size, OCPP_VERSIONS.length);
  assert.equal(new Set(OCPP_VERSIONS.map((v) => VERSION_PROFILES[v].path)).size, OCPP_VERSIONS.length);
});

test('every version has a schema set with BootNotification, Heartbeat and StatusNotification', () => {
  for (const v of OCPP_VERSIONS) {
    const schemas = VERSION_PROFILES[v].schemas;
    for (const name of [
      'BootNotificationRequest',
      'BootNotificationResponse',
      'HeartbeatRequest',
      'StatusNotificationRequest',
    ])
      assert.ok(Object.hasOwn(schemas, name), `${v} has no ${name} schema`);
    // Every action has both directions.
    for (const action of actionsOf(v))
      assert.ok(Object.hasOwn(schemas, `${action}Response`), `${v}: ${action} has no Response schema`);
  }
});

test("every version's error spelling is closed: renames land on its own codes, the generic ones exist", () => {
  for (const v of OCPP_VERSIONS) {
    const { codes, renamed } = VERSION_PROFILES[v].errors;
    assert.deepEqual(sorted(ERROR_CODES[v]), sorted(codes), v);
    for (const generic of [
      'GenericError',
      'NotImplemented',
      'NotSupported',
      'InternalError',
      'ProtocolError',
    ])
      assert.ok(codes.includes(generic), `${v} lacks ${generic}`);
    for (const [from, to] of Object.entries(renamed)) {
      assert.ok(codes.includes(to), `${v}: ${from} -> ${to}, which is not a ${v} code`);
      assert.ok(!codes.includes(from), `${v}: ${from} is its own code and needs no rename`);
    }
    // What the framing layer answers a bad frame with exists in every spelling.
    for (const problem of ['FormatViolation', 'MessageTypeNotSupported', 'RpcFrameworkError'])
      assert.ok(codes.includes(errorCodeFor(v, problem)), `${v}: ${problem}`);
  }
});

test('SEND and CALLRESULTERROR frames are read exactly where the profile says they exist', () => {
  for (const v of OCPP_VERSIONS) {
    const p = VERSION_PROFILES[v];
    assert.equal(parseFrame('[6,"1","NotifyEvent",{}]', v).type, p.send ? 6 : 0, `${v}: SEND`);
    assert.equal(
      parseFrame('[5,"1","GenericError","",{}]', v).type,
      p.callResultError ? 5 : 0,
      `${v}: CALLRESULTERROR`,
    );
  }
});

test('every version has a charger wire, and every charger wire a profile', () => {
  assert.deepEqual(sorted(Object.keys(OCPP_WIRES)), sorted(OCPP_VERSIONS));
  for (const v of OCPP_VERSIONS) assert.ok(OCPP_WIRES[v], `no charger wire for ${v}`);
});

/** The values a field accepts, out of every version and a few that are none. */
function accepted(parse: (version: string) => boolean): string[] {
  const candidates = new Set([...OCPP_VERSIONS, 'ocpp1.5', 'ocpp2.0', 'ocpp2.2', 'ocpp3', '1.6', '']);
  return [...candidates].filter(parse);
}

test('every API field, the scenario schema and the load test accept exactly the versions we speak', () => {
  const deployment = (v: string) =>
    createDeploymentBody.safeParse({ identity: 'CP-1', model: 'm', ocpp_version: v }).success;
  const upperDeployment = (v: string) => v !== '' && deployment(v.toUpperCase());
  const location = (v: string) =>
    createLocationBody.safeParse({
      name: 'L',
      ocpp_version: v,
      chargers: [{ identity: 'CP-1', model: 'm', ocpp_version: v }],
    }).success;
  const group = (v: string) =>
    createLocationBody.safeParse({
      name: 'L',
      charger_groups: [{ count: 1, identity_prefix: 'CP-', model: 'm', ocpp_version: v }],
    }).success;
  const chargePoint = (v: string) =>
    createChargePointBody.safeParse({ charge_point_id: 'CP-1', ocpp_version: v }).success;
  const scenario = (v: string) =>
    scenarioSchema.safeParse({
      name: 's',
      chargers: [{ id: 'a', ocpp_version: v }],
      steps: [{ send: { action: 'Heartbeat', payload: {} } }],
    }).success;
  const loadtest = (v: string) => {
    try {
      return parseLoadtestOptions(['--ocpp', v]).ocpp === v;
    } catch {
      return false;
    }
  };
  for (const [name, parse] of Object.entries({
    'E5 ocpp_version': deployment,
    'E5 ocpp_version (upper case)': upperDeployment,
    'E7 ocpp_version': location,
    'E7 charger_groups[].ocpp_version': group,
    'E22 ocpp_version': chargePoint,
    'scenario chargers[].ocpp_version': scenario,
    'loadtest --ocpp': loadtest,
  }))
    assert.deepEqual(accepted(parse), OCPP_VERSIONS, name);
  // The load test also takes each version by its label.
  for (const v of OCPP_VERSIONS)
    assert.equal(parseLoadtestOptions(['--ocpp', VERSION_PROFILES[v].label]).ocpp, v);
});

test('the published scenario JSON Schema lists the versions we speak', () => {
  const text = readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8');
  const enums = [...text.matchAll(/"ocpp_version":\s*\{[^}]*"enum":\s*(\[[^\]]*\])/g)].map((m) =>
    JSON.parse(m[1]),
  );
  assert.ok(enums.length > 0, 'no ocpp_version enum in scenarios/scenario.schema.json');
  for (const e of enums) assert.deepEqual(e, OCPP_VERSIONS);
});
