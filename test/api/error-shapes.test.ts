// The error mapper and body parser of the API, on a small app built from the same pieces.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import { pino } from 'pino';
import { errorMiddleware } from '../../api/http/errors.ts';
import { behind, mount } from '../../api/app.ts';
import { MAX_JSON_DEPTH, jsonBody } from '../../api/http/json-body.ts';
import { parseBody } from '../../api/http/validation.ts';

describe('API error shapes', () => {
  let server: Server;
  let base: string;
  const logged: string[] = [];

  before(async () => {
    const app = new Koa();
    app.silent = true;
    const log = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
    app.use(async (ctx, next) => {
      ctx.state.log = log;
      ctx.state.requestId = 'req-1';
      await next();
    });
    app.use(errorMiddleware());
    const router = new Router();
    router.post('/things', async (ctx) => {
      ctx.body = parseBody(ctx, z.object({ name: z.string().min(1), count: z.number().int().max(10) }));
    });
    router.get('/boom', () => {
      throw new Error('secret internals at /srv/app.ts:42');
    });
    mount(app, behind([jsonBody('1kb')], router));
    server = createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const post = (body: string, type = 'application/json') =>
    fetch(`${base}/things`, { method: 'POST', headers: { 'content-type': type }, body });

  test('malformed JSON answers 422 json_invalid at loc body', async () => {
    const res = await post('{"name": ');
    assert.equal(res.status, 422);
    const body: any = await res.json();
    assert.equal(body.detail.length, 1);
    assert.deepEqual(body.detail[0].loc, ['body']);
    assert.equal(body.detail[0].type, 'json_invalid');
    assert.equal(body.detail[0].msg, 'JSON decode error');
  });

  test('a body nested beyond the depth limit answers 422 json_invalid and is logged with the request id', async () => {
    const depth = MAX_JSON_DEPTH + 1;
    const res = await post(`{"name":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`);
    assert.equal(res.status, 422);
    const body: any = await res.json();
    assert.deepEqual(body.detail, [
      {
        loc: ['body'],
        msg: 'JSON decode error',
        type: 'json_invalid',
        ctx: { error: `nested deeper than ${MAX_JSON_DEPTH} levels` },
      },
    ]);
    const line = logged.find((l) => l.includes('nested deeper'));
    assert.ok(line, 'the refusal was logged');
    assert.equal(JSON.parse(line).requestId, 'req-1');
  });

  test('a body over the limit answers 413 with a detail', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(5000), count: 1 }));
    assert.equal(res.status, 413);
    const body: any = await res.json();
    assert.equal(typeof body.detail, 'string');
    assert.match(body.detail, /too large/);
  });

  test('schema violations answer 422 with one entry per failed rule', async () => {
    const res = await post(JSON.stringify({ name: '', count: 11.5 }));
    assert.equal(res.status, 422);
    const { detail }: any = await res.json();
    const byField = Object.fromEntries(detail.map((d: { loc: string[] }) => [d.loc.join('.'), d]));
    assert.deepEqual(byField['body.name'], {
      loc: ['body', 'name'],
      msg: 'String should have at least 1 character',
      type: 'string_too_short',
      input: '',
      ctx: { min_length: 1 },
    });
    assert.equal(byField['body.count'].type, 'int_type');
    assert.equal(byField['body.count'].input, 11.5);
  });

  test('a missing field answers type missing', async () => {
    const res = await post(JSON.stringify({ count: 1 }));
    const { detail }: any = await res.json();
    assert.deepEqual(detail, [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }]);
  });

  test('a number above the maximum answers less_than_equal with ctx', async () => {
    const res = await post(JSON.stringify({ name: 'a', count: 11 }));
    const { detail }: any = await res.json();
    assert.deepEqual(detail, [
      {
        loc: ['body', 'count'],
        msg: 'Input should be less than or equal to 10',
        type: 'less_than_equal',
        input: 11,
        ctx: { le: 10 },
      },
    ]);
  });

  test('an unknown route answers 404 Not Found', async () => {
    const res = await fetch(`${base}/nowhere`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { detail: 'Not Found' });
  });

  test('a wrong method on a known route answers 405 with Allow', async () => {
    const res = await fetch(`${base}/things`, { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.deepEqual(await res.json(), { detail: 'Method Not Allowed' });
    assert.match(res.headers.get('allow') ?? '', /POST/);
  });

  test('an unexpected exception answers 500 without internals and is logged with the request id', async () => {
    const res = await fetch(`${base}/boom`);
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { detail: 'Internal Server Error' });
    assert.doesNotMatch(text, /secret|srv|at /);
    const line = logged.find((l) => l.includes('secret internals'));
    assert.ok(line, 'the failure was logged');
    assert.equal(JSON.parse(line).requestId, 'req-1');
  });
});
