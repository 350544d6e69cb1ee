// Hostile input gets a 4xx in the documented shapes on every route, and the service keeps running.
// The routes are read from the routers the app mounts (a new route is covered without touching
// this file). Each route gets: a NUL in each path parameter; a NUL in each query parameter it
// requires and in one it does not know; a NUL in each body field it requires (found from its own
// 422 for an empty body), in a key and in a nested value; an unpaired surrogate; a 10,000-level
// JSON body; a valid token whose org_id holds a NUL. The check is one rule for every part of the
// request, so the names do not matter to it: these probes show it holds everywhere.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { SignJWT } from 'jose';
import { MODE, startTestService, type TestResponse, type TestService } from '../support/service.ts';
import { AUTHENTICATED_AREAS, PUBLIC_AREAS } from '../../api/app.ts';
import { MAX_JSON_DEPTH } from '../../api/http/json-body.ts';
import { hs256Secret } from '../../engine/platform/auth/tokens.ts';

interface Route {
  method: string;
  path: string;
  params: string[];
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'x\ud800y';
const PARTS = ['body', 'query', 'path', 'header'];

/** A 4xx in one of the documented shapes: {detail: string} or the 422 list. */
function assertDocumented4xx(res: TestResponse, what: string): void {
  assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  assert.ok(res.body && typeof res.body === 'object', `${what}: a JSON body, got ${res.text.slice(0, 200)}`);
  const { detail } = res.body;
  if (typeof detail === 'string') return;
  assert.equal(res.status, 422, `${what}: a list detail is a 422`);
  assert.ok(Array.isArray(detail) && detail.length > 0, `${what}: ${res.text.slice(0, 300)}`);
  for (const issue of detail) {
    assert.ok(
      Array.isArray(issue.loc) && PARTS.includes(issue.loc[0]),
      `${what}: loc ${JSON.stringify(issue)}`,
    );
    assert.equal(typeof issue.msg, 'string');
    assert.equal(typeof issue.type, 'string');
  }
}

/** The 422 names the field holding the character, as a string_unicode issue. */
function assertRejectedAt(res: TestResponse, loc: Array<string | number>, what: string): void {
  assertDocumented4xx(res, what);
  assert.equal(res.status, 422, `${what}: ${res.text.slice(0, 300)}`);
  assert.ok(
    res.body.detail.some(
      (d: { loc: unknown[]; type: string }) =>
        d.type === 'string_unicode' && JSON.stringify(d.loc) === JSON.stringify(loc),
    ),
    `${what}: expected string_unicode at ${JSON.stringify(loc)}, got ${res.text.slice(0, 400)}`,
  );
}

describe(`hostile input on every route (${MODE})`, () => {
  let svc: TestService;
  let routes: Route[];
  let token: string;

  /** One request over node:http, which (unlike fetch) sends a body with any method, as a hostile client may. */
  function as(
    method: string,
    path: string,
    opts: { body?: unknown; raw?: string } = {},
  ): Promise<TestResponse> {
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, svc.url),
        {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          // An event stream that opened does not end: its status and headers are the answer.
          if (String(res.headers['content-type']).startsWith('text/event-stream')) {
            res.destroy();
            return resolve({ status: res.statusCode!, body: undefined, text: '', headers: new Headers() });
          }
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            let body: any;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = text;
            }
            resolve({ status: res.statusCode!, body, text, headers: new Headers() });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  before(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' } });
    token = await svc.token('org-hostile');
    const seen = new Set<string>();
    routes = [];
    for (const area of [...PUBLIC_AREAS, ...AUTHENTICATED_AREAS])
      for (const layer of area.router(svc.service.deps).stack)
        for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
          const key = `${method} ${layer.path}`;
          if (seen.has(key)) continue;
          seen.add(key);
          routes.push({
            method,
            path: String(layer.path),
            params: layer.paramNames.map((p) => String(p.name)),
          });
        }
    assert.ok(routes.length > 30, `the app mounts ${routes.length} routes`);
  });
  after(() => svc.close());

