// INSPECT's receiver prints what a watched charger does on the wire: the OCPP calls it makes with
// their message id and a payload summary, the answers naming the call they answer, the link, and
// each change of stage and state; no `? #? undefined` lines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { WebSocketServer } from 'ws';
import { pino } from 'pino';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { createChargerRuntime, type ChargerActor } from '../../engine/charger/charger-runtime.ts';
import { createChargerInspector, type ChargerInspector } from '../../engine/charger/charger-inspector.ts';
import { startInspectReceiver, stateText, summarize } from '../../engine/charger/inspect-receiver.ts';

let csms: StrictCsms;
let receiver: WebSocketServer;
let inspector: ChargerInspector;
let actor: ChargerActor;
const lines: string[] = [];
const waiters = new Set<() => void>();

before(async () => {
  csms = await startStrictCsms();
  receiver = startInspectReceiver(0, (line) => {
    lines.push(line);
    for (const w of [...waiters]) w();
  });
  await new Promise((resolve) => receiver.once('listening', resolve));
  const log = pino({ level: 'silent' });
  inspector = createChargerInspector(
    { identities: ['INSP-1'], url: `ws://127.0.0.1:${(receiver.address() as AddressInfo).port}` },
    log,
  );
});
after(async () => {
  actor?.stop();
  inspector.close();
  for (const ws of receiver.clients) ws.terminate();
  await new Promise((resolve) => receiver.close(resolve));
  await csms.close();
});

const lineMatching = (re: RegExp) =>
  new Promise<string>((resolve, reject) => {
    const check = () => {
      const found = lines.find((l) => re.test(l));
      if (!found) return;
      waiters.delete(check);
      clearTimeout(timer);
      resolve(found);
    };
    const timer = setTimeout(() => reject(new Error(`no line matching ${re}:\n${lines.join('\n')}`)), 10_000);
    waiters.add(check);
    check();
  });

test('a watched charger is printed as OCPP calls, answers and state changes', async () => {
  const runtime = createChargerRuntime({ log: pino({ level: 'silent' }), defaultCsmsUrl: () => csms.url });
  actor = runtime.create({
    identity: 'INSP-1',
    version: 'ocpp1.6',
    model: { boot_vendor: 'V', boot_model: 'M', connector_count: 1, max_power_kw: 22, current_type: 'AC' },
  });
  inspector.attach('INSP-1', actor);
  actor.start();
  actor.send({ type: 'DEPLOY' });
  const call = await lineMatching(/ INSP-1 -> BootNotification #\S+ \{/);
  assert.match(call, /"chargePointVendor":"V"/);
  const answer = await lineMatching(/ INSP-1 <- BootNotification #\S+ \{"currentTime":/);
  assert.match(answer, /"status":"Accepted"/);
  await lineMatching(/ INSP-1 link open$/);
  await lineMatching(/ INSP-1 #1 online .*online/);
  actor.send({ type: 'PLUG_IN', connectorId: 1 });
  await lineMatching(/ INSP-1 event PLUG_IN \{"connectorId":1\}/);
  // StatusNotification goes out quiet: its answer stays in the link (core/step.ts, UNHEEDED).
  await lineMatching(/ INSP-1 -> StatusNotification #\S+ \(quiet\) \{.*"status":"Preparing"/);
  assert.deepEqual(
    lines.filter((l) => /undefined|\?/.test(l)),
    [],
    'no line without its charger, call or state',
  );
});

test('summaries are short, state values read as paths', () => {
  assert.equal(summarize({ a: 'x'.repeat(500) }).length, 160);
  assert.equal(
    stateText({ deployed: { lifecycle: { session: 'online' }, meter: 'idle' } }),
    'deployed.{lifecycle.session.online meter.idle}',
  );
});

test('a secret the central system sends is printed masked, and never in clear on any line', async () => {
  const key = '0123456789abcdef0123';
  await csms.call('INSP-1', 'ChangeConfiguration', { key: 'AuthorizationKey', value: key });
  const line = await lineMatching(/ INSP-1 <= central system calls ChangeConfiguration /);
  assert.match(line, /"key":"AuthorizationKey","value":"\*{8}"/);
  assert.deepEqual(
    lines.filter((l) => l.includes(key)),
    [],
  );
});

test('summaries mask secrets wherever they are: a 1.6 key, a 2.0.1 variable, a named field', () => {
  assert.equal(
    summarize({ type: 'CHANGE_CONFIGURATION', key: 'AuthorizationKey', value: 'k3y' }),
    '{"type":"CHANGE_CONFIGURATION","key":"AuthorizationKey","value":"********"}',
  );
  assert.equal(
    summarize({ component: 'SecurityCtrlr', variable: 'BasicAuthPassword', value: 'pw' }),
    '{"component":"SecurityCtrlr","variable":"BasicAuthPassword","value":"********"}',
  );
  assert.equal(summarize({ basicAuthPassword: 'pw' }), '{"basicAuthPassword":"********"}');
});
