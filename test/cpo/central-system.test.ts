// The built-in central system against an independent OCPP implementation: ocpp-rpc's RPCClient in
// strict mode plays the charge point. Also raw `ws` clients for what a library would not send.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient, createRPCError } from 'ocpp-rpc';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../support/service.ts';
import { aChargePointId, until } from './builders.ts';

// OCPP payloads in tests are free-form JSON.
type Json = any;
/** The part of ocpp-rpc's client the tests use, typed for free-form payloads. */
interface Client {
  protocol: string;
  connect(): Promise<unknown>;
  call(method: string, params: Json): Promise<Json>;
  handle(method: string, handler: (call: { params: Json }) => Json): void;
  close(opts?: { force?: boolean }): Promise<unknown>;
}

describe('built-in central system', () => {
  let svc: TestService;
  let a: ReturnType<TestService['as']>;
  let wsBase: string;
  const clients: Client[] = [];

  before(async () => {
    svc = await startTestService({ env: { CSMS_HEARTBEAT_INTERVAL: '120', OCPP_CALL_TIMEOUT_MS: '1500' } });
    a = svc.as('org-a');
    wsBase = svc.url.replace(/^http/, 'ws') + '/ocpp';
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close({ force: true }).catch(() => undefined)));
    await svc.close();
  });

  /** Passwords issued by register(), per identity: every charge point connects with Basic auth. */
  const passwords = new Map<string, string>();
  const basic = (user: string, pass: string) => ({
    authorization: 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64'),
  });

  async function register(
    body: Record<string, unknown> = {},
    opts: { credentials: boolean } = { credentials: true },
  ): Promise<string> {
    const id = aChargePointId();
    const res = await a('POST', '/cpo/charge-points', { body: { charge_point_id: id, ...body } });
    assert.equal(res.status, 201, res.text);
    if (opts.credentials) {
      const issued = await a('POST', `/cpo/charge-points/${id}/credentials`);
      assert.equal(issued.status, 201, issued.text);
      passwords.set(id, issued.body.password);
    }
    return id;
  }

  async function connect(
    identity: string,
    protocols: string[] = ['ocpp1.6'],
    password = passwords.get(identity),
  ): Promise<Client> {
    const options = {
      endpoint: wsBase,
      identity,
      protocols,
      strictMode: true,
      reconnect: false,
      ...(password ? { password } : {}),
    };
    const client = new RPCClient(
      options as unknown as ConstructorParameters<typeof RPCClient>[0],
    ) as unknown as Client;
    clients.push(client);
    await client.connect();
    return client;
  }

  const chargePoint = async (id: string) => (await a('GET', `/cpo/charge-points/${id}`)).body;

  /** The HTTP status a WebSocket upgrade is answered with (101 when it became a WebSocket). */
  function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, ['ocpp1.6'], { headers });
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.on('open', () => {
        resolve(101);
        ws.close();
      });
      ws.on('error', (err) => reject(err));
    });
  }

  /** A raw OCPP-J exchange: sends `frame`, resolves with the first frame answered. */
  function rawExchange(identity: string, protocol: string, frame: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${wsBase}/${identity}`, [protocol], {
        headers: basic(identity, passwords.get(identity) ?? ''),
      });
      ws.on('open', () => ws.send(frame));
      ws.on('message', (data) => {
        resolve(JSON.parse(data.toString()));
        ws.close();
      });
      ws.on('error', reject);
    });
  }

  test('an unknown identity is refused at the upgrade with 404, another path too', async () => {
    assert.equal(await upgradeStatus(`${wsBase}/NOT-REGISTERED`), 404);
    assert.equal(await upgradeStatus(svc.url.replace(/^http/, 'ws') + '/elsewhere/CP-1'), 404);
  });

  test('E22 a registered charge point without credentials is refused at the upgrade (401), also with any password', async () => {
    const id = await register({}, { credentials: false });
    assert.equal(await upgradeStatus(`${wsBase}/${id}`), 401);
    assert.equal(await upgradeStatus(`${wsBase}/${id}`, basic(id, 'any-password-at-all')), 401);
    assert.equal(await upgradeStatus(`${wsBase}/${id}`, basic(id, '')), 401);
    assert.equal((await chargePoint(id)).is_online, false);
  });

  test('with credentials registered, Basic auth is required (401 without or with a wrong password)', async () => {
    const id = await register();
    const password = passwords.get(id)!;
    assert.equal(await upgradeStatus(`${wsBase}/${id}`), 401);
    assert.equal(await upgradeStatus(`${wsBase}/${id}`, basic(id, 'wrong-password-123')), 401);
    assert.equal(await upgradeStatus(`${wsBase}/${id}`, basic('someone-else', password)), 401);
    const client = await connect(id, ['ocpp1.6'], password);
    assert.equal(client.protocol, 'ocpp1.6');
    await client.close();
  });

  test('OCPP 1.6: connect, boot, heartbeat, status on connector 0, disconnect', async () => {
    const id = await register({ connector_count: 2 });
    const client = await connect(id);
    // Online as soon as the connection is up: the row is written before the handshake completes.
    assert.equal((await chargePoint(id)).is_online, true);

    const boot = await client.call('BootNotification', {
      chargePointVendor: 'Acme',
      chargePointModel: 'Fast 50',
      chargePointSerialNumber: 'SN-1',
      firmwareVersion: '1.2.3',
      iccid: '8931',
      meterType: 'DC meter',
    });
    assert.equal(boot.status, 'Accepted');
    assert.equal(boot.interval, 120);
    let cp = await chargePoint(id);
    assert.equal(cp.charge_point_vendor, 'Acme');
    assert.equal(cp.charge_point_model, 'Fast 50');
    assert.equal(cp.charge_point_serial_number, 'SN-1');
    assert.equal(cp.firmware_version, '1.2.3');
    assert.equal(cp.iccid, '8931');
    assert.equal(cp.meter_type, 'DC meter');
    assert.equal(cp.ocpp_version, 'ocpp1.6');

    const beat = await client.call('Heartbeat', {});
    assert.ok(!Number.isNaN(Date.parse(beat.currentTime)));
    await svc.service.deps.cpo.centralSystem.flush();
    cp = await chargePoint(id);
    assert.ok(!Number.isNaN(Date.parse(cp.last_heartbeat)));

    await client.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging' });
    await client.call('StatusNotification', { connectorId: 0, errorCode: 'NoError', status: 'Unavailable' });
    await svc.service.deps.cpo.centralSystem.flush();
    const connectors = (await a('GET', `/cpo/charge-points/${id}/connectors`)).body.items;
    assert.deepEqual(
      connectors.map((c: { evse_id: number; connector_id: number; status: string }) => [
        c.evse_id,
        c.connector_id,
        c.status,
      ]),
      [
        [0, 0, 'Unavailable'],
        [1, 1, 'Unavailable'],
        [2, 1, 'Unavailable'],
      ],
    );

    await client.close();
    await until(async () => (await chargePoint(id)).is_online === false, 'is_online false after disconnect');
  });

  test('use_status_notification_0 false: a connector-0 status changes connector 0 only', async () => {
    const id = await register({ connector_count: 2, use_status_notification_0: false });
    const client = await connect(id);
    await client.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    await client.call('StatusNotification', { connectorId: 0, errorCode: 'NoError', status: 'Unavailable' });
    await svc.service.deps.cpo.centralSystem.flush();
    const connectors = (await a('GET', `/cpo/charge-points/${id}/connectors`)).body.items;
    assert.deepEqual(
      connectors.map((c: { evse_id: number; status: string }) => [c.evse_id, c.status]),
      [
        [0, 'Unavailable'],
        [1, 'Available'],
      ],
    );
    await client.close();
  });

  test('OCPP 1.6 transactions: Start hands out an integer id, Stop completes the session', async () => {
    const id = await register();
    const client = await connect(id);
    const started = await client.call('StartTransaction', {
      connectorId: 1,
      idTag: 'TAG-1',
      meterStart: 1000,
      timestamp: new Date().toISOString(),
    });
    assert.ok(Number.isInteger(started.transactionId));
    assert.equal(started.idTagInfo.status, 'Accepted');
    await client.call('MeterValues', {
      connectorId: 1,
      transactionId: started.transactionId,
      meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: '1.5', unit: 'kWh' }] }],
    });
    let session = (await a('GET', `/cpo/charge-points/${id}/sessions`)).body.items[0];
    assert.equal(session.status, 'ACTIVE');
    assert.equal(session.meter_last_wh, 1500);
    await client.call('StopTransaction', {
      transactionId: started.transactionId,
      meterStop: 4200,
      timestamp: new Date().toISOString(),
      reason: 'EVDisconnected',
    });
    session = (await a('GET', `/cpo/charge-points/${id}/sessions`)).body.items[0];
    assert.equal(session.transaction_id, String(started.transactionId));
    assert.equal(session.status, 'COMPLETED');
    assert.equal(session.id_tag, 'TAG-1');
    assert.equal(session.meter_start_wh, 1000);
    assert.equal(session.meter_stop_wh, 4200);
    assert.equal(session.stop_reason, 'EVDisconnected');
    await client.close();
  });

  test('OCPP 2.0.1: boot, status and a TransactionEvent session', async () => {
    const id = await register();
    const client = await connect(id, ['ocpp2.0.1']);
    assert.equal(client.protocol, 'ocpp2.0.1');
    const boot = await client.call('BootNotification', {
      reason: 'PowerUp',
      chargingStation: { model: 'Station 2', vendorName: 'Acme', firmwareVersion: '2.0.0' },
    });
    assert.equal(boot.status, 'Accepted');
    const cp = await chargePoint(id);
    assert.equal(cp.ocpp_version, 'ocpp2.0.1');
    assert.equal(cp.charge_point_model, 'Station 2');
    const now = new Date().toISOString();
    await client.call('StatusNotification', {
      timestamp: now,
      connectorStatus: 'Occupied',
      evseId: 1,
      connectorId: 1,
    });
    const tx = { transactionId: 'TX-201' };
    const started = await client.call('TransactionEvent', {
      eventType: 'Started',
      timestamp: now,
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: tx,
      idToken: { idToken: 'TOKEN-9', type: 'ISO14443' },
      evse: { id: 1, connectorId: 1 },
    });
    assert.equal(started.idTokenInfo.status, 'Accepted');
    await client.call('TransactionEvent', {
      eventType: 'Ended',
      timestamp: new Date().toISOString(),
      triggerReason: 'EVCommunicationLost',
      seqNo: 1,
      transactionInfo: { ...tx, stoppedReason: 'EVDisconnected' },
      meterValue: [
        {
          timestamp: new Date().toISOString(),
          sampledValue: [{ value: 7.25, unitOfMeasure: { unit: 'kWh' } }],
        },
      ],
    });
    await svc.service.deps.cpo.centralSystem.flush();
    const [connector] = (await a('GET', `/cpo/charge-points/${id}/connectors`)).body.items;
    assert.equal(connector.status, 'Occupied');
    const [session] = (await a('GET', `/cpo/charge-points/${id}/sessions`)).body.items;
    assert.equal(session.transaction_id, 'TX-201');
    assert.equal(session.status, 'COMPLETED');
    assert.equal(session.id_tag, 'TOKEN-9');
    assert.equal(session.meter_stop_wh, 7250);
    assert.equal(session.stop_reason, 'EVDisconnected');
    await client.close();
  });

  test('the subprotocol: the registered version when offered, else the newest offered', async () => {
    const registered = await register({ ocpp_version: 'ocpp1.6' });
    const c1 = await connect(registered, ['ocpp2.0.1', 'ocpp1.6']);
    assert.equal(c1.protocol, 'ocpp1.6');
    await c1.close();
    const open = await register();
    const c2 = await connect(open, ['ocpp1.6', 'ocpp2.0.1']);
    assert.equal(c2.protocol, 'ocpp2.0.1');
    await c2.close();
  });

  test('E23 reboot over OCPP 1.6 sends Reset Soft and answers 200 with the tracking fields', async () => {
    const id = await register();
    const client = await connect(id);
    const resets: unknown[] = [];
    client.handle('Reset', ({ params }) => {
      resets.push(params);
      return { status: 'Accepted' };
    });
    const res = await a('POST', `/cpo/charge-points/${id}/reboot`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(resets, [{ type: 'Soft' }]);
    assert.match(res.body.tracking_id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.charge_point_id, id);
    assert.equal(res.body.ocpp_version, 'ocpp1.6');
    assert.equal(res.body.version_path, 'v16');
    assert.equal(res.body.payload_type, 'ResetRequest');
    assert.equal(res.body.status, 'Accepted');
    const op = await a('GET', `/cpo/operations/${res.body.tracking_id}`);
    assert.equal(op.status, 200);
    assert.equal(op.body.status, 'Accepted');
    assert.equal(op.body.action, 'Reset');
    assert.deepEqual(op.body.request, { type: 'Soft' });
    assert.equal((await svc.as('org-b')('GET', `/cpo/operations/${res.body.tracking_id}`)).status, 404);
    assert.ok((await chargePoint(id)).responded_at);
    await client.close();
  });

  test('E23 reboot over OCPP 2.0.1 sends Reset OnIdle', async () => {
    const id = await register();
    const client = await connect(id, ['ocpp2.0.1']);
    const resets: unknown[] = [];
    client.handle('Reset', ({ params }) => {
      resets.push(params);
      return { status: 'Scheduled' };
    });
    const res = await a('POST', `/cpo/charge-points/${id}/reboot`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(resets, [{ type: 'OnIdle' }]);
    assert.equal(res.body.ocpp_version, 'ocpp2.0.1');
    assert.equal(res.body.version_path, 'v201');
    assert.equal(res.body.status, 'Scheduled');
    await client.close();
  });

  test('E23 answers 502 when the charger answers with a CALLERROR', async () => {
    const id = await register();
    const client = await connect(id);
    client.handle('Reset', () => {
      throw createRPCError('InternalError', 'relay stuck');
    });
    const res = await a('POST', `/cpo/charge-points/${id}/reboot`);
    assert.equal(res.status, 502);
    assert.deepEqual(res.body, { detail: 'Charge point answered Reset with InternalError: relay stuck' });
    await client.close();
  });

  test('E23 answers 504 when the charger does not answer in time', async () => {
    const id = await register();
    const client = await connect(id);
    client.handle('Reset', () => new Promise(() => undefined));
    const res = await a('POST', `/cpo/charge-points/${id}/reboot`);
    assert.equal(res.status, 504);
    assert.deepEqual(res.body, { detail: `Charge point '${id}' did not answer Reset within 1500 ms` });
    await client.close({ force: true });
  });

  test('an invalid OCPP 1.6 message is answered with the CALLERROR its schema violation calls for', async () => {
    const id = await register();
    const missing = await rawExchange(id, 'ocpp1.6', JSON.stringify([2, 'm1', 'BootNotification', {}]));
    assert.equal((missing as unknown[])[0], 4);
    assert.equal((missing as unknown[])[1], 'm1');
    assert.equal((missing as unknown[])[2], 'OccurenceConstraintViolation');
    const wrongType = await rawExchange(
      id,
      'ocpp1.6',
      JSON.stringify([
        2,
        'm2',
        'StatusNotification',
        { connectorId: 'one', errorCode: 'NoError', status: 'Available' },
      ]),
    );
    assert.deepEqual((wrongType as unknown[]).slice(0, 3), [4, 'm2', 'TypeConstraintViolation']);
    const unknown = await rawExchange(id, 'ocpp1.6', JSON.stringify([2, 'm3', 'Teleport', {}]));
    assert.deepEqual((unknown as unknown[]).slice(0, 3), [4, 'm3', 'NotImplemented']);
  });

  test('an unreadable OCPP 2.0.1 frame is answered with message id -1', async () => {
    const id = await register();
    const answer = (await rawExchange(id, 'ocpp2.0.1', 'this is not json')) as unknown[];
    assert.equal(answer[0], 4);
    assert.equal(answer[1], '-1');
    assert.equal(answer[2], 'RpcFrameworkError');
  });
});
