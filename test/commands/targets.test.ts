// The command target rules shared by every command endpoint (400 / 404 / partial failures), the
// exact queued command result, request validation (422), E16 before and after receipt, and
// isolation between organizations.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deploymentsOf, eventually, locationBody, type As } from '../deployments/deployment-helpers.ts';
import { deployOnline, finalOf, run } from './command-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;
let other: As;
let single: string;
let locationId: string;
let siteIds: string[];

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-tgt');
  other = svc.as('org-tgt-other');
  single = await deployOnline(as, 'TGT-ONE', 'ocpp2.0.1', csms.url);
  const res = await as('POST', '/evcharger/location', { body: locationBody('TGT-SITE', 3, csms.url) });
  assert.equal(res.status, 202, res.text);
  locationId = res.body.location_id;
  const items = await eventually(
    () => deploymentsOf(as, locationId),
    (items) => items.length === 3 && items.every((i) => i.stage === 'online'),
  );
  siteIds = items.map((i) => i.deployment_id);
});

after(async () => {
  await svc.close();
  await csms.close();
});

const post = (who: As, body: unknown) => who('POST', '/evcharger/commands/cache/reset', { body });

test('E14 400: no target, or one charger and a location at once, or charger_ids without a location', async () => {
  const cases: [unknown, RegExp][] = [
    [{}, /give deployment_id, identity or location_id/],
    [{ deployment_id: single, location_id: locationId }, /one or the other/],
    [{ identity: 'TGT-ONE', location_id: locationId }, /one or the other/],
    [{ identity: 'TGT-ONE', charger_ids: [single] }, /charger_ids narrows a location_id/],
    [{ deployment_id: single, identity: 'TGT-SITE-001' }, /is not the charger/],
  ];
  for (const [target, detail] of cases) {
    const res = await post(as, { target });
    assert.equal(res.status, 400, `${JSON.stringify(target)}: ${res.text}`);
    assert.match(res.body.detail, detail);
  }
});

test("E14 404: an unknown deployment_id, identity or location, and another organization's charger", async () => {
  for (const target of [
    { deployment_id: '00000000-0000-0000-0000-000000000000' },
    { deployment_id: 'not-a-uuid' },
    { identity: 'NOPE' },
    { location_id: '00000000-0000-0000-0000-000000000000' },
  ]) {
    const res = await post(as, { target });
    assert.equal(res.status, 404, res.text);
    assert.equal(typeof res.body.detail, 'string');
  }
  for (const target of [{ deployment_id: single }, { identity: 'TGT-ONE' }, { location_id: locationId }]) {
    const res = await post(other, { target });
    assert.equal(res.status, 404, `another organization reached ${JSON.stringify(target)}`);
  }
});

test('E11 422: a body without target, a proxy message without action, unknown fields', async () => {
  const bad: unknown[] = [
    { payload: { action: 'Heartbeat' } },
    { target: { identity: 'TGT-ONE' }, payload: {} },
    { target: { identity: 'TGT-ONE', colour: 'red' }, payload: { action: 'Heartbeat' } },
  ];
  for (const body of bad) {
    const res = await as('POST', '/evcharger/commands/proxy-message', { body });
    assert.equal(res.status, 422, res.text);
    assert.ok(Array.isArray(res.body.detail));
  }
});

test('E12 202 for one charger: the exact queued command result, defaults filled in', async () => {
  const res = await as('POST', '/evcharger/commands/ev-stops-energy', {
    body: { target: { identity: 'TGT-ONE' } },
  });
  assert.equal(res.status, 202, res.text);
  const id = res.body.results[0]?.command?.id;
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(res.body, {
    targeted_count: 1,
    queued_count: 1,
    failed_count: 0,
    results: [
      {
        charger_id: single,
        identity: 'TGT-ONE',
        command: {
          id,
          event_type: 'ev-stops-energy',
          ocpp_version: 'ocpp2.0.1',
          payload: { evse_id: 1, connector_id: 1 },
        },
      },
    ],
    failed: [],
  });
  const r = await finalOf(as, id);
  assert.deepEqual(Object.keys(r).sort(), [
    'charger_id',
    'completed_at',
    'created_at',
    'error',
    'event_type',
    'id',
    'identity',
    'payload',
    'received_at',
    'response',
    'status',
  ]);
});

