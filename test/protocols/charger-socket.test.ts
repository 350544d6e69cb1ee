import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { openChargerSocket, type ChargerSocketOptions } from '../../engine/charger/ws-client.ts';
import { RpcClosedError, RpcEndpoint, type OcppVersion } from '../../protocols/ocpp/index.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { makeTestCertificates, type TestCertificates } from './test-certificates.ts';

type Failure = { code: string; hint: string };

/** A charger's wire: our socket + our RPC endpoint, as the charger machine will wire them. */
function connectCharger(
  opts: Omit<ChargerSocketOptions, 'version'> & { version: OcppVersion },
  onCall: (action: string, payload: Record<string, unknown>) => unknown = () => ({}),
) {
  let resolveOpen: () => void;
  let resolveClose: (info: { code: number; reason: string }) => void;
  let resolveFailure: (f: Failure) => void;
  const opened = new Promise<void>((resolve) => (resolveOpen = resolve));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (resolveClose = resolve));
  const failed = new Promise<Failure>((resolve) => (resolveFailure = resolve));
  const calls: string[] = [];
  const socket = openChargerSocket(opts, {
    onOpen: () => resolveOpen(),
    onMessage: (text) => endpoint.receive(text),
    onClose: (info) => {
      endpoint.close(new Error(`closed ${info.code}`));
      resolveClose(info);
    },
    onFailure: (f) => resolveFailure(f),
  });
  const endpoint = new RpcEndpoint({
    version: opts.version,
    send: (text) => socket.send(text),
    onCall: (action, payload) => {
      calls.push(action);
      return onCall(action, payload);
    },
    callTimeoutMs: 5000,
  });
  return { socket, endpoint, opened, closed, failed, calls };
}

const bootNotification: Record<OcppVersion, Record<string, unknown>> = {
  'ocpp1.6': { chargePointVendor: 'Evsim', chargePointModel: 'Virtual-1' },
  'ocpp2.0.1': { reason: 'PowerUp', chargingStation: { vendorName: 'Evsim', model: 'Virtual-1' } },
  'ocpp2.1': { reason: 'PowerUp', chargingStation: { vendorName: 'Evsim', model: 'Virtual-1' } },
};

/** Frames the CSMS received from `identity` answering message `id`. */
function answerTo(csms: StrictCsms, identity: string, id: string) {
  return csms.waitFor(() =>
    csms.frames
      .filter((f) => f.identity === identity && !f.outbound)
      .map((f) => JSON.parse(f.text))
      .find((frame) => frame[1] === id && frame[0] !== 2),
  );
}