  /** The route's path with every parameter set (to `value` for `param`, a plausible one elsewhere). */
  const pathOf = (r: Route, param?: string, value?: string) =>
    r.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
      encodeURIComponent(name === param ? value! : '1'),
    );

  test('a NUL in any path parameter is a 404 or a 422 naming the parameter', async () => {
    let probes = 0;
    for (const r of routes)
      for (const param of r.params) {
        const res = await as(r.method, pathOf(r, param, NUL), { body: {} });
        const what = `${r.method} ${r.path} with a NUL in ${param}`;
        if (res.status === 404) assertDocumented4xx(res, what);
        else assertRejectedAt(res, ['path', param], what);
        probes++;
      }
    assert.ok(probes > 10);
  });

  test('a NUL in a query parameter is a 422 naming it, whether or not the route reads it', async () => {
    for (const r of routes) {
      const first = await as(r.method, pathOf(r), { body: {} });
      const required: string[] = Array.isArray(first.body?.detail)
        ? first.body.detail
            .filter((d: { loc: string[]; type: string }) => d.loc[0] === 'query' && d.type === 'missing')
            .map((d: { loc: string[] }) => d.loc[1])
        : [];
      for (const name of [...required, 'q']) {
        const res = await as(r.method, `${pathOf(r)}?${name}=${encodeURIComponent(NUL)}`, { body: {} });
        assertRejectedAt(res, ['query', name], `${r.method} ${r.path}?${name}=NUL`);
      }
      const key = await as(r.method, `${pathOf(r)}?${encodeURIComponent(NUL)}=1`, { body: {} });
      assertRejectedAt(key, ['query', NUL], `${r.method} ${r.path} with a NUL in a query name`);
    }
  });

  test('a NUL in a body field, key or nested value is a 422 naming it', async () => {
    for (const r of routes) {
      const empty = await as(r.method, pathOf(r), { body: {} });
      const fields: string[] = Array.isArray(empty.body?.detail)
        ? empty.body.detail
            .filter((d: { loc: string[] }) => d.loc[0] === 'body' && d.loc.length === 2)
            .map((d: { loc: string[] }) => d.loc[1])
        : [];
      const what = `${r.method} ${r.path}`;
      for (const field of new Set([...fields, 'name'])) {
        const res = await as(r.method, pathOf(r), { body: { [field]: NUL } });
        assertRejectedAt(res, ['body', field], `${what} with a NUL in ${field}`);
      }
      const nested = await as(r.method, pathOf(r), {
        body: { payload: { list: ['ok', { deep: NUL }] }, [`key${NUL}`]: 1 },
      });
      assertRejectedAt(nested, ['body', 'payload', 'list', 1, 'deep'], `${what} with a nested NUL`);
      assertRejectedAt(nested, ['body', `key${NUL}`], `${what} with a NUL in a key`);
      const surrogate = await as(r.method, pathOf(r), { body: { note: LONE_SURROGATE } });
      assertRejectedAt(surrogate, ['body', 'note'], `${what} with an unpaired surrogate`);
    }
  });

  test(`a body nested 10,000 levels deep (beyond ${MAX_JSON_DEPTH}) is a 422 json_invalid on every route`, async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const objects = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    for (const r of routes)
      for (const raw of [deep, objects]) {
        const res = await as(r.method, pathOf(r), { raw });
        assertDocumented4xx(res, `${r.method} ${r.path} with a deep body`);
        assert.equal(res.status, 422);
        assert.deepEqual(
          res.body.detail.map((d: { loc: string[]; type: string }) => [d.loc, d.type]),
          [[['body'], 'json_invalid']],
        );
      }
  });

  test(`a body exactly ${MAX_JSON_DEPTH} levels deep is parsed (and judged by the route's schema)`, async () => {
    const atLimit = '['.repeat(MAX_JSON_DEPTH - 1) + ']'.repeat(MAX_JSON_DEPTH - 1);
    const res = await as('POST', '/cpo/voucher-groups', { raw: `{"name":${atLimit}}` });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'name']);
    assert.equal(res.body.detail[0].type, 'string_type');
  });

  test('a token whose org_id holds a NUL is a 401', async () => {
    const key = hs256Secret(svc.service.platform.config)!;
    const token = await new SignJWT({ org_id: `org${NUL}` })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    const res = await svc.request('GET', '/evcharger/deployments', { token });
    assert.equal(res.status, 401);
    assert.equal(typeof res.body.detail, 'string');
  });

  test('after all of it the service is healthy and answers a normal request', async () => {
    const health = await svc.request('GET', '/health/ready');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok', database: 'ok', mqtt: 'ok' });
    const catalog = await as('GET', '/evcharger/catalog');
    assert.equal(catalog.status, 200);
    const created = await as('POST', '/cpo/voucher-groups', {
      body: { name: 'after the storm', voucher_count: 2 },
    });
    assert.equal(created.status, 201, created.text);
  });
});
