// Every location template of the gallery is a body E7 accepts, and its chargers come online
// against the built-in central system (no ws_url: the deployment registers each charge point).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { deploymentsOf, eventually, type As } from './deployment-helpers.ts';

let svc: TestService;
let as: As;

before(async () => {
  svc = await startTestService();
  as = svc.as('org-templates');
});

after(() => svc.close());

test('E7 accepts the body of every template (include_all) and all their chargers reach online at the built-in central system', async () => {
  const list = await as('GET', '/evcharger/templates/locations?include_all=true');
  assert.equal(list.status, 200);
  assert.ok(list.body.templates.length >= 20);
  const identities: string[] = [];
  for (const template of list.body.templates) {
    const res = await as('POST', '/evcharger/location', { body: template.body });
    assert.equal(res.status, 202, `${template.slug}: ${res.text}`);
    identities.push(...template.body.chargers.map((c: { identity: string }) => c.identity));
  }
  const items = await eventually(
    () => deploymentsOf(as),
    (all) => all.length === identities.length && all.every((d) => d.stage === 'online'),
    60_000,
  );
  assert.deepEqual(items.map((d) => d.identity).sort(), [...identities].sort());
  // Each charger registered itself as a charge point of the organization, online at the central system.
  for (const identity of identities.slice(0, 5)) {
    const cp = await as('GET', `/cpo/charge-points/${identity}`);
    assert.equal(cp.status, 200, cp.text);
    assert.equal(cp.body.is_online, true);
    assert.equal(cp.body.organization_id, 'org-templates');
  }
});
