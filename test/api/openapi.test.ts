// The API description (interface.md "Console and API description"): /openapi.json documents every
// route the routers register, is valid OpenAPI 3.1, its examples fit their schemas and the service
// accepts them; /docs is an interactive page that loads nothing from outside.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startFakeOcpiPartner, type FakeOcpiPartner } from '../support/fake-ocpi-partner.ts';
import { apiRouters } from '../../api/app.ts';
import { routesOf, type OpenApiDocument } from '../../api/openapi/openapi-document.ts';
import type { RequestExample, RouteDoc } from '../../api/openapi/route-doc.ts';

const addFormats = formatsModule as unknown as FormatsPlugin;
type Json = Record<string, any>;

const AJV = new Ajv2020({ strict: false, allErrors: true });
addFormats(AJV);
const ajv = () => AJV;

/** Every example of the document, with the schema it must fit and where it is. */
function examplesOf(doc: OpenApiDocument): Array<{ where: string; schema: Json; value: unknown }> {
  const out: Array<{ where: string; schema: Json; value: unknown }> = [];
  const schemaExamples = (where: string, schema: unknown) => {
    walk(schema, (node, at) => {
      if (Array.isArray(node.examples))
        node.examples.forEach((value: unknown, i: number) =>
          out.push({ where: `${where}${at} examples[${i}]`, schema: node, value }),
        );
    });
  };
  for (const [name, schema] of Object.entries((doc.components as Json).schemas))
    schemaExamples(`components.schemas.${name}`, schema);
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops as Json)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) {
        if (p.example !== undefined)
          out.push({ where: `${where} ${p.in} ${p.name}`, schema: p.schema, value: p.example });
        schemaExamples(`${where} ${p.in} ${p.name}`, p.schema);
      }
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
        for (const [name, ex] of Object.entries((media.examples ?? {}) as Json))
          out.push({ where: `${where} body ${type} ${name}`, schema: media.schema, value: ex.value });
        schemaExamples(`${where} body`, media.schema);
      }
      for (const [status, r] of Object.entries(op.responses as Json))
        for (const [type, media] of Object.entries((r.content ?? {}) as Json)) {
          if (media.example !== undefined && media.schema)
            out.push({ where: `${where} ${status} ${type}`, schema: media.schema, value: media.example });
          if (media.schema) schemaExamples(`${where} ${status}`, media.schema);
        }
    }
  return out;
}

function walk(node: unknown, visit: (node: Json, at: string) => void, at = ''): void {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, visit, `${at}[${i}]`));
  else if (node && typeof node === 'object') {
    visit(node as Json, at);
    for (const [k, v] of Object.entries(node))
      if (k !== 'examples' && k !== 'default') walk(v, visit, `${at}.${k}`);
  }
}

/** An anchored pattern without an open-ended repeat (`^[A-Z]{2}$`) bounds a string's length. */
function boundedPattern(pattern: unknown): boolean {
  if (typeof pattern !== 'string' || !pattern.startsWith('^') || !pattern.endsWith('$')) return false;
  const outsideClasses = pattern.replace(/\\./g, 'x').replace(/\[[^\]]*\]/g, 'x');
  return !/[+*]|\{\d+,\}/.test(outsideClasses);
}

/** Components' refs resolved, so an example's schema compiles on its own. */
function standalone(doc: OpenApiDocument, schema: Json): Json {
  return { ...schema, components: doc.components };
}

// One service for the file: starting one is the slow part.
let svc: TestService;
let partner: FakeOcpiPartner;
before(async () => {
  svc = await startTestService();
  partner = await startFakeOcpiPartner('accept');
});
after(async () => {
  await svc?.close();
  await partner?.close();
});

