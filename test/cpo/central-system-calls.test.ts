// Operations of the built-in central system: POST /cpo/charge-points/{id}/calls sends any CALL of
// the charge point's OCPP version. ocpp-rpc's RPCClient in strict mode plays the charge point, so
// every CALL that reaches it has passed an independent implementation's schema check.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient, createRPCError } from 'ocpp-rpc';
import { startTestService, type TestService } from '../support/service.ts';
import { aChargePointId, until } from './builders.ts';

// OCPP payloads in tests are free-form JSON.
type Json = any;
interface Client {
  protocol: string;
  connect(): Promise<unknown>;
  handle(method: string, handler: (call: { params: Json }) => Json): void;
  close(opts?: { force?: boolean }): Promise<unknown>;
}

/** One CALL per row: what is sent, what the charge point answers. */
interface Case {
  action: string;
  payload: Json;
  response: Json;
}

const component = { name: 'OCPPCommCtrlr' };
const variable = { name: 'HeartbeatInterval' };

const CASES: Record<'ocpp1.6' | 'ocpp2.0.1', Case[]> = {
  'ocpp1.6': [
    {
      action: 'RemoteStartTransaction',
      payload: { connectorId: 1, idTag: 'TAG-1' },
      response: { status: 'Accepted' },
    },
    {
      action: 'TriggerMessage',
      payload: { requestedMessage: 'StatusNotification', connectorId: 1 },
      response: { status: 'Accepted' },
    },
    {
      action: 'ChangeConfiguration',
      payload: { key: 'HeartbeatInterval', value: '60' },
      response: { status: 'Accepted' },
    },
    {
      action: 'GetConfiguration',
      payload: { key: ['HeartbeatInterval', 'NoSuchKey'] },
      response: {
        configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '60' }],
        unknownKey: ['NoSuchKey'],
      },
    },
    { action: 'Reset', payload: { type: 'Hard' }, response: { status: 'Accepted' } },
  ],
  'ocpp2.0.1': [
    {
      action: 'RequestStartTransaction',
      payload: { evseId: 1, remoteStartId: 7, idToken: { idToken: 'TAG-1', type: 'ISO14443' } },
      response: { status: 'Accepted', transactionId: 'TX-1' },
    },
    {
      action: 'TriggerMessage',
      payload: { requestedMessage: 'Heartbeat' },
      response: { status: 'Accepted' },
    },
    {
      action: 'SetVariables',
      payload: { setVariableData: [{ component, variable, attributeValue: '60' }] },
      response: { setVariableResult: [{ attributeStatus: 'Accepted', component, variable }] },
    },
    {
      action: 'GetVariables',
      payload: { getVariableData: [{ component, variable }] },
      response: {
        getVariableResult: [{ attributeStatus: 'Accepted', attributeValue: '60', component, variable }],
      },
    },
    { action: 'Reset', payload: { type: 'Immediate' }, response: { status: 'Accepted' } },
  ],
};

