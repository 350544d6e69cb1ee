// The fleet list through the API: identities in natural order (NAT-2 before NAT-10, NAT-1000 after
// NAT-999) across pages, and each charger's connectors with status and power while it charges.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { DUAL_MODEL, eventually, type As } from '../deployments/deployment-helpers.ts';
import { run } from '../commands/command-helpers.ts';

let svc: TestService;
let as: As;
const ids = new Map<string, string>();

before(async () => {
  svc = await startTestService();
  as = svc.as('org-nat');
  for (const identity of ['NAT-10', 'NAT-2', 'NAT-1000', 'NAT-1', 'NAT-100', 'NAT-999', 'NAT-A']) {
    const res = await as('POST', '/evcharger/deployment', { body: { identity, model: DUAL_MODEL } });
    assert.equal(res.status, 201, res.text);
    ids.set(identity, res.body.deployment_id);
  }
});
after(() => svc?.close());

const NATURAL = ['NAT-1', 'NAT-2', 'NAT-10', 'NAT-100', 'NAT-999', 'NAT-1000', 'NAT-A'];

test('the fleet lists identities in natural order, page after page', async () => {
  const all = await as('GET', '/evcharger/fleet/deployments');
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(
    all.body.items.map((r: { identity: string }) => r.identity),
    NATURAL,
  );
  const pages: string[] = [];
  for (let offset = 0; offset !== null;) {
    const page = await as('GET', `/evcharger/fleet/deployments?limit=3&offset=${offset}`);
    pages.push(...page.body.items.map((r: { identity: string }) => r.identity));
    offset = page.body.next_offset;
  }
  assert.deepEqual(pages, NATURAL);
  const found = await as('GET', '/evcharger/fleet/deployments?q=nat-1');
  assert.deepEqual(
    found.body.items.map((r: { identity: string }) => r.identity),
    ['NAT-1', 'NAT-10', 'NAT-100', 'NAT-1000'],
  );
});

test("each row carries its charger's connectors, with the power of one that charges", async () => {
  const row = (r: { body: { items: { identity: string; connectors: unknown[] }[] } }) =>
    r.body.items.find((i) => i.identity === 'NAT-2')!;
  const idle = await eventually(
    () => as('GET', '/evcharger/fleet/deployments?q=NAT-2'),
    (r) => row(r).connectors.length === 2,
    60_000,
  );
  assert.deepEqual(row(idle).connectors, [
    { connector_id: 1, status: 'Available', power_w: 0 },
    { connector_id: 2, status: 'Available', power_w: 0 },
  ]);
  const target = { deployment_id: ids.get('NAT-2') };
  assert.equal((await run(as, 'plug-in', { target, payload: { connector_id: 2 } })).status, 'completed');
  const token = await run(as, 'present-token', { target, payload: { id_tag: 'TAG-NAT', connector_id: 2 } });
  assert.equal(token.status, 'completed', JSON.stringify(token));
  const charging = await eventually(
    () => as('GET', '/evcharger/fleet/deployments?q=NAT-2'),
    (r) => (row(r).connectors[1] as { power_w: number }).power_w > 0,
    60_000,
  );
  const c2 = row(charging).connectors[1] as { status: string; power_w: number };
  assert.equal(c2.status, 'Charging');
  assert.equal((row(charging).connectors[0] as { status: string }).status, 'Available');
});
