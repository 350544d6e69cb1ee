// NODE_ROLE (docs/operations.md "Several nodes"): an engine-only node runs chargers and serves no
// API; an API-only node runs none, and the chargers deployed through it go to a live engine node.
// Two services of this process on one database and one broker, as two processes would share them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../deployments/deployment-helpers.ts';

describe(`node roles (${MODE})`, () => {
  let engine: TestService;
  let api: TestService;
  let csms: StrictCsms;

  before(async () => {
    csms = await startStrictCsms();
    engine = await startTestService({ env: { NODE_ROLE: 'engine', NODE_ID: 'engine-only-1' } });
    const { config, embedded } = engine.service.platform;
    api = await startTestService({
      databaseUrl: config.databaseUrl ?? embedded.postgres!.url,
      mqttUrl: config.mqttUrl ?? embedded.broker!.url,
      env: { MQTT_TOPIC_PREFIX: config.mqttTopicPrefix, NODE_ROLE: 'api', NODE_ID: 'api-only-1' },
    });
  });
  after(async () => {
    await api?.close();
    await engine?.close();
    await csms?.close();
  });

  test('an engine-only node serves health but no API route', async () => {
    assert.equal((await engine.request('GET', '/health/ready')).status, 200);
    assert.equal((await engine.as('org-roles')('GET', '/evcharger/deployments')).status, 404);
  });

  test('a charger deployed through an API-only node runs on the engine node', async () => {
    const as = api.as('org-roles');
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity: 'ROLES-1', model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' },
    });
    assert.equal(res.status, 201, res.text);
    await eventually(
      () => eventsOf(as, 'ROLES-1'),
      (events) => events.some((e) => e.stage === 'online'),
    );
    assert.ok(csms.clients.has('ROLES-1'));
    assert.equal(engine.service.deps.deployments.host.holds(res.body.deployment_id), true);
    assert.equal(api.service.deps.deployments.host.size, 0);
    const { rows } = await api.service.platform.db.query<{ node_id: string }>(
      'SELECT node_id FROM evc_charger_leases WHERE deployment_id = $1',
      [res.body.deployment_id],
    );
    assert.deepEqual(rows, [{ node_id: 'engine-only-1' }]);
  });
});