describe('operations of the built-in central system', () => {
  let svc: TestService;
  let a: ReturnType<TestService['as']>;
  let wsBase: string;
  const clients: Client[] = [];

  before(async () => {
    svc = await startTestService({ env: { OCPP_CALL_TIMEOUT_MS: '1000' } });
    a = svc.as('org-a');
    wsBase = svc.url.replace(/^http/, 'ws') + '/ocpp';
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close({ force: true }).catch(() => undefined)));
    await svc.close();
  });

  async function register(): Promise<{ id: string; password: string }> {
    const id = aChargePointId();
    const res = await a('POST', '/cpo/charge-points', { body: { charge_point_id: id, connector_count: 2 } });
    assert.equal(res.status, 201, res.text);
    const issued = await a('POST', `/cpo/charge-points/${id}/credentials`);
    assert.equal(issued.status, 201, issued.text);
    return { id, password: issued.body.password };
  }

  /** A registered charge point connected with `version` by a strict ocpp-rpc client. */
  async function connected(version: string): Promise<{ id: string; client: Client }> {
    const { id, password } = await register();
    const options = {
      endpoint: wsBase,
      identity: id,
      password,
      protocols: [version],
      strictMode: true,
      reconnect: false,
    };
    const client = new RPCClient(
      options as unknown as ConstructorParameters<typeof RPCClient>[0],
    ) as unknown as Client;
    clients.push(client);
    await client.connect();
    assert.equal(client.protocol, version);
    return { id, client };
  }

  const send = (id: string, body: Json, as = a) => as('POST', `/cpo/charge-points/${id}/calls`, { body });

  for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const) {
    test(`${version}: each CALL reaches the charge point as sent and its CALLRESULT comes back`, async () => {
      const { id, client } = await connected(version);
      for (const c of CASES[version]) {
        const received: Json[] = [];
        client.handle(c.action, ({ params }) => {
          received.push(params);
          return c.response;
        });
        const res = await send(id, { action: c.action, payload: c.payload });
        assert.equal(res.status, 200, `${c.action}: ${res.text}`);
        assert.deepEqual(res.body, { action: c.action, response: c.response });
        assert.deepEqual(received, [c.payload], c.action);
      }
    });

    test(`${version}: a CALLERROR of the charge point is passed back with its code, description and details`, async () => {
      const { id, client } = await connected(version);
      client.handle('TriggerMessage', () => {
        throw createRPCError('InternalError', 'modem busy', { retry_in: 5 });
      });
      const res = await send(id, { action: 'TriggerMessage', payload: { requestedMessage: 'Heartbeat' } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        action: 'TriggerMessage',
        error: { code: 'InternalError', description: 'modem busy', details: { retry_in: 5 } },
      });
    });
  }

  test('an action the charge point does not handle comes back as its NotImplemented CALLERROR', async () => {
    const { id } = await connected('ocpp1.6');
    const res = await send(id, { action: 'ClearCache', payload: {} });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.error.code, 'NotImplemented');
  });

  test('the CALL and its answer are recorded in the charge point message log', async () => {
    const { id, client } = await connected('ocpp1.6');
    client.handle('ChangeConfiguration', () => ({ status: 'Rejected' }));
    const res = await send(id, {
      action: 'ChangeConfiguration',
      payload: { key: 'MeterValueSampleInterval', value: '10' },
    });
    assert.equal(res.status, 200, res.text);
    const items = await until(async () => {
      const page = await a('GET', `/cpo/charge-points/${id}/ocpp-log`);
      const frames = page.body.items as Json[];
      return frames.length >= 2 ? frames : undefined;
    }, 'the CALL and its CALLRESULT in the message log');
    const call = items.find((i: Json) => i.type === 'CALL' && i.action === 'ChangeConfiguration');
    assert.ok(call, JSON.stringify(items));
    assert.equal(call.direction, 'out');
    assert.deepEqual(call.frame[3], { key: 'MeterValueSampleInterval', value: '10' });
    const result = items.find((i: Json) => i.type === 'CALLRESULT' && i.message_id === call.message_id);
    assert.ok(result, JSON.stringify(items));
    assert.equal(result.direction, 'in');
    assert.deepEqual(result.frame[2], { status: 'Rejected' });
  });

  test('504 when the charge point does not answer within the call timeout', async () => {
    const { id, client } = await connected('ocpp2.0.1');
    client.handle('GetVariables', () => new Promise(() => undefined));
    const res = await send(id, {
      action: 'GetVariables',
      payload: { getVariableData: [{ component, variable }] },
    });
    assert.equal(res.status, 504, res.text);
    assert.deepEqual(res.body, { detail: `Charge point '${id}' did not answer GetVariables within 1000 ms` });
  });

  test('409 when the charge point is not connected', async () => {
    const { id } = await register();
    const res = await send(id, { action: 'Reset', payload: { type: 'Soft' } });
    assert.equal(res.status, 409, res.text);
    assert.deepEqual(res.body, { detail: `Charge point '${id}' is not connected to the central system` });
  });

  test('422 with loc into payload when the payload breaks the version schema; nothing is sent', async () => {
    const { id, client } = await connected('ocpp1.6');
    let sent = 0;
    client.handle('RemoteStartTransaction', () => {
      sent++;
      return { status: 'Accepted' };
    });
    const missing = await send(id, { action: 'RemoteStartTransaction', payload: { connectorId: 1 } });
    assert.equal(missing.status, 422, missing.text);
    assert.deepEqual(missing.body.detail[0].loc, ['body', 'payload', 'idTag']);
    const wrongType = await send(id, {
      action: 'RemoteStartTransaction',
      payload: { idTag: 'T', connectorId: 'one' },
    });
    assert.equal(wrongType.status, 422, wrongType.text);
    assert.deepEqual(wrongType.body.detail[0].loc, ['body', 'payload', 'connectorId']);
    // A 2.0.1 name is not an action of 1.6.
    const otherVersion = await send(id, {
      action: 'RequestStartTransaction',
      payload: { remoteStartId: 1, idToken: { idToken: 'T', type: 'ISO14443' } },
    });
    assert.equal(otherVersion.status, 422, otherVersion.text);
    assert.deepEqual(otherVersion.body.detail[0].loc, ['body', 'action']);
    assert.equal(sent, 0);
  });

  test('422 with loc into a nested payload item (2.0.1 SetVariables)', async () => {
    const { id } = await connected('ocpp2.0.1');
    const res = await send(id, {
      action: 'SetVariables',
      payload: {
        setVariableData: [{ component, variable, attributeValue: '60', attributeType: 'Sideways' }],
      },
    });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'payload', 'setVariableData', 0, 'attributeType']);
  });

  test("another organization's charge point is a 404, connected or not", async () => {
    const { id } = await connected('ocpp1.6');
    const res = await send(id, { action: 'Reset', payload: { type: 'Soft' } }, svc.as('org-b'));
    assert.equal(res.status, 404, res.text);
    assert.equal((await send('CP-NOBODY', { action: 'Reset', payload: { type: 'Soft' } })).status, 404);
  });

  test('the OpenAPI document describes the route with its body and answer', async () => {
    const doc = (await a('GET', '/openapi.json')).body;
    const op = doc.paths['/cpo/charge-points/{charge_point_id}/calls'].post;
    const body = op.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(body.properties ?? resolve(doc, body).properties).sort(), [
      'action',
      'payload',
    ]);
    const answer = op.responses['200'].content['application/json'].schema;
    assert.deepEqual(Object.keys(answer.properties ?? resolve(doc, answer).properties).sort(), [
      'action',
      'error',
      'response',
    ]);
    for (const status of ['404', '409', '422', '504']) assert.ok(op.responses[status], status);
  });
});

/** A `$ref` of the document, resolved. */
function resolve(doc: Json, schema: Json): Json {
  return schema.$ref
    .split('/')
    .slice(1)
    .reduce((at: Json, key: string) => at[key], doc);
}