for (const version of ['ocpp1.6', 'ocpp2.0.1', 'ocpp2.1'] as const) {
  describe(`charger socket + RpcEndpoint against a strict ocpp-rpc CSMS (${version})`, () => {
    let csms: StrictCsms;
    before(async () => {
      csms = await startStrictCsms({ protocols: [version] });
    });
    after(() => csms.close());

    test('BootNotification round trip', async (t) => {
      const charger = connectCharger({ url: `${csms.url}/`, identity: `CP-${version}-boot`, version });
      t.after(() => charger.socket.close());
      await charger.opened;
      const result = await charger.endpoint.call('BootNotification', bootNotification[version]);
      assert.equal(result.status, 'Accepted');
      assert.equal(result.interval, 300);
      const received = csms.received.find((r) => r.identity === `CP-${version}-boot`);
      assert.equal(received?.action, 'BootNotification');
      assert.equal(received?.protocol, version);
      assert.deepEqual(received?.params, bootNotification[version]);
      assert.deepEqual(csms.schemaErrors, []);
    });

    test('the CSMS calls the charger and gets our handler answer', async (t) => {
      const identity = `CP-${version}-called`;
      const charger = connectCharger({ url: csms.url, identity, version }, (action) => {
        if (action === 'GetConfiguration') {
          return { configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] };
        }
        return {
          getVariableResult: [
            {
              attributeStatus: 'Accepted',
              component: { name: 'OCPPCommCtrlr' },
              variable: { name: 'HeartbeatInterval' },
              attributeValue: '300',
            },
          ],
        };
      });
      t.after(() => charger.socket.close());
      await charger.opened;
      await csms.waitFor(() => csms.clients.get(identity));
      const answer =
        version === 'ocpp1.6'
          ? await csms.call(identity, 'GetConfiguration', { key: ['HeartbeatInterval'] })
          : await csms.call(identity, 'GetVariables', {
              getVariableData: [
                { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } },
              ],
            });
      const value =
        version === 'ocpp1.6' ? answer.configurationKey[0].value : answer.getVariableResult[0].attributeValue;
      assert.equal(value, '300');
      assert.deepEqual(charger.calls, [version === 'ocpp1.6' ? 'GetConfiguration' : 'GetVariables']);
      assert.deepEqual(csms.schemaErrors, []);
    });

    test('an invalid CALL from the CSMS is answered with the CALLERROR of its fault', async (t) => {
      const identity = `CP-${version}-invalid`;
      const charger = connectCharger({ url: csms.url, identity, version }, () => ({ status: 'Accepted' }));
      t.after(() => charger.socket.close());
      await charger.opened;
      await csms.waitFor(() => csms.clients.get(identity));
      // Written raw: ocpp-rpc's strict mode would refuse to send these.
      csms.sendRaw(identity, '[2,"bad-1","Reset",{}]');
      csms.sendRaw(identity, '[2,"bad-2","Reset",{"type":42}]');
      const missing = await answerTo(csms, identity, 'bad-1');
      const wrongType = await answerTo(csms, identity, 'bad-2');
      assert.equal(
        missing[2],
        version === 'ocpp1.6' ? 'OccurenceConstraintViolation' : 'OccurrenceConstraintViolation',
      );
      assert.equal(wrongType[2], 'TypeConstraintViolation');
      assert.equal(missing[0], 4);
      assert.deepEqual(charger.calls, [], 'the handler never saw them');
    });

    test('skipValidation sends a raw message as written; the strict CSMS flags it', async (t) => {
      const identity = `CP-${version}-raw`;
      const charger = connectCharger({ url: csms.url, identity, version });
      t.after(() => charger.socket.close());
      await charger.opened;
      const raw = { ...bootNotification[version], firmwareColour: 'blue' };
      await assert.rejects(charger.endpoint.call('BootNotification', raw, { skipValidation: true }), {
        name: 'RpcError',
      });
      const sent = await csms.waitFor(() => csms.frames.find((f) => f.identity === identity && !f.outbound));
      assert.deepEqual(JSON.parse(sent.text)[3], raw);
      const flagged = csms.schemaErrors.filter((e) => e.identity === identity);
      assert.deepEqual(
        flagged.map((e) => [e.outbound, e.isCall, e.method]),
        [[false, true, 'BootNotification']],
      );
      csms.schemaErrors.length = 0; // expected here; the other tests assert it stays empty
    });

    test('closing the socket rejects the call in flight with RpcClosedError', async () => {
      const identity = `CP-${version}-dropped`;
      const slow = await startStrictCsms({
        protocols: [version],
        handlers: { Heartbeat: () => new Promise(() => {}) },
      });
      try {
        const charger = connectCharger({ url: slow.url, identity, version });
        await charger.opened;
        const pending = charger.endpoint.call('Heartbeat', {});
        await slow.waitFor(() => slow.received.find((r) => r.action === 'Heartbeat'));
        charger.socket.drop();
        const info = await charger.closed;
        assert.equal(info.code, 1006);
        await assert.rejects(pending, RpcClosedError);
      } finally {
        await slow.close();
      }
    });
  });
}

