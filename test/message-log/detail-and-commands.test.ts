// GET /evcharger/deployments/{id} (a charger in detail) and GET /evcharger/commands (the command
// list), both read from persisted state, against a charger connected to the strict central system.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { eventually } from '../deployments/deployment-helpers.ts';
import { deployOnline, run, type CommandRecord } from '../commands/command-helpers.ts';

const DETAIL_KEYS = [
  'deployment_id',
  'identity',
  'ocpp_version',
  'model',
  'location_id',
  'stage',
  'outcome',
  'security',
  'connectors',
  'charging_profiles',
  'configuration',
  'last_heartbeat_at',
  'display_message',
  'updated_at',
];
const RECORD_KEYS = [
  'id',
  'charger_id',
  'identity',
  'event_type',
  'status',
  'payload',
  'response',
  'error',
  'created_at',
  'received_at',
  'completed_at',
];

describe(`charger detail and command list (${MODE})`, () => {
  let svc: TestService;
  let csms: StrictCsms;
  let as: As;
  let id16: string;
  let id201: string;

  before(async () => {
    csms = await startStrictCsms();
    svc = await startTestService();
    as = svc.as('org-detail');
    id16 = await deployOnline(as, 'DET16-1', 'ocpp1.6', csms.url);
    id201 = await deployOnline(as, 'DET201-1', 'ocpp2.0.1', csms.url);
  });
  after(async () => {
    await svc.close();
    await csms.close();
  });

  const detail = (id: string) => as('GET', `/evcharger/deployments/${id}`);

  test('the detail of an online charger: the contract shape, connectors 1..n, configuration, heartbeat', async () => {
    const res = await eventually(
      () => detail(id16),
      (r) => r.body.last_heartbeat_at !== null,
    );
    assert.equal(res.status, 200, res.text);
    const d = res.body;
    assert.deepEqual(Object.keys(d), DETAIL_KEYS);
    assert.equal(d.deployment_id, id16);
    assert.equal(d.identity, 'DET16-1');
    assert.equal(d.ocpp_version, 'ocpp1.6');
    assert.equal(d.model, 'abb-a400');
    assert.equal(d.location_id, null);
    assert.equal(d.stage, 'online');
    assert.deepEqual(d.security, { profile: 0, has_password: false, has_client_cert: false });
    assert.deepEqual(
      d.connectors.map((c: any) => [c.connector_id, c.evse_id, c.status]),
      [
        [1, null, 'Available'],
        [2, null, 'Available'],
      ],
    );
    assert.deepEqual(d.charging_profiles, []);
    assert.deepEqual(
      d.configuration.find((e: any) => e.key === 'HeartbeatInterval'),
      { key: 'HeartbeatInterval', value: '300', readonly: false },
    );
    assert.ok(
      d.configuration.every((e: any) => typeof e.value === 'string' && typeof e.readonly === 'boolean'),
    );
    // The charger heartbeats by its own clock: registration accepted, interval 300 s.
    const boot = csms.received.find((r) => r.identity === 'DET16-1' && r.action === 'BootNotification')!;
    assert.ok(Math.abs(Date.parse(d.last_heartbeat_at) - boot.at) < 5_000, d.last_heartbeat_at);
    assert.ok(!Number.isNaN(Date.parse(d.updated_at)));

    const v201 = (await detail(id201)).body;
    assert.deepEqual(
      v201.connectors.map((c: any) => [c.connector_id, c.evse_id]),
      [
        [1, 1],
        [2, 2],
      ],
    );
    assert.ok(v201.configuration.some((e: any) => e.key === 'OCPPCommCtrlr.HeartbeatInterval'));
  });

  test('a session shows on the connector: EV connected, token, transaction id as a string', async () => {
    const target = { deployment_id: id16 };
    assert.equal((await run(as, 'plug-in', { target, payload: { connector_id: 2 } })).status, 'completed');
    const token = await run(as, 'present-token', { target, payload: { id_tag: 'TAG-DET', connector_id: 2 } });
    assert.equal(token.status, 'completed', JSON.stringify(token));
    const res = await eventually(
      () => detail(id16),
      (r) => r.body.connectors[1].transaction_id !== null,
    );
    const c = res.body.connectors[1];
    assert.equal(c.ev_connected, true);
    assert.equal(c.id_tag, 'TAG-DET');
    assert.equal(typeof c.transaction_id, 'string');
    const start = csms.received.find((r) => r.identity === 'DET16-1' && r.action === 'StartTransaction');
    assert.ok(start, 'the CSMS saw the start');
    assert.equal(res.body.connectors[0].ev_connected, false);
    const set = await run(as, 'configuration', {
      target,
      payload: { key: 'HeartbeatInterval', value: '120' },
    });
    assert.equal(set.status, 'completed');
    await eventually(
      () => detail(id16),
      (r) => r.body.configuration.find((e: any) => e.key === 'HeartbeatInterval').value === '120',
    );
    assert.equal((await run(as, 'unplug', { target, payload: { connector_id: 2 } })).status, 'completed');
  });

  test("the detail of another organization's, an unknown or a malformed deployment is 404", async () => {
    for (const [who, id] of [
      [svc.as('org-not-detail'), id16],
      [as, '00000000-0000-4000-8000-000000000000'],
      [as, 'not-a-uuid'],
    ] as const) {
      const res = await who('GET', `/evcharger/deployments/${id}`);
      assert.equal(res.status, 404, res.text);
      assert.equal(typeof res.body.detail, 'string');
    }
  });

  test('the command list: newest first, E16 records, filtered by deployment and status, paged', async () => {
    const res = await as<{ items: CommandRecord[]; next_offset: number | null }>(
      'GET',
      '/evcharger/commands',
    );
    assert.equal(res.status, 200, res.text);
    const { items } = res.body;
    assert.ok(items.length >= 4, `${items.length} commands`);
    for (const item of items) assert.deepEqual(Object.keys(item), RECORD_KEYS);
    for (let k = 1; k < items.length; k++) assert.ok(items[k].created_at <= items[k - 1].created_at);
    assert.equal(items[0].event_type, 'unplug', 'the newest first');
    // Each record is what E16 answers for it.
    const e16 = await as('GET', `/evcharger/commands/${items[0].id}`);
    assert.deepEqual(e16.body, items[0]);

    const of16 = await as<{ items: CommandRecord[] }>('GET', `/evcharger/commands?deployment_id=${id16}`);
    assert.ok(of16.body.items.length > 0 && of16.body.items.every((c) => c.charger_id === id16));
    const plugs = await as<{ items: CommandRecord[] }>(
      'GET',
      `/evcharger/commands?deployment_id=${id16}&status=completed&limit=500`,
    );
    assert.ok(plugs.body.items.every((c) => c.status === 'completed'));
    assert.deepEqual(
      plugs.body.items.map((c) => c.id),
      of16.body.items.filter((c) => c.status === 'completed').map((c) => c.id),
    );

    const pages: CommandRecord[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: { status: number; body: { items: CommandRecord[]; next_offset: number | null } } = await as(
        'GET',
        `/evcharger/commands?limit=2&offset=${offset}`,
      );
      assert.equal(page.status, 200);
      assert.ok(page.body.items.length <= 2);
      pages.push(...page.body.items);
      offset = page.body.next_offset;
    }
    assert.deepEqual(
      pages.map((c) => c.id),
      items.map((c) => c.id),
    );
  });

  test("the command list of another organization's deployment is empty; bad queries are 422", async () => {
    const other = svc.as('org-not-detail');
    const res = await other('GET', `/evcharger/commands?deployment_id=${id16}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { items: [], next_offset: null });
    assert.deepEqual((await other('GET', '/evcharger/commands')).body, { items: [], next_offset: null });
    assert.deepEqual((await as('GET', '/evcharger/commands?deployment_id=nope')).body, {
      items: [],
      next_offset: null,
    });
    for (const [query, loc] of [
      ['status=lost', 'status'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['offset=-1', 'offset'],
    ]) {
      const bad = await as('GET', `/evcharger/commands?${query}`);
      assert.equal(bad.status, 422, `${query}: ${bad.text}`);
      assert.deepEqual(bad.body.detail[0].loc, ['query', loc]);
    }
  });
});
