// Every location template of the gallery is a body E7 accepts, and its chargers come online
// against the built-in central system (no ws_url: the deployment registers each charge point).
// Templates name their chargers as groups, so a template deployed again adds chargers.
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

interface Group {
  count: number;
  identity_prefix: string;
}

test('E7 accepts the body of every template (include_all) twice, and all their chargers reach online at the built-in central system with unique identities', async () => {
  const list = await as('GET', '/evcharger/templates/locations?include_all=true');
  assert.equal(list.status, 200);
  assert.ok(list.body.templates.length >= 20);
  const expected: string[] = [];
  for (const template of list.body.templates) {
    const groups = template.body.charger_groups as Group[];
    const count = groups.reduce((n, g) => n + g.count, 0);
    const prefix = groups[0].identity_prefix;
    for (let round = 0; round < 2; round++) {
      const res = await as('POST', '/evcharger/location', { body: template.body });
      assert.equal(res.status, 202, `${template.slug}: ${res.text}`);
      assert.deepEqual(res.body.failed, [], `${template.slug} round ${round + 1}`);
      for (let n = 1; n <= count; n++)
        expected.push(`${prefix}${String(round * count + n).padStart(3, '0')}`);
    }
  }
  const items = await eventually(
    () => deploymentsOf(as),
    (all) => all.length === expected.length && all.every((d) => d.stage === 'online'),
    90_000,
  );
  assert.deepEqual(items.map((d) => d.identity).sort(), [...expected].sort());
  // Each charger registered itself as a charge point of the organization, online at the central system.
  for (const identity of [expected[0], expected[expected.length - 1]]) {
    const cp = await as('GET', `/cpo/charge-points/${identity}`);
    assert.equal(cp.status, 200, cp.text);
    assert.equal(cp.body.is_online, true);
    assert.equal(cp.body.organization_id, 'org-templates');
  }
});