describe(`OpenAPI description at /openapi.json (${MODE})`, () => {
  let doc: OpenApiDocument;

  before(async () => {
    const res = await svc.request('GET', '/openapi.json');
    assert.equal(res.status, 200);
    doc = res.body;
  });

  test('answers without a token: OpenAPI 3.1, version 0.1.0, a bearer security scheme', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal((doc.info as Json).version, '0.1.0');
    assert.deepEqual((doc.components as Json).securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'A JWT whose string claim org_id names the organization',
    });
  });

  test("documents the command statuses (interrupted included) and E7's failed list", () => {
    const e16 = (doc.paths['/evcharger/commands/{command_id}'].get as Json).responses['200'].content[
      'application/json'
    ].schema;
    assert.ok(e16.properties.status.enum.includes('interrupted'), JSON.stringify(e16.properties.status));
    const list = (doc.paths['/evcharger/commands'].get as Json).parameters.find(
      (p: Json) => p.name === 'status',
    );
    assert.ok(list.schema.enum.includes('interrupted'));
    const e7 = (doc.paths['/evcharger/location'].post as Json).responses['202'].content['application/json']
      .schema;
    assert.deepEqual(e7.required, ['detail', 'location_id', 'failed']);
    assert.deepEqual(Object.keys(e7.properties.failed.items.properties), ['identity', 'code', 'hint']);
  });

  test('every route registered on the routers is documented', () => {
    const routes = routesOf(apiRouters(svc.service.deps).map((m) => m.router));
    assert.ok(routes.length > 40, `only ${routes.length} routes found`);
    const missing = routes
      .filter((r) => !doc.paths[r.path]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(missing, [], `routes missing from /openapi.json: ${missing.join(', ')}`);
  });

  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
  });

  test('every field of a request is bounded: strings by length, numbers by range, lists by size', () => {
    const unbounded: string[] = [];
    const check = (where: string, schema: unknown) =>
      walk(schema, (node, at) => {
        const types = [node.type].flat();
        const fixed = node.enum !== undefined || node.const !== undefined;
        if (
          types.includes('string') &&
          !fixed &&
          node.maxLength === undefined &&
          !boundedPattern(node.pattern)
        )
          unbounded.push(`${where}${at} (string)`);
        if ((types.includes('number') || types.includes('integer')) && !fixed) {
          const low = node.minimum ?? node.exclusiveMinimum;
          const high = node.maximum ?? node.exclusiveMaximum;
          if (low === undefined || high === undefined) unbounded.push(`${where}${at} (number)`);
        }
        if (types.includes('array') && node.maxItems === undefined && node.prefixItems === undefined)
          unbounded.push(`${where}${at} (array)`);
      });
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops as Json)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) check(`${where} ${p.in} ${p.name}`, p.schema);
        for (const media of Object.values((op.requestBody?.content ?? {}) as Json))
          check(`${where} body`, media.schema);
      }
    assert.deepEqual(unbounded, [], `unbounded fields:\n${unbounded.join('\n')}`);
  });

  test('every example fits its schema', () => {
    const examples = examplesOf(doc);
    assert.ok(examples.length > 40, `only ${examples.length} examples`);
    const wrong: string[] = [];
    for (const { where, schema, value } of examples) {
      const validate = ajv().compile(standalone(doc, schema));
      if (!validate(value)) wrong.push(`${where}: ${ajv().errorsText(validate.errors)}`);
    }
    assert.deepEqual(wrong, []);
  });
});

// ---- the examples as requests to a running service ----

interface ExampleRequest {
  name: string;
  method: string;
  path: string;
  doc: RouteDoc;
  example: RequestExample;
}

/** Creations first (they make what the other examples name), reads and changes, deletions last. */
function order(r: ExampleRequest): number {
  if (r.method === 'DELETE') return 3;
  if (r.method === 'POST' && !r.path.includes('{')) return 0;
  if (r.method === 'PUT' && r.path.startsWith('/emsp')) return 0;
  return r.method === 'GET' ? 1 : 2;
}

/** Statuses an example gets for a reason outside the request: what it names is not reachable here. */
const OUTSIDE: Record<string, number> = {
  // The example's charge point is registered, not connected.
  'POST /cpo/charge-points/{charge_point_id}/reboot': 409,
  'POST /cpo/charge-points/{charge_point_id}/calls': 409,
  // No reboot was sent, so no operation of the example's tracking id.
  'GET /cpo/operations/{tracking_id}': 404,
  // Commands are polled once a charger received them; the example id names none.
  'GET /evcharger/commands/{command_id}': 404,
};

/**
 * Ids the service chose, in place of the documented ones: a creation's answer is compared with its
 * documented example answer, and each differing value replaces the example's in later requests.
 */
