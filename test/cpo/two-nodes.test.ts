// E23 across processes: the charger is connected to node 1, the reboot is asked of node 2's API.
// The nodes share only the database and the MQTT broker (and its topic prefix), as two processes would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { startTestService, type TestService } from '../support/service.ts';
import { aChargePointId, until } from './builders.ts';

type Json = any;
interface Client {
  connect(): Promise<unknown>;
  handle(method: string, handler: (call: { params: Json }) => Json): void;
  close(opts?: { force?: boolean }): Promise<unknown>;
}

describe('central system on another node', () => {
  let node1: TestService;
  let node2: TestService;

  before(async () => {
    node1 = await startTestService();
    const { config, embedded } = node1.service.platform;
    node2 = await startTestService({
      databaseUrl: config.databaseUrl ?? embedded.postgres!.url,
      mqttUrl: config.mqttUrl ?? embedded.broker!.url,
      env: { MQTT_TOPIC_PREFIX: config.mqttTopicPrefix },
    });
  });
  after(async () => {
    await node2.close();
    await node1.close();
  });

  test('E23 reboot through node 2 reaches the charger held by node 1', async () => {
    const id = aChargePointId();
    assert.equal(
      (await node2.as('org-a')('POST', '/cpo/charge-points', { body: { charge_point_id: id } })).status,
      201,
    );
    const { password } = (await node2.as('org-a')('POST', `/cpo/charge-points/${id}/credentials`)).body;
    const client = new RPCClient({
      endpoint: node1.url.replace(/^http/, 'ws') + '/ocpp',
      identity: id,
      password,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
    } as unknown as ConstructorParameters<typeof RPCClient>[0]) as unknown as Client;
    const resets: unknown[] = [];
    client.handle('Reset', ({ params }) => {
      resets.push(params);
      return { status: 'Accepted' };
    });
    await client.connect();
    assert.equal(node1.service.deps.cpo.centralSystem.connectionCount, 1);
    assert.equal(node2.service.deps.cpo.centralSystem.connectionCount, 0);

    const res = await node2.as('org-a')('POST', `/cpo/charge-points/${id}/reboot`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'Accepted');
    assert.deepEqual(resets, [{ type: 'Soft' }]);

    await client.close();
    await until(
      async () => (await node2.as('org-a')('GET', `/cpo/charge-points/${id}`)).body.is_online === false,
      'is_online false seen by node 2',
    );
  });
});