test('an EV command to a connector the model lacks is a 422 at once, naming it; nothing is queued', async () => {
  // The model (abb-a400) has 2 connectors; 2.0.1 picks the connector by evse_id, 1.6 by connector_id.
  const cases: Array<[string, Record<string, unknown>, unknown]> = [
    ['plug-in', { evse_id: 9 }, { identity: 'TGT-ONE' }],
    ['present-token', { evse_id: 3, id_tag: 'TAG-1' }, { identity: 'TGT-ONE' }],
    ['unplug', { evse_id: 3 }, { identity: 'TGT-ONE' }],
    ['fault', { connector_id: 9 }, { location_id: locationId }],
    ['ev-stops-energy', { connector_id: 3 }, { location_id: locationId }],
  ];
  for (const [path, payload, target] of cases) {
    const res = await as('POST', `/evcharger/commands/${path}`, { body: { target, payload } });
    assert.equal(res.status, 422, `${path} ${JSON.stringify(payload)}: ${res.text}`);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'payload']);
    assert.match(res.body.detail[0].msg, /connector \d+ .*2 connectors/, res.text);
  }
  const inRange = await as('POST', '/evcharger/commands/unplug', {
    body: { target: { identity: 'TGT-ONE' }, payload: { evse_id: 2 } },
  });
  assert.equal(inRange.status, 202, inRange.text);
});

test('E14 a location queues one command per charger; every one completes', async () => {
  const res = await post(as, { target: { location_id: locationId } });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.targeted_count, 3);
  assert.equal(res.body.queued_count, 3);
  assert.deepEqual(res.body.results.map((r: any) => r.charger_id).sort(), [...siteIds].sort());
  for (const r of res.body.results) {
    assert.equal(r.command.event_type, 'cache-reset');
    assert.equal(r.command.ocpp_version, 'ocpp1.6');
    const final = await finalOf(as, r.command.id);
    assert.equal(final.status, 'completed', JSON.stringify(final));
    assert.equal(final.charger_id, r.charger_id);
  }
});

test('E14 charger_ids narrows a location; unknown ids go to failed, the rest are queued', async () => {
  const res = await post(as, {
    target: { location_id: locationId, charger_ids: [siteIds[0], single, 'ghost'] },
  });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.targeted_count, 3);
  assert.equal(res.body.queued_count, 1);
  assert.equal(res.body.failed_count, 2);
  assert.equal(res.body.results[0].charger_id, siteIds[0]);
  assert.deepEqual(
    res.body.failed.map((f: any) => f.error),
    [
      `Charger '${single}' not found in location '${locationId}'`,
      `Charger 'ghost' not found in location '${locationId}'`,
    ],
  );
});

test("E16 404 for an unknown id, a malformed id and another organization's command; 200 for the owner", async () => {
  const r = await run(as, 'cache/reset', { target: { deployment_id: single } });
  assert.equal(r.status, 'completed');
  assert.equal((await as('GET', `/evcharger/commands/${r.id}`)).status, 200);
  assert.equal((await other('GET', `/evcharger/commands/${r.id}`)).status, 404);
  assert.equal((await as('GET', '/evcharger/commands/00000000-0000-0000-0000-000000000000')).status, 404);
  const bad = await as('GET', '/evcharger/commands/nope');
  assert.equal(bad.status, 404);
  assert.equal(typeof bad.body.detail, 'string');
});

test('E16 answers 404 while the command is still queued (no charger received it)', async () => {
  const { store } = svc.service.deps.commands;
  const id = '11111111-1111-4111-8111-111111111111';
  await store.insert([
    {
      id,
      organization_id: 'org-tgt',
      deployment_id: single,
      identity: 'TGT-ONE',
      event_type: 'cache-reset',
      ocpp_version: 'ocpp2.0.1',
      payload: {},
    },
  ]);
  assert.equal((await as('GET', `/evcharger/commands/${id}`)).status, 404);
  assert.equal((await store.hold([id], 'test-node/run-1')).size, 1);
  const res = await as('GET', `/evcharger/commands/${id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.status, 'received');
  assert.equal(res.body.completed_at, null);
});
