// Tenancy: another organization's deployment or location is 404 on every endpoint, and its events
// and deployments never show.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import {
  DUAL_MODEL,
  deploymentsOf,
  eventsOf,
  eventually,
  locationBody,
  type As,
} from './deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let a: As;
let b: As;
let deploymentId: string;
let locationId: string;

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  a = svc.as('org-iso-a');
  b = svc.as('org-iso-b');
  const dep = await a('POST', '/evcharger/deployment', {
    body: { identity: 'ISO-1', model: DUAL_MODEL, ws_url: csms.url },
  });
  assert.equal(dep.status, 201, dep.text);
  deploymentId = dep.body.deployment_id;
  const loc = await a('POST', '/evcharger/location', { body: locationBody('ISOL', 2) });
  assert.equal(loc.status, 202, loc.text);
  locationId = loc.body.location_id;
  await eventually(
    () => deploymentsOf(a),
    (items) => items.length === 3 && items.every((d) => d.stage === 'online'),
  );
});

after(async () => {
  await svc.close();
  await csms.close();
});

test("another organization's deployment is 404 on E6 and E9", async () => {
  const del = await b('DELETE', `/evcharger/deployment?deployment_id=${deploymentId}`);
  assert.equal(del.status, 404);
  for (const action of ['stop', 'start', 'restart', 'delete']) {
    const op = await b('POST', '/evcharger/deployment-runtime-ops', {
      body: { action, deployment_id: deploymentId },
    });
    assert.equal(op.status, 404, action);
  }
});

test("another organization's location is 404 on E8, E9 and the deployments list", async () => {
  assert.equal((await b('DELETE', `/evcharger/location?location_id=${locationId}`)).status, 404);
  const op = await b('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', location_id: locationId },
  });
  assert.equal(op.status, 404);
  assert.equal((await b('GET', `/evcharger/deployments?location_id=${locationId}`)).status, 404);
});

test('nothing of another organization shows in its lists, and nothing of it was touched', async () => {
  assert.deepEqual(await deploymentsOf(b), []);
  assert.deepEqual(await eventsOf(b, 'ISO-1'), []);
  const all = await b('GET', '/evcharger/deployment-runtime-ops/events?limit=500');
  assert.deepEqual(all.body.events, []);
  const items = await deploymentsOf(a);
  assert.equal(items.length, 3);
  assert.ok(items.every((d) => d.stage === 'online'));
});

test('identities are per organization with ws_url; at the built-in central system an identity has one owner', async () => {
  const same = await b('POST', '/evcharger/deployment', {
    body: { identity: 'ISO-1', model: DUAL_MODEL, ws_url: csms.url },
  });
  assert.equal(same.status, 201, same.text);
  // ISOL-001 is a charge point of org-iso-a at the built-in central system.
  const taken = await b('POST', '/evcharger/deployment', {
    body: { identity: 'ISOL-001', model: DUAL_MODEL },
  });
  assert.equal(taken.status, 409);
  assert.match(taken.body.detail, /another organization/);
});
