// A database that cannot be reached is a 503 with a detail saying so, on every route that needs it,
// and the service recovers by itself once the database is back. The service reaches PostgreSQL
// through a TCP proxy the test cuts: the real server, or on the embedded defaults PGlite served
// on its socket by this process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MODE,
  REAL_DATABASE_URL,
  createTestDatabase,
  dropTestDatabase,
  startTestService,
  testDatabaseUrl,
  type TestResponse,
  type TestService,
} from '../support/service.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { seedDataDir } from '../support/data-template.ts';
import { startEmbeddedPostgres } from '../../engine/platform/db/embedded-postgres.ts';
import { DATABASE_UNAVAILABLE } from '../../api/http/errors.ts';
import { eventually } from '../deployments/deployment-helpers.ts';

interface Probe {
  area: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

let idempotencyKey = 0;
/** One or more routes of every area, each of which reads or writes the database. */
const probes = (): Probe[] => [
  { area: 'catalog', method: 'GET', path: '/evcharger/catalog' },
  { area: 'templates', method: 'GET', path: '/evcharger/templates/locations' },
  { area: 'deployments', method: 'GET', path: '/evcharger/deployments' },
  { area: 'deployments', method: 'GET', path: '/evcharger/deployment-runtime-ops/events' },
  {
    area: 'commands',
    method: 'POST',
    path: '/evcharger/commands/cache/reset',
    body: { target: { identity: 'AWAY-1' } },
  },
  { area: 'commands', method: 'GET', path: '/evcharger/commands/7d1c3c1e-5d0e-4c39-9a43-1f1d35a2c0a1' },
  { area: 'cpo', method: 'GET', path: '/cpo/locations/AWAY-LOC' },
  { area: 'cpo', method: 'GET', path: '/cpo/charge-points/AWAY-CP' },
  { area: 'cpo', method: 'POST', path: '/cpo/voucher-groups', body: { name: 'away', voucher_count: 1 } },
  { area: 'cpo', method: 'GET', path: '/cpo/tariff-publisher/public-key' },
  { area: 'emsp', method: 'GET', path: '/emsp/tokens/1' },
  {
    area: 'emsp',
    method: 'POST',
    path: '/emsp/tenant/emp-identities',
    body: { country_code: 'NL', party_id: `A${(idempotencyKey % 90) + 10}` },
    headers: { 'Idempotency-Key': `away-${++idempotencyKey}` },
  },
  { area: 'emsp', method: 'GET', path: '/emsp/tariffs/T1?country_code=NL&party_id=ABC' },
  { area: 'roaming', method: 'GET', path: '/roaming/partners' },
];

describe(`503 while the database is unreachable (${MODE})`, () => {
  let svc: TestService;
  let proxy: TcpProxy;
  let cleanup: () => Promise<void>;

  before(async () => {
    if (MODE === 'embedded') {
      const dir = mkdtempSync(join(tmpdir(), 'evsim-away-'));
      await seedDataDir(dir);
      const postgres = await startEmbeddedPostgres(dir);
      const url = new URL(postgres.url);
      proxy = await startTcpProxy(url.hostname, Number(url.port));
      url.host = `127.0.0.1:${proxy.port}`;
      svc = await startTestService({ databaseUrl: url.toString() });
      cleanup = async () => {
        await svc.close();
        await proxy.close();
        await postgres.close();
        rmSync(dir, { recursive: true, force: true });
      };
    } else {
      const url = new URL(REAL_DATABASE_URL!);
      proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
      const database = await createTestDatabase();
      url.host = `127.0.0.1:${proxy.port}`;
      svc = await startTestService({ databaseUrl: testDatabaseUrl(url.toString(), database) });
      cleanup = async () => {
        await svc.close();
        await proxy.close();
        await dropTestDatabase(database);
      };
    }
  });
  after(() => cleanup());

  const send = (p: Probe): Promise<TestResponse> =>
    svc.as('org-away')(p.method, p.path, { body: p.body, headers: p.headers });

  test('every area answers 503 with a detail while the database is cut, and answers again once it is back', async () => {
    const before = await Promise.all(probes().map(send));
    for (const [i, res] of before.entries())
      assert.ok(res.status < 500, `${probes()[i].path} before the cut: ${res.status} ${res.text}`);

    proxy.cut();
    try {
      for (const p of probes()) {
        const res = await send(p);
        assert.equal(res.status, 503, `${p.method} ${p.path} (${p.area}): ${res.text}`);
        assert.deepEqual(res.body, { detail: DATABASE_UNAVAILABLE });
        assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
      }
      const health = await svc.request('GET', '/health/ready');
      assert.equal(health.status, 503);
      assert.equal(health.body.database, 'error');
    } finally {
      proxy.restore();
    }

    for (const p of probes()) {
      const res = await eventually(
        () => send(p),
        (r) => r.status < 500,
      );
      assert.ok(res.status < 500, `${p.method} ${p.path} after the database came back: ${res.text}`);
    }
    const health = await svc.request('GET', '/health/ready');
    assert.equal(health.status, 200);
  });
});
