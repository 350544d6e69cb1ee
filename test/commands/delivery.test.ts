// Delivery guarantees of the command bus: 503 and no row while the broker is gone (and commands
// again once it is back), a redelivered MQTT message runs once, and no command stays open forever:
// an offline or stopped charger fails it, a charger that never answers times it out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MODE,
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  createTestDatabase,
  dropTestDatabase,
  startTestService,
  testDatabaseUrl,
  type TestService,
} from '../support/service.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { eventsOf, eventually, type As } from '../deployments/deployment-helpers.ts';
import { commandTopic } from '../../engine/commands/command-topics.ts';
import { deployOnline, finalOf, run, sendOne } from './command-helpers.ts';

/** Short, so the never-answered command times out quickly (the sweep runs every 375 ms). */
const COMMAND_TIMEOUT_MS = 1_500;

describe(`command delivery (${MODE})`, () => {
  let svc: TestService;
  let csms: StrictCsms;
  let as: As;
  let deploymentId: string;
  let stopBroker: () => Promise<void>;
  let startBroker: () => Promise<void>;
  let cleanup: () => Promise<void>;
  // Kept unanswered until the end: the CSMS never answers a DataTransfer with messageId 'hang'.
  const hung: Array<() => void> = [];

  before(async () => {
    csms = await startStrictCsms({
      handlers: {
        DataTransfer: (p) =>
          p.messageId === 'hang'
            ? new Promise((resolve) => hung.push(() => resolve({ status: 'Rejected' })))
            : { status: 'Accepted' },
      },
    });
    const env = { COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) };
    if (MODE === 'embedded') {
      svc = await startTestService({ env });
      const broker = svc.service.platform.embedded.broker!;
      stopBroker = () => broker.stop();
      startBroker = () => broker.restart();
      cleanup = () => svc.close();
    } else {
      // The shared broker stays up; the service reaches it through a proxy we can cut.
      const mq = new URL(REAL_MQTT_URL ?? 'mqtt://127.0.0.1:1883');
      const proxy = await startTcpProxy(mq.hostname, Number(mq.port || 1883));
      const database = await createTestDatabase();
      svc = await startTestService({
        env,
        databaseUrl: testDatabaseUrl(REAL_DATABASE_URL!, database),
        mqttUrl: `mqtt://127.0.0.1:${proxy.port}`,
      });
      stopBroker = async () => proxy.cut();
      startBroker = async () => proxy.restore();
      cleanup = async () => {
        await svc.close();
        await proxy.close();
        await dropTestDatabase(database);
      };
    }
    as = svc.as('org-dlv');
    deploymentId = await deployOnline(as, 'DLV-1', 'ocpp1.6', csms.url);
  });

  after(async () => {
    for (const answer of hung) answer();
    await cleanup();
    await csms.close();
  });

  const rows = async () =>
    Number(
      (await svc.service.platform.db.query<{ n: string }>('SELECT count(*) AS n FROM evc_commands')).rows[0]
        .n,
    );
  const dataTransfers = (messageId: string) =>
    csms.received.filter((r) => r.action === 'DataTransfer' && r.params.messageId === messageId);

  test('503 while the broker is gone, with no row left behind; commands run again once it is back', async () => {
    const before = await rows();
    await stopBroker();
    await eventually(
      async () => svc.service.platform.mqtt.connected,
      (c) => !c,
    );
    const res = await as('POST', '/evcharger/commands/cache/reset', {
      body: { target: { identity: 'DLV-1' } },
    });
    assert.equal(res.status, 503, res.text);
    assert.match(res.body.detail, /not started|broker/);
    assert.equal(await rows(), before, 'no command row is left behind');

    await startBroker();
    const back = await eventually(
      () => as('POST', '/evcharger/commands/cache/reset', { body: { target: { identity: 'DLV-1' } } }),
      (r) => r.status === 202,
    );
    const r = await finalOf(as, back.body.results[0].command.id);
    assert.equal(r.status, 'completed', JSON.stringify(r));
  });

  test('a redelivered MQTT message runs the command once', async () => {
    const { store } = svc.service.deps.commands;
    const id = '22222222-2222-4222-8222-222222222222';
    await store.insert([
      {
        id,
        organization_id: 'org-dlv',
        deployment_id: deploymentId,
        identity: 'DLV-1',
        event_type: 'proxy-message',
        ocpp_version: 'ocpp1.6',
        payload: { action: 'DataTransfer', payload: { vendorId: 'acme', messageId: 'dup' } },
      },
    ]);
    const message = JSON.stringify({
      id,
      deployment_id: deploymentId,
      event: {
        type: 'PROXY_CALL',
        action: 'DataTransfer',
        payload: { vendorId: 'acme', messageId: 'dup' },
        commandId: id,
      },
    });
    const { client } = svc.service.platform.mqtt;
    const topic = commandTopic(svc.service.platform.config.mqttTopicPrefix, deploymentId);
    // Twice at once (one batch), and once more after it ran.
    await Promise.all([
      client.publishAsync(topic, message, { qos: 1 }),
      client.publishAsync(topic, message, { qos: 1 }),
    ]);
    const r = await finalOf(as, id);
    assert.equal(r.status, 'completed', JSON.stringify(r));
    await client.publishAsync(topic, message, { qos: 1 });
    // A later command on the same topic completes after the redelivery was consumed (same topic, in order).
    const later = await run(as, 'proxy-message', {
      target: { identity: 'DLV-1' },
      payload: { action: 'DataTransfer', payload: { vendorId: 'acme', messageId: 'after-dup' } },
    });
    assert.equal(later.status, 'completed');
    assert.equal(dataTransfers('dup').length, 1, 'the CSMS received the proxied call once');
    assert.equal((await finalOf(as, id)).completed_at, r.completed_at);
  });

  test('a charger that never answers: the command ends timed_out at its deadline', async () => {
    const r = await run(as, 'proxy-message', {
      target: { identity: 'DLV-1' },
      payload: { action: 'DataTransfer', payload: { vendorId: 'acme', messageId: 'hang' } },
    });
    assert.equal(r.status, 'timed_out', JSON.stringify(r));
    assert.equal(r.error?.code, 'TIMEOUT');
    assert.ok(r.received_at, 'the charger had received it');
    assert.ok(r.completed_at);
  });

  test('a charger without a connection to its central system fails the proxy message (OFFLINE)', async () => {
    const res = await as('POST', '/evcharger/deployment', {
      body: {
        identity: 'DLV-OFF',
        model: 'abb-a400',
        ws_url: 'ws://127.0.0.1:9/none',
        ocpp_version: 'ocpp1.6',
      },
    });
    assert.equal(res.status, 201, res.text);
    await eventually(
      () => eventsOf(as, 'DLV-OFF'),
      (events) => events.some((e) => e.stage === 'connecting' || e.stage === 'offline'),
    );
    const r = await run(as, 'proxy-message', {
      target: { identity: 'DLV-OFF' },
      payload: { action: 'Heartbeat', payload: {} },
    });
    assert.equal(r.status, 'failed', JSON.stringify(r));
    assert.equal(r.error?.code, 'OFFLINE');
  });

  test('a stopped charger fails the command at once (NOT_RUNNING)', async () => {
    const stop = await as('POST', '/evcharger/deployment-runtime-ops', {
      body: { action: 'stop', deployment_id: deploymentId },
    });
    assert.equal(stop.status, 202, stop.text);
    await eventually(
      () => eventsOf(as, 'DLV-1'),
      (events) => events[0]?.stage === 'stopped',
    );
    const id = await sendOne(as, 'plug-in', { target: { deployment_id: deploymentId } });
    const r = await finalOf(as, id);
    assert.equal(r.status, 'failed', JSON.stringify(r));
    assert.equal(r.error?.code, 'NOT_RUNNING');
    assert.match(r.error!.description!, /stopped/);
  });
});
