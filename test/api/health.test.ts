import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MODE,
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  createTestDatabase,
  dropTestDatabase,
  startTestService,
  testDatabaseUrl,
  type TestService,
} from '../support/service.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { DATABASE_UNAVAILABLE } from '../../api/http/errors.ts';

/** Takes the database / broker away from the running service and gives it back. */
interface Faults {
  stopDatabase(): Promise<void>;
  startDatabase(): Promise<void>;
  stopBroker(): Promise<void>;
  startBroker(): Promise<void>;
  close(): Promise<void>;
}

async function poll<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`E27 GET /health/ready (${MODE})`, () => {
  let svc: TestService;
  let faults: Faults;

  before(async () => {
    if (MODE === 'embedded') {
      svc = await startTestService();
      const { postgres, broker } = svc.service.platform.embedded;
      faults = {
        stopDatabase: () => postgres!.stop(),
        startDatabase: () => postgres!.restart(),
        stopBroker: () => broker!.stop(),
        startBroker: () => broker!.restart(),
        close: () => svc.close(),
      };
    } else {
      // The shared real servers stay up; the service reaches them through proxies we can cut.
      const db = new URL(REAL_DATABASE_URL!);
      const mq = new URL(REAL_MQTT_URL ?? 'mqtt://127.0.0.1:1883');
      const dbProxy: TcpProxy = await startTcpProxy(db.hostname, Number(db.port || 5432));
      const mqProxy: TcpProxy = await startTcpProxy(mq.hostname, Number(mq.port || 1883));
      const database = await createTestDatabase();
      db.host = `127.0.0.1:${dbProxy.port}`;
      svc = await startTestService({
        databaseUrl: testDatabaseUrl(db.toString(), database),
        mqttUrl: `mqtt://127.0.0.1:${mqProxy.port}`,
      });
      faults = {
        stopDatabase: async () => dbProxy.cut(),
        startDatabase: async () => dbProxy.restore(),
        stopBroker: async () => mqProxy.cut(),
        startBroker: async () => mqProxy.restore(),
        close: async () => {
          await svc.close();
          await dbProxy.close();
          await mqProxy.close();
          await dropTestDatabase(database);
        },
      };
    }
  });
  after(() => faults.close());

  test('answers 200 with every check ok, without a bearer token', async () => {
    const res = await svc.request('GET', '/health/ready');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', database: 'ok', mqtt: 'ok' });
  });

  test('answers 503 with mqtt error while the broker is gone, and 200 once it is back', async () => {
    await faults.stopBroker();
    const down = await poll(
      () => svc.request('GET', '/health/ready'),
      (r) => r.status === 503,
    );
    assert.equal(down.status, 503);
    assert.deepEqual(down.body, { status: 'not_ready', database: 'ok', mqtt: 'error' });
    await faults.startBroker();
    const up = await poll(
      () => svc.request('GET', '/health/ready'),
      (r) => r.status === 200,
    );
    assert.deepEqual(up.body, { status: 'ok', database: 'ok', mqtt: 'ok' });
  });

  test('answers 503 with database error while the database is gone, and 200 once it is back', async () => {
    await faults.stopDatabase();
    const down = await poll(
      () => svc.request('GET', '/health/ready'),
      (r) => r.status === 503,
    );
    assert.equal(down.status, 503);
    assert.deepEqual(down.body, { status: 'not_ready', database: 'error', mqtt: 'ok' });
    await faults.startDatabase();
    const up = await poll(
      () => svc.request('GET', '/health/ready'),
      (r) => r.status === 200,
    );
    assert.deepEqual(up.body, { status: 'ok', database: 'ok', mqtt: 'ok' });
  });

  test('other routes answer 503 saying the database is unavailable while it is gone', async () => {
    await faults.stopDatabase();
    const res = await poll(
      () => svc.as('org-a')('GET', '/evcharger/catalog'),
      (r) => r.status === 503,
    );
    assert.equal(res.status, 503);
    assert.deepEqual(res.body, { detail: DATABASE_UNAVAILABLE });
    await faults.startDatabase();
    const ok = await poll(
      () => svc.as('org-a')('GET', '/evcharger/catalog'),
      (r) => r.status === 200,
    );
    assert.equal(ok.status, 200);
  });
});
