// Every validation error of E5-E10 and GET /evcharger/deployments: 422 with the list shape, the
// failing field in `loc`, and allowed values named where there is a list; and which OCPP versions
// E5 and E7 accept (every one the chargers speak, if the model lists it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import {
  DUAL_MODEL,
  OCPP16_ONLY_MODEL,
  deploymentsOf,
  eventually,
  locationBody,
  type As,
} from './deployment-helpers.ts';
import { OCPP_VERSIONS } from '../../protocols/ocpp/versions.ts';

let svc: TestService;
let as: As;

before(async () => {
  svc = await startTestService();
  as = svc.as('org-valid');
});

after(() => svc.close());

interface Issue {
  loc: Array<string | number>;
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** The request answers 422 with an entry at `loc` of `type`; returns that entry. */
async function rejects(
  method: string,
  path: string,
  body: unknown,
  loc: Array<string | number>,
  type: string,
): Promise<Issue> {
  const res = await as<{ detail: Issue[] }>(method, path, body === undefined ? {} : { body });
  assert.equal(res.status, 422, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`);
  const entry = res.body.detail.find((d) => JSON.stringify(d.loc) === JSON.stringify(loc));
  assert.ok(entry, `no entry at ${JSON.stringify(loc)} in ${res.text}`);
  assert.equal(entry.type, type, res.text);
  return entry;
}

const WS = 'ws://127.0.0.1:1';
const deploy = (over: Record<string, unknown>) => ({
  identity: 'V-1',
  model: DUAL_MODEL,
  ws_url: WS,
  ...over,
});

test('E5 rejects missing identity and model', async () => {
  await rejects('POST', '/evcharger/deployment', { ws_url: WS }, ['body', 'identity'], 'missing');
  await rejects('POST', '/evcharger/deployment', { identity: 'V-1' }, ['body', 'model'], 'missing');
});

test('E5 rejects an identity that is too long or holds other characters', async () => {
  await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ identity: 'x'.repeat(49) }),
    ['body', 'identity'],
    'string_too_long',
  );
  await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ identity: '' }),
    ['body', 'identity'],
    'string_too_short',
  );
  await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ identity: 'a b/c' }),
    ['body', 'identity'],
    'string_pattern_mismatch',
  );
});

test('E5 rejects a version the chargers do not speak and lists the accepted values', async () => {
  for (const unknown of ['ocpp2.2', 'ocpp1.5', '2.0.1']) {
    const e = await rejects(
      'POST',
      '/evcharger/deployment',
      deploy({ ocpp_version: unknown }),
      ['body', 'ocpp_version'],
      'enum',
    );
    for (const v of OCPP_VERSIONS.flatMap((v) => [v.toUpperCase(), v]))
      assert.ok(e.msg.includes(`'${v}'`), `${v} missing from: ${e.msg}`);
  }
});

test('E5 rejects a model that is not a catalog slug, and one that does not speak the version', async () => {
  const unknown = await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ model: 'no-such-model' }),
    ['body', 'model'],
    'value_error',
  );
  assert.equal(unknown.input, 'no-such-model');
  const unsupported = await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ model: OCPP16_ONLY_MODEL, ocpp_version: 'OCPP2.0.1' }),
    ['body', 'model'],
    'value_error',
  );
  assert.match(unsupported.msg, /ocpp2\.0\.1/);
  // A version the chargers speak but the model does not list: the model check, as for 2.0.1 above.
  const unlisted = await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ model: OCPP16_ONLY_MODEL, ocpp_version: 'ocpp2.1' }),
    ['body', 'model'],
    'value_error',
  );
  assert.match(unlisted.msg, /does not speak ocpp2\.1 \(it supports ocpp1\.6\)/);
});

test('E5 rejects a ws_url that is not a ws:// or wss:// URL', async () => {
  await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ ws_url: 'http://csms.example/ocpp' }),
    ['body', 'ws_url'],
    'url_scheme',
  );
  await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ ws_url: 'not a url' }),
    ['body', 'ws_url'],
    'url_parsing',
  );
});

test('E5 rejects unknown fields, a body that is not an object, and malformed JSON', async () => {
  await rejects(
    'POST',
    '/evcharger/deployment',
    deploy({ colour: 'red' }),
    ['body', 'colour'],
    'extra_forbidden',
  );
  await rejects('POST', '/evcharger/deployment', [1], ['body'], 'model_attributes_type');
  const res = await as('POST', '/evcharger/deployment', { raw: '{"identity":' });
  assert.equal(res.status, 422);
  assert.equal(res.body.detail[0].type, 'json_invalid');
});

test('E6 requires a non-empty deployment_id; an unknown one is 404', async () => {
  await rejects('DELETE', '/evcharger/deployment', undefined, ['query', 'deployment_id'], 'missing');
  await rejects(
    'DELETE',
    '/evcharger/deployment?deployment_id=',
    undefined,
    ['query', 'deployment_id'],
    'string_too_short',
  );
  for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
    const res = await as('DELETE', `/evcharger/deployment?deployment_id=${id}`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { detail: `Deployment '${id}' not found` });
  }
});

test('E7 rejects missing name and chargers', async () => {
  await rejects('POST', '/evcharger/location', { chargers: [] }, ['body', 'name'], 'missing');
  await rejects('POST', '/evcharger/location', { name: 'x' }, ['body', 'chargers'], 'missing');
});

test('E7 rejects a country, coordinates, timezone or ocpi_version out of their forms', async () => {
  const base = locationBody('V7', 1, WS);
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, country: 'NL' },
    ['body', 'country'],
    'string_pattern_mismatch',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, coordinates: { lat: 91, lng: 0 } },
    ['body', 'coordinates', 'lat'],
    'less_than_equal',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, coordinates: { lat: 1 } },
    ['body', 'coordinates', 'lng'],
    'missing',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, timezone: 'Mars/Olympus' },
    ['body', 'timezone'],
    'value_error',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, ocpi_version: '9.9' },
    ['body', 'ocpi_version'],
    'enum',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, ocpp_version: 'ocpp9' },
    ['body', 'ocpp_version'],
    'enum',
  );
});

test('E7 rejects a charger that does not match the schema (a bad ws_url, a repeated identity) and creates nothing', async () => {
  const base = locationBody('V7', 3, WS);
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, chargers: [{ ...base.chargers[0], ws_url: 'https://x' }] },
    ['body', 'chargers', 0, 'ws_url'],
    'url_scheme',
  );
  const repeated = await rejects(
    'POST',
    '/evcharger/location',
    { ...base, chargers: [base.chargers[0], base.chargers[0]] },
    ['body', 'chargers', 1, 'identity'],
    'value_error',
  );
  assert.match(repeated.msg, /appears more than once/);
  await rejects(
    'POST',
    '/evcharger/location',
    { ...base, chargers: [{ ...base.chargers[0], model: '' }] },
    ['body', 'chargers', 0, 'model'],
    'string_too_short',
  );
  // Nothing was created by the rejected requests.
  const list = await as('GET', '/evcharger/deployments');
  assert.deepEqual(list.body.items, []);
});

test('E7 rejects a charger group out of its forms: count, identity_prefix, unknown fields, more than 1000 chargers', async () => {
  const { chargers: _c, ...base } = locationBody('V7G', 0, WS);
  const group = { count: 2, identity_prefix: 'G-', model: DUAL_MODEL, ws_url: WS };
  const post = (groups: unknown[]) => ({ ...base, charger_groups: groups });
  await rejects(
    'POST',
    '/evcharger/location',
    post([{ ...group, count: 0 }]),
    ['body', 'charger_groups', 0, 'count'],
    'greater_than_equal',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    post([{ ...group, count: 1.5 }]),
    ['body', 'charger_groups', 0, 'count'],
    'int_type',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    post([{ ...group, identity_prefix: 'a b' }]),
    ['body', 'charger_groups', 0, 'identity_prefix'],
    'string_pattern_mismatch',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    post([{ ...group, identity_prefix: 'x'.repeat(41) }]),
    ['body', 'charger_groups', 0, 'identity_prefix'],
    'string_too_long',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    post([{ count: 2, model: DUAL_MODEL }]),
    ['body', 'charger_groups', 0, 'identity_prefix'],
    'missing',
  );
  await rejects(
    'POST',
    '/evcharger/location',
    post([{ ...group, identity: 'G-1' }]),
    ['body', 'charger_groups', 0, 'identity'],
    'extra_forbidden',
  );
  const tooMany = await rejects(
    'POST',
    '/evcharger/location',
    { ...post([{ ...group, count: 999 }]), chargers: locationBody('V7T', 2, WS).chargers },
    ['body', 'charger_groups'],
    'too_long',
  );
  assert.match(tooMany.msg, /at most 1000 chargers; this one asks for 1001/);
  const list = await as('GET', '/evcharger/deployments');
  assert.deepEqual(list.body.items, []);
});

test('E8 requires a non-empty location_id; an unknown one is 404', async () => {
  await rejects('DELETE', '/evcharger/location', undefined, ['query', 'location_id'], 'missing');
  await rejects(
    'DELETE',
    '/evcharger/location?location_id=',
    undefined,
    ['query', 'location_id'],
    'string_too_short',
  );
  const res = await as('DELETE', '/evcharger/location?location_id=nope');
  assert.equal(res.status, 404);
});

test('E9 rejects an unknown action and lists the allowed values', async () => {
  const e = await rejects(
    'POST',
    '/evcharger/deployment-runtime-ops',
    { action: 'explode', deployment_id: 'x' },
    ['body', 'action'],
    'enum',
  );
  assert.equal(e.msg, "Input should be 'stop', 'start', 'restart' or 'delete'");
  await rejects(
    'POST',
    '/evcharger/deployment-runtime-ops',
    { deployment_id: 'x' },
    ['body', 'action'],
    'missing',
  );
});

test('E9 needs exactly one target: neither or both is a 422 saying so', async () => {
  for (const body of [{ action: 'stop' }, { action: 'stop', deployment_id: 'a', location_id: 'b' }]) {
    const e = await rejects('POST', '/evcharger/deployment-runtime-ops', body, ['body'], 'value_error');
    assert.equal(e.msg, 'Give exactly one target: deployment_id or location_id');
  }
  await rejects(
    'POST',
    '/evcharger/deployment-runtime-ops',
    { action: 'stop', deployment_id: '' },
    ['body', 'deployment_id'],
    'string_too_short',
  );
  const missing = await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', location_id: 'nope' },
  });
  assert.equal(missing.status, 404);
});

test('E10 rejects a bad outcome, limit or since', async () => {
  const path = '/evcharger/deployment-runtime-ops/events';
  const e = await rejects('GET', `${path}?outcome=bad`, undefined, ['query', 'outcome'], 'enum');
  assert.match(e.msg, /'alerts'/);
  await rejects('GET', `${path}?limit=0`, undefined, ['query', 'limit'], 'greater_than_equal');
  const max = await rejects('GET', `${path}?limit=501`, undefined, ['query', 'limit'], 'less_than_equal');
  assert.deepEqual(max.ctx, { le: 500 });
  await rejects('GET', `${path}?limit=many`, undefined, ['query', 'limit'], 'int_parsing');
  await rejects('GET', `${path}?since=yesterday`, undefined, ['query', 'since'], 'datetime_parsing');
  const ok = await as('GET', `${path}?limit=500&outcome=alerts&since=2020-01-01T00:00:00Z`);
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, { events: [] });
});

test('GET /evcharger/deployments rejects a bad limit or offset; an unknown location is 404', async () => {
  await rejects('GET', '/evcharger/deployments?limit=501', undefined, ['query', 'limit'], 'less_than_equal');
  await rejects(
    'GET',
    '/evcharger/deployments?offset=-1',
    undefined,
    ['query', 'offset'],
    'greater_than_equal',
  );
  const res = await as('GET', '/evcharger/deployments?location_id=00000000-0000-4000-8000-000000000000');
  assert.equal(res.status, 404);
});

/** A catalog model listing every version the chargers speak (no model of the catalog lists 2.1). */
const EVERY_VERSION_MODEL = 'test-every-ocpp-version';

async function addModelSpeakingEveryVersion(): Promise<void> {
  await svc.service.platform.db.query(
    `INSERT INTO catalog_models (slug, brand_id, name, connector_count, current_type, supported_kwh,
        connector_types, max_power_kw, ocpp_versions, boot_vendor, boot_model, firmware_version)
     SELECT $1, id, 'Every OCPP version', 1, 'AC', ARRAY[22]::double precision[], ARRAY['Type2'], 22,
        $2::text[], 'EVSim', 'EveryVersion', '1.0.0'
     FROM catalog_brands WHERE slug = 'abb'
     ON CONFLICT (slug) DO NOTHING`,
    [EVERY_VERSION_MODEL, OCPP_VERSIONS],
  );
}

test('E5 deploys every version the chargers speak on a model that lists it, in either spelling', async () => {
  await addModelSpeakingEveryVersion();
  const asV = svc.as('org-versions');
  for (const v of OCPP_VERSIONS)
    for (const spelling of [v, v.toUpperCase()]) {
      const identity = `VER-${spelling}`.replace(/[^A-Za-z0-9-]/g, '-');
      const res = await asV('POST', '/evcharger/deployment', {
        body: { identity, model: EVERY_VERSION_MODEL, ws_url: WS, ocpp_version: spelling },
      });
      assert.equal(res.status, 201, `${spelling}: ${res.text}`);
      assert.equal(res.body.ocpp_version, v);
    }
  // Without ocpp_version: the model's first version, as before.
  const res = await asV('POST', '/evcharger/deployment', {
    body: { identity: 'VER-DEFAULT', model: EVERY_VERSION_MODEL, ws_url: WS },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.ocpp_version, OCPP_VERSIONS[0]);
});

test('E7 deploys every version the model lists and records the others as OCPP_VERSION_UNSUPPORTED', async () => {
  await addModelSpeakingEveryVersion();
  const asV = svc.as('org-versions-7');
  const res = await asV<{ location_id: string; failed: Array<{ identity: string; code: string }> }>(
    'POST',
    '/evcharger/location',
    {
      body: {
        name: 'Every version',
        chargers: [
          ...OCPP_VERSIONS.map((v, i) => ({
            identity: `L-VER-${i + 1}`,
            model: EVERY_VERSION_MODEL,
            ws_url: WS,
            ocpp_version: v,
          })),
          { identity: 'L-VER-16-21', model: OCPP16_ONLY_MODEL, ws_url: WS, ocpp_version: 'ocpp2.1' },
        ],
      },
    },
  );
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(
    res.body.failed.map((f) => [f.identity, f.code]),
    [['L-VER-16-21', 'OCPP_VERSION_UNSUPPORTED']],
  );
  const items = await eventually(
    () => deploymentsOf(asV, res.body.location_id),
    (list) => list.filter((d) => d.deployment_id).length === OCPP_VERSIONS.length,
  );
  assert.deepEqual(
    items
      .filter((d) => d.deployment_id)
      .map((d) => [d.identity, d.ocpp_version])
      .sort(),
    OCPP_VERSIONS.map((v, i) => [`L-VER-${i + 1}`, v]),
  );
});
