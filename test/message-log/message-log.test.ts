// The message log's write-behind on a real PostgreSQL: frames are written in multi-row INSERTs
// (never one per frame), ids increase per charger, the ring keeps the newest frames, a database
// that is away loses nothing, and a frame PostgreSQL refuses does not block the log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { MessageLog } from '../../engine/message-log/message-log.ts';
import type { Queryable } from '../../engine/platform/db/database.ts';

describe(`message log write-behind (${MODE})`, () => {
  let svc: TestService;
  let db: Queryable;
  const statements: string[] = [];
  let failNext = 0;
  const log = pino({ level: 'silent' });

  before(async () => {
    svc = await startTestService();
    const real = svc.service.platform.db;
    db = {
      query(text, values) {
        statements.push(text.trim().split(/\s+/)[0]);
        if (failNext > 0) {
          failNext--;
          return Promise.reject(new Error('connection terminated'));
        }
        return real.query(text, values);
      },
    };
  });
  after(() => svc.close());

  const aLog = () => new MessageLog({ db, log, retentionHours: 24, maxPerCharger: 1000, flushMs: 60_000 });
  const rowsOf = async (key: string) =>
    (
      await svc.service.platform.db.query<{ id: number; message_id: string }>(
        'SELECT id, message_id FROM ocpp_log WHERE charger_id = $1 ORDER BY id',
        [key],
      )
    ).rows;
  const heartbeat = (n: number) => `[2,"m${n}","Heartbeat",{}]`;

  test('300 frames of three chargers are written by one INSERT', async () => {
    const messageLog = aLog();
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    for (let n = 0; n < 300; n++)
      messageLog.record(keys[n % 3], 'out', heartbeat(n), 2, `m${n}`, 'Heartbeat', null);
    statements.length = 0;
    await messageLog.flush();
    assert.deepEqual(statements, ['INSERT']);
    for (const key of keys) assert.equal((await rowsOf(key)).length, 100);
    await messageLog.close();
  });

  test('ids increase per charger, also within one millisecond', async () => {
    const messageLog = aLog();
    const key = randomUUID();
    for (let n = 0; n < 50; n++) messageLog.record(key, 'in', heartbeat(n), 2, `m${n}`, 'Heartbeat', null);
    await messageLog.flush();
    const rows = await rowsOf(key);
    assert.equal(rows.length, 50);
    for (let k = 1; k < rows.length; k++) assert.ok(rows[k].id > rows[k - 1].id);
    assert.deepEqual(
      rows.map((r) => r.message_id),
      Array.from({ length: 50 }, (_x, n) => `m${n}`),
    );
    await messageLog.close();
  });

  test('the ring holds the newest frames, and every frame not written yet', async () => {
    const messageLog = aLog();
    const key = randomUUID();
    for (let n = 0; n < 20; n++) messageLog.record(key, 'out', heartbeat(n), 2, `m${n}`, 'Heartbeat', null);
    assert.equal(messageLog.recent(key).length, 20, 'nothing written yet: all kept');
    await messageLog.flush();
    messageLog.record(key, 'out', heartbeat(20), 2, 'm20', 'Heartbeat', null);
    assert.deepEqual(
      messageLog.recent(key).map((e) => e.messageId),
      ['m13', 'm14', 'm15', 'm16', 'm17', 'm18', 'm19', 'm20'],
    );
    await messageLog.close();
  });

  test('a database that is away loses nothing: the frames are written once it answers', async () => {
    const messageLog = aLog();
    const key = randomUUID();
    for (let n = 0; n < 10; n++) messageLog.record(key, 'out', heartbeat(n), 2, `m${n}`, 'Heartbeat', null);
    failNext = 1;
    await messageLog.flush(); // fails, keeps the frames
    assert.equal((await rowsOf(key)).length, 0);
    messageLog.record(key, 'out', heartbeat(10), 2, 'm10', 'Heartbeat', null);
    await messageLog.flush();
    assert.deepEqual(
      (await rowsOf(key)).map((r) => r.message_id),
      Array.from({ length: 11 }, (_x, n) => `m${n}`),
    );
    await messageLog.close();
  });

  test('a frame PostgreSQL refuses is dropped, and the log goes on', async () => {
    const messageLog = aLog();
    const key = randomUUID();
    // A message id with a NUL character: valid JSON, not a valid PostgreSQL text.
    messageLog.record(key, 'in', '[2,"a\\u0000b","Heartbeat",{}]', 2, 'a\u0000b', 'Heartbeat', null);
    await messageLog.flush();
    messageLog.record(key, 'out', heartbeat(1), 2, 'm1', 'Heartbeat', null);
    await messageLog.flush();
    assert.deepEqual(
      (await rowsOf(key)).map((r) => r.message_id),
      ['m1'],
    );
    await messageLog.close();
  });
});
