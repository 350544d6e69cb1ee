// A stream served by a node that does not hold the charger: node 1 runs the charger (and its
// connection to the built-in central system), node 2's API serves the log, its page and its live
// stream. The nodes share only the database and the broker, as two processes would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../deployments/deployment-helpers.ts';
import { run } from '../commands/command-helpers.ts';
import { logUntil, openEventStream } from './log-helpers.ts';

describe(`OCPP message log stream across nodes (${MODE})`, () => {
  let node1: TestService;
  let node2: TestService;
  let csms: StrictCsms;

  before(async () => {
    csms = await startStrictCsms();
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
    await csms.close();
  });

  test("node 2 replays and streams live the frames of a charger node 1 holds; nobody's frames are published unwatched", async () => {
    const as1 = node1.as('org-nodes');
    const as2 = node2.as('org-nodes');
    const res = await as1('POST', '/evcharger/deployment', {
      body: { identity: 'NODES-1', model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' },
    });
    assert.equal(res.status, 201, res.text);
    const id = res.body.deployment_id;
    await eventually(
      () => eventsOf(as2, 'NODES-1'),
      (ev) => ev.some((e) => e.stage === 'online'),
    );
    assert.ok(node1.service.deps.deployments.host.holds(id));
    assert.ok(!node2.service.deps.deployments.host.holds(id));
    const path = `/evcharger/deployments/${id}/ocpp-log`;
    const logged = await logUntil(as2, path, (items) => items.length >= 4);

    // Watch what node 1 publishes for this charger: nothing while nobody streams it.
    const published: string[] = [];
    const spy = (topic: string) => {
      if (topic.includes(`/ocpp-log/${id}/frames`)) published.push(topic);
    };
    const mqtt2 = node2.service.platform.mqtt.client;
    await mqtt2.subscribeAsync(`${node1.service.platform.config.mqttTopicPrefix}/ocpp-log/${id}/frames`);
    mqtt2.on('message', spy);
    try {
      await run(as2, 'configuration', {
        target: { deployment_id: id },
        payload: { key: 'HeartbeatInterval', value: '1' },
      });
      await logUntil(as2, path, (items) => items.some((i) => i.action === 'Heartbeat'));
      assert.deepEqual(published, [], 'frames were published while nobody watched');

      const stream = await openEventStream(
        `${node2.url}${path}/stream?replay=3`,
        await node2.token('org-nodes'),
      );
      assert.equal(stream.status, 200, stream.text);
      try {
        // First the three newest items, oldest first, then live heartbeats from node 1.
        await stream.waitFor(() => stream.items().length >= 3);
        const replayed = stream.items().slice(0, 3);
        for (let k = 1; k < 3; k++) assert.ok(BigInt(replayed[k].id) > BigInt(replayed[k - 1].id));
        assert.ok(BigInt(replayed[0].id) > BigInt(logged[0].id), 'the newest, not the oldest');
        const afterReplay = replayed[2].id;
        await stream.waitFor(
          () =>
            stream.items().filter((i) => BigInt(i.id) > BigInt(afterReplay) && i.action === 'Heartbeat')
              .length >= 4,
        );
        const items = stream.items();
        for (let k = 1; k < items.length; k++) assert.ok(BigInt(items[k].id) > BigInt(items[k - 1].id));
        assert.ok(published.length > 0, 'node 1 published the watched frames');
        // What node 2 streamed is what node 1 wrote.
        const last = items[items.length - 1].id;
        const stored = await logUntil(as2, path, (list) => list.some((i) => i.id === last));
        const storedById = new Map(stored.map((i) => [i.id, i]));
        for (const item of items) assert.deepEqual(item, storedById.get(item.id));
      } finally {
        stream.close();
      }
    } finally {
      mqtt2.off('message', spy);
      await run(as2, 'configuration', {
        target: { deployment_id: id },
        payload: { key: 'HeartbeatInterval', value: '300' },
      });
    }
  });
});
