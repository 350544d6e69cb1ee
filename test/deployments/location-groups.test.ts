// E7 charger groups: `{count, identity_prefix, model, ...}` deploys `count` chargers named
// `{prefix}001`, `{prefix}002`, ...; the numbers continue after the highest one the organization
// (or, at the built-in central system, anyone) already uses with that prefix, so the same body
// posted again adds chargers instead of failing on identities that are taken.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, deploymentsOf, eventually, type As } from './deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-groups');
});

after(async () => {
  await svc.close();
  await csms.close();
});

const site = (groups: unknown[], chargers?: unknown[]) => ({
  name: 'Depot',
  ocpp_version: 'ocpp2.0.1',
  charger_groups: groups,
  ...(chargers ? { chargers } : {}),
});

const identitiesOf = async (locationId: string) =>
  (
    await eventually(
      () => deploymentsOf(as, locationId),
      (list) => list.length > 0 && list.every((d) => d.stage === 'online'),
    )
  )
    .map((d) => d.identity)
    .sort();

test('E7 a group of 3 deploys DEPOT-001..003, online at the central system with the group version', async () => {
  const res = await as('POST', '/evcharger/location', {
    body: site([{ count: 3, identity_prefix: 'DEPOT-', model: DUAL_MODEL, ws_url: csms.url }]),
  });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.detail, 'Location accepted: 3 chargers are being deployed in the background');
  assert.deepEqual(await identitiesOf(res.body.location_id), ['DEPOT-001', 'DEPOT-002', 'DEPOT-003']);
  const boots = csms.received.filter(
    (r) => r.action === 'BootNotification' && r.identity.startsWith('DEPOT-'),
  );
  assert.equal(boots.length, 3);
  assert.ok((await deploymentsOf(as, res.body.location_id)).every((d) => d.ocpp_version === 'ocpp2.0.1'));
});

test('E7 the same body posted again numbers on: DEPOT-004..006, nothing fails', async () => {
  const res = await as('POST', '/evcharger/location', {
    body: site([{ count: 3, identity_prefix: 'DEPOT-', model: DUAL_MODEL, ws_url: csms.url }]),
  });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(res.body.failed, []);
  assert.deepEqual(await identitiesOf(res.body.location_id), ['DEPOT-004', 'DEPOT-005', 'DEPOT-006']);
});

test('E7 groups sharing a prefix continue each other, after the explicit identities of the body', async () => {
  const res = await as('POST', '/evcharger/location', {
    body: site(
      [
        { count: 1, identity_prefix: 'HUB-', model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' },
        { count: 2, identity_prefix: 'HUB-', model: DUAL_MODEL, ws_url: csms.url },
      ],
      [{ identity: 'HUB-010', model: DUAL_MODEL, ws_url: csms.url }],
    ),
  });
  assert.equal(res.status, 202, res.text);
  const items = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === 4 && list.every((d) => d.stage === 'online'),
  );
  assert.deepEqual(items.map((d) => [d.identity, d.ocpp_version]).sort(), [
    ['HUB-010', 'ocpp2.0.1'],
    ['HUB-011', 'ocpp1.6'],
    ['HUB-012', 'ocpp2.0.1'],
    ['HUB-013', 'ocpp2.0.1'],
  ]);
});

test('E7 a group at the built-in central system skips the numbers another organization registered there', async () => {
  const other = svc.as('org-groups-other');
  const first = await other('POST', '/evcharger/location', {
    body: site([{ count: 2, identity_prefix: 'SHARED-', model: DUAL_MODEL }]),
  });
  assert.equal(first.status, 202, first.text);
  const res = await as('POST', '/evcharger/location', {
    body: site([{ count: 2, identity_prefix: 'SHARED-', model: DUAL_MODEL }]),
  });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(res.body.failed, []);
  assert.deepEqual(await identitiesOf(res.body.location_id), ['SHARED-003', 'SHARED-004']);
  const cp = await as('GET', '/cpo/charge-points/SHARED-003');
  assert.equal(cp.status, 200);
  assert.equal(cp.body.is_online, true);
});

test('E7 a group whose model is unknown fails charger by charger; the other groups deploy', async () => {
  const res = await as('POST', '/evcharger/location', {
    body: site([
      { count: 2, identity_prefix: 'BAD-', model: 'no-such-model', ws_url: csms.url },
      { count: 1, identity_prefix: 'GOOD-', model: DUAL_MODEL, ws_url: csms.url },
    ]),
  });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(
    res.body.failed.map((f: { identity: string; code: string }) => [f.identity, f.code]),
    [
      ['BAD-001', 'UNKNOWN_MODEL'],
      ['BAD-002', 'UNKNOWN_MODEL'],
    ],
  );
  const items = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.some((d) => d.identity === 'GOOD-001' && d.stage === 'online'),
  );
  assert.equal(items.length, 3);
});
