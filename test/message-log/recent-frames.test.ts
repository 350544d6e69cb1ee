// The frames a diagnostics / log upload gets from the message log (engine/message-log/recent-frames.ts):
// the charger's newest frames, oldest first, including those not written to PostgreSQL yet.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { MessageLog } from '../../engine/message-log/message-log.ts';
import { recentFrames } from '../../engine/message-log/recent-frames.ts';

describe(`recent frames for a log upload (${MODE})`, () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const aLog = () =>
    new MessageLog({
      db: svc.service.platform.db,
      log: pino({ level: 'silent' }),
      retentionHours: 24,
      maxPerCharger: 1000,
      flushMs: 60_000,
    });
  const heartbeat = (n: number) => `[2,"m${n}","Heartbeat",{}]`;

  test('N01 the upload gets every frame of the charger, oldest first, also those not flushed yet', async () => {
    const messageLog = aLog();
    const key = randomUUID();
    for (let n = 0; n < 30; n++) messageLog.record(key, 'out', heartbeat(n), 2, `m${n}`, 'Heartbeat', null);
    messageLog.record(randomUUID(), 'out', heartbeat(99), 2, 'm99', 'Heartbeat', null);
    const frames = await recentFrames(messageLog, key);
    assert.deepEqual(
      frames.map((f) => f.frame),
      Array.from({ length: 30 }, (_x, n) => heartbeat(n)),
    );
    assert.ok(frames.every((f) => f.direction === 'out' && f.action === 'Heartbeat' && f.at > 0));
    await messageLog.close();
  });

  test('N01 the upload holds at most the newest `limit` frames', async () => {
    const messageLog = aLog();
    const key = randomUUID();
    for (let n = 0; n < 30; n++) messageLog.record(key, 'in', heartbeat(n), 2, `m${n}`, 'Heartbeat', null);
    const frames = await recentFrames(messageLog, key, 10);
    assert.deepEqual(
      frames.map((f) => f.frame),
      Array.from({ length: 10 }, (_x, n) => heartbeat(n + 20)),
    );
    await messageLog.close();
  });
});