function learn(ids: Map<unknown, unknown>, documented: unknown, real: unknown): void {
  if (documented && real && typeof documented === 'object' && typeof real === 'object') {
    for (const [k, v] of Object.entries(documented))
      if (typeof v === 'object' || /(^|_)id$/.test(k)) learn(ids, v, (real as Json)[k]);
    return;
  }
  const isId = typeof documented === 'string' || typeof documented === 'number';
  if (isId && real !== undefined && documented !== real && !ids.has(documented)) ids.set(documented, real);
}

function substitute<T>(ids: Map<unknown, unknown>, value: T): T {
  if (Array.isArray(value)) return value.map((v) => substitute(ids, v)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(ids, v)])) as T;
  if (typeof value === 'string') {
    for (const [from, to] of ids)
      if (typeof from === 'string' && value.startsWith(from) && from.startsWith('https://'))
        return (String(to) + value.slice(from.length)) as T;
  }
  return (ids.has(value) ? ids.get(value) : value) as T;
}

describe(`OpenAPI examples sent to the service (${MODE})`, () => {
  let doc: OpenApiDocument;

  before(async () => {
    doc = (await svc.request('GET', '/openapi.json')).body;
  });

  test('every example request is accepted: 2xx (not 422), and the answer fits its documented schema', async () => {
    const requests: ExampleRequest[] = routesOf(apiRouters(svc.service.deps).map((m) => m.router)).flatMap(
      (r) =>
        Object.entries(r.doc?.examples ?? {}).map(([name, example]) => ({
          name,
          method: r.method,
          path: r.path,
          doc: r.doc!,
          example,
        })),
    );
    assert.ok(requests.length > 50, `only ${requests.length} example requests`);
    requests.sort((a, b) => order(a) - order(b));
    const ids = new Map<unknown, unknown>([['https://emsp.example.com', partner.url]]);
    const as = svc.as('org-openapi');
    const wrong: string[] = [];
    for (const r of requests) {
      const key = `${r.method} ${r.path}`;
      const ex = substitute(ids, r.example);
      const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(String(ex.path?.[name])),
      );
      const query = new URLSearchParams(
        Object.entries(ex.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const url = `${path}${query ? `?${query}` : ''}`;
      if (r.doc.responses[200]?.contentType === 'text/event-stream') {
        const stream = await fetch(svc.url + url, {
          headers: { authorization: `Bearer ${await svc.token('org-openapi')}` },
        });
        await stream.body?.cancel();
        if (stream.status !== 200) wrong.push(`${key} ${r.name}: ${stream.status}`);
        continue;
      }
      const res = await as(r.method, url, { body: ex.body, headers: ex.headers });
      const expected = OUTSIDE[key];
      if (expected !== undefined ? res.status !== expected : res.status >= 300) {
        wrong.push(`${key} ${r.name}: ${res.status} ${res.text.slice(0, 300)}`);
        continue;
      }
      const documented = r.doc.responses[res.status];
      if (!documented) continue;
      const schema = (doc.paths[r.path][r.method.toLowerCase()] as Json).responses[res.status].content?.[
        documented.contentType ?? 'application/json'
      ]?.schema;
      if (schema && (documented.contentType ?? 'application/json') === 'application/json') {
        const validate = ajv().compile(standalone(doc, schema));
        if (!validate(res.body))
          wrong.push(`${key} ${r.name}: answer does not fit: ${ajv().errorsText(validate.errors)}`);
      }
      if (documented.example !== undefined) learn(ids, documented.example, res.body);
    }
    assert.deepEqual(wrong, []);
  });
});

describe(`GET /docs (${MODE})`, () => {
  test("answers an HTML page, without a token, that loads only this service's own files", async () => {
    const res = await svc.request('GET', '/docs');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const refs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(refs.length >= 4, res.text);
    for (const ref of refs) {
      assert.ok(ref.startsWith('/') && !ref.startsWith('//'), `${ref} is not a local path`);
      const asset = await svc.request('GET', ref);
      assert.equal(asset.status, 200, ref);
      assert.ok(asset.text.length > 0, ref);
    }
    const init = await svc.request('GET', '/docs/assets/init.js');
    assert.match(init.text, /url: '\/openapi.json'/);
    assert.match(init.text, /validatorUrl: null/);
  });

  test('an unknown asset is a 404', async () => {
    const res = await svc.request('GET', '/docs/assets/..%2Fpackage.json');
    assert.equal(res.status, 404);
    assert.equal(typeof res.body.detail, 'string');
  });
});
