// The node's MQTT session survives a restart: its client id is stable per node and topic prefix
// (the node id is kept in DATA_DIR, or given as NODE_ID), and the session is persistent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { NODE_ID_FILE, nodeIdentity } from '../../engine/platform/node-identity.ts';
import { mqttClientId } from '../../engine/platform/mqtt/mqtt-connection.ts';
import { silentLog } from '../support/database.ts';
import { startTestService } from '../support/service.ts';

test('the node id is generated once and kept in DATA_DIR; every start is a new run of it', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-node-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ DATA_DIR: dataDir });
  const first = nodeIdentity(config, silentLog);
  const second = nodeIdentity(config, silentLog);
  assert.equal(second.id, first.id);
  assert.notEqual(second.run, first.run);
  assert.equal(readFileSync(join(dataDir, NODE_ID_FILE), 'utf8').trim(), first.id);
  assert.equal(first.tag, `${first.id}/${first.run}`);
});

test('NODE_ID names the node; an invalid one is a configuration error', () => {
  const config = loadConfig({ DATA_DIR: '/nonexistent/evsim', NODE_ID: 'engine-7' });
  assert.equal(nodeIdentity(config, silentLog).id, 'engine-7');
  assert.throws(() => loadConfig({ NODE_ID: 'a b' }), /NODE_ID/);
});

test('the MQTT client id is stable per node and topic prefix, and at most 23 characters', () => {
  assert.equal(mqttClientId('evsim', 'engine-7'), mqttClientId('evsim', 'engine-7'));
  assert.notEqual(mqttClientId('evsim', 'engine-7'), mqttClientId('other', 'engine-7'));
  assert.notEqual(mqttClientId('evsim', 'engine-7'), mqttClientId('evsim', 'engine-8'));
  assert.ok(mqttClientId('evsim', 'engine-7').length <= 23);
});

test('a restarted service comes back under the same persistent MQTT session', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-node-'));
  const env = { MQTT_TOPIC_PREFIX: `t${process.pid}${Date.now().toString(36)}` };
  const ids: string[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const svc = await startTestService({ dataDir, env });
      const { options } = svc.service.platform.mqtt.client;
      ids.push(options.clientId!);
      assert.equal(options.clean, false);
      await svc.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  assert.equal(ids[1], ids[0]);
});