describe('charger socket connection failures', () => {
  test('basic auth (security profile 1): the right password is accepted', async (t) => {
    const csms = await startStrictCsms({
      auth: (identity, password) => identity === 'CP-auth' && password === 's3cret:x',
    });
    t.after(() => csms.close());
    const charger = connectCharger({
      url: csms.url,
      identity: 'CP-auth',
      version: 'ocpp1.6',
      password: 's3cret:x',
    });
    t.after(() => charger.socket.close());
    await charger.opened;
    const result = await charger.endpoint.call('BootNotification', bootNotification['ocpp1.6']);
    assert.equal(result.status, 'Accepted');
  });

  test('basic auth: a wrong password fails with HTTP_401', async (t) => {
    const csms = await startStrictCsms({ auth: (_identity, password) => password === 's3cret' });
    t.after(() => csms.close());
    const charger = connectCharger({
      url: csms.url,
      identity: 'CP-auth',
      version: 'ocpp2.0.1',
      password: 'guess',
    });
    const failure = await charger.failed;
    assert.equal(failure.code, 'HTTP_401');
    assert.match(failure.hint, /password/);
  });

  test('nothing listening: WS_CONNECT_REFUSED', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const charger = connectCharger({ url: `ws://127.0.0.1:${port}`, identity: 'CP-1', version: 'ocpp1.6' });
    const failure = await charger.failed;
    assert.equal(failure.code, 'WS_CONNECT_REFUSED');
    assert.match(failure.hint, new RegExp(`127.0.0.1:${port}`));
  });

  test('a CSMS that does not speak the version: SUBPROTOCOL_REJECTED', async (t) => {
    const csms = await startStrictCsms({ protocols: ['ocpp2.0.1'] });
    t.after(() => csms.close());
    const charger = connectCharger({ url: csms.url, identity: 'CP-16', version: 'ocpp1.6' });
    const failure = await charger.failed;
    assert.equal(failure.code, 'SUBPROTOCOL_REJECTED');
  });

  test('the identity is URL-encoded into the path', async (t) => {
    const csms = await startStrictCsms();
    t.after(() => csms.close());
    const identity = 'CP 7/ü';
    const charger = connectCharger({ url: `${csms.url}//`, identity, version: 'ocpp1.6' });
    t.after(() => charger.socket.close());
    await charger.opened;
    await charger.endpoint.call('Heartbeat', {});
    assert.equal(csms.received[0].identity, identity);
  });
});

describe('charger socket keep-alive', () => {
  test('no pong within the ping interval: the socket is terminated (1006)', async (t) => {
    // A server that never answers pings, like a half-open link.
    const server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      autoPong: false,
      handleProtocols: () => 'ocpp1.6',
    });
    await new Promise((resolve) => server.once('listening', resolve));
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as { port: number };
    const charger = connectCharger({
      url: `ws://127.0.0.1:${port}`,
      identity: 'CP-1',
      version: 'ocpp1.6',
      pingIntervalSec: 1,
    });
    await charger.opened;
    const info = await charger.closed;
    assert.equal(info.code, 1006);
  });

  test("the central system's pings are answered, and not while the socket is half-open on purpose", async (t) => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'ocpp1.6' });
    await new Promise((resolve) => server.once('listening', resolve));
    const connected = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
    const { port } = server.address() as { port: number };
    const charger = connectCharger({ url: `ws://127.0.0.1:${port}`, identity: 'CP-2', version: 'ocpp1.6' });
    // Before the server's close, which waits for its connections.
    t.after(() => charger.socket.drop());
    t.after(() => new Promise((resolve) => server.close(resolve)));
    await charger.opened;
    const peer = await connected;
    const pong = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        peer.once('pong', () => {
          clearTimeout(timer);
          resolve(true);
        });
        peer.ping();
      });
    assert.equal(await pong(1000), true);
    charger.socket.setHalfOpen(true);
    assert.equal(await pong(200), false);
    charger.socket.setHalfOpen(false);
    assert.equal(await pong(1000), true);
  });
});

describe('charger socket over TLS', () => {
  let certs: TestCertificates;
  before(async () => {
    certs = await makeTestCertificates('CP-TLS');
  });

  test('security profile 3: a client certificate signed by the CA connects', async (t) => {
    const csms = await startStrictCsms({
      tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true },
    });
    t.after(() => csms.close());
    assert.match(csms.url, /^wss:/);
    const charger = connectCharger({
      url: csms.url,
      identity: 'CP-TLS',
      version: 'ocpp2.0.1',
      tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey },
    });
    t.after(() => charger.socket.close());
    await charger.opened;
    const result = await charger.endpoint.call('BootNotification', bootNotification['ocpp2.0.1']);
    assert.equal(result.status, 'Accepted');
  });

  test('a server certificate we do not trust: TLS_ERROR', async (t) => {
    const csms = await startStrictCsms({ tls: { cert: certs.serverCert, key: certs.serverKey } });
    t.after(() => csms.close());
    const charger = connectCharger({ url: csms.url, identity: 'CP-TLS', version: 'ocpp1.6' });
    const failure = await charger.failed;
    assert.equal(failure.code, 'TLS_ERROR');
  });
});
