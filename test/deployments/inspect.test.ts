// Live inspection: with INSPECT naming one identity, the XState inspector sends that charger's
// actor, events and snapshots to INSPECT_URL, and nothing of the other chargers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { InspectionFormatter } from '../../engine/charger/inspect-receiver.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from './deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let receiver: WebSocketServer;
let as: As;
const received: Array<{ type: string; snapshot?: { context?: { identity?: string; stage?: string } } }> = [];
const texts: string[] = [];

before(async () => {
  receiver = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => receiver.once('listening', resolve));
  receiver.on('connection', (ws) =>
    ws.on('message', (data) => {
      texts.push(data.toString());
      received.push(JSON.parse(data.toString()));
    }),
  );
  const { port } = receiver.address() as AddressInfo;
  csms = await startStrictCsms();
  svc = await startTestService({ env: { INSPECT: 'INS-1', INSPECT_URL: `ws://127.0.0.1:${port}` } });
  as = svc.as('org-inspect');
});

after(async () => {
  await svc.close();
  await csms.close();
  for (const ws of receiver.clients) ws.terminate();
  await new Promise((resolve) => receiver.close(resolve));
});

test('INSPECT attaches the inspector to the named charger only', async () => {
  for (const identity of ['INS-1', 'INS-2']) {
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity, model: DUAL_MODEL, ws_url: csms.url },
    });
    assert.equal(res.status, 201, res.text);
  }
  for (const identity of ['INS-1', 'INS-2'])
    await eventually(
      () => eventsOf(as, identity),
      (ev) => ev.some((e) => e.stage === 'online'),
    );
  await eventually(
    async () => received,
    (list) => list.some((e) => e.type === '@xstate.snapshot' && e.snapshot?.context?.stage === 'online'),
  );
  assert.ok(received.some((e) => e.type === '@xstate.actor'));
  assert.ok(received.some((e) => e.type === '@xstate.event'));
  const identities = new Set(received.map((e) => e.snapshot?.context?.identity).filter(Boolean));
  assert.deepEqual([...identities], ['INS-1']);
  assert.ok(!texts.some((t) => t.includes('INS-2')));
  // The bundled receiver prints these events as lines a terminal can follow.
  const formatter = new InspectionFormatter();
  const lines = received.map((e) => formatter.line(e)).filter(Boolean);
  assert.ok(
    lines.some((l) => /INS-1 #1 online/.test(l!)),
    lines.join('\n'),
  );
});
