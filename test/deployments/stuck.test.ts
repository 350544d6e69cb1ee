// A stage past its deadline is reported `stuck`, for real: a central system that accepts the TCP
// connection and never answers the WebSocket upgrade keeps the charger in `connecting`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from './deployment-helpers.ts';

describe(`stage deadlines (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let silent: Server;
  const sockets = new Set<Socket>();

  before(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    svc = await startTestService({ env: { STAGE_DEADLINES: 'connecting=1' } });
    as = svc.as('org-stuck');
  });
  after(async () => {
    await svc.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  test('STAGE_DEADLINES=connecting=1 reports a charger stuck in connecting, and E10 lists it among the alerts', async () => {
    const port = (silent.address() as AddressInfo).port;
    const created = await as('POST', '/evcharger/deployment', {
      body: { identity: 'STUCK-1', model: DUAL_MODEL, ws_url: `ws://127.0.0.1:${port}` },
    });
    assert.equal(created.status, 201);

    const stuck = await eventually(
      () => eventsOf(as, 'STUCK-1', '&outcome=stuck'),
      (events) => events.length > 0,
    );
    assert.equal(stuck[0].stage, 'connecting');
    assert.equal(stuck[0].outcome, 'stuck');
    assert.equal(stuck[0].code, 'STAGE_DEADLINE');
    assert.match(stuck[0].hint ?? '', /still connecting/);

    const alerts = await eventsOf(as, 'STUCK-1', '&outcome=alerts');
    assert.ok(alerts.some((e) => e.outcome === 'stuck' && e.stage === 'connecting'));
  });
});
