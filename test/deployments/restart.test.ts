// Nothing is lost on restart: the service runs as a child process, 50 chargers come online against
// the strict central system, the process is killed with SIGKILL, and at the next start every charger
// comes back online by itself (no API call but reads). A location killed mid-deployment finishes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startChildService, type ChildService } from '../support/child-service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deploymentsOf, eventsOf, eventually, locationBody, type As } from './deployment-helpers.ts';

let svc: ChildService;
let csms: StrictCsms;
let as: As;

before(async () => {
  csms = await startStrictCsms();
  // Dev mode: the token is signed with the secret the service keeps in DATA_DIR.
  svc = await startChildService({}, { devAuth: true });
  as = svc.as('org-restart');
});

after(async () => {
  await svc.close();
  await csms.close();
});

const bootsOf = (identity: string) =>
  csms.received.filter((r) => r.identity === identity && r.action === 'BootNotification').length;

const N = 50;
let first: string[] = [];

test('restart: 50 chargers online, SIGKILL, start again: all 50 online again without any API call', async () => {
  const res = await as('POST', '/evcharger/location', { body: locationBody('RST', N, csms.url) });
  assert.equal(res.status, 202, res.text);
  const items = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === N && list.every((d) => d.stage === 'online'),
    30_000,
  );
  first = items.map((d) => d.identity);
  const bootsBefore = new Map(first.map((id) => [id, bootsOf(id)]));

  await svc.kill9();
  await csms.waitFor(() => first.every((id) => !csms.clients.has(id)), 10_000);
  await svc.restart();

  // The strict central system sees every charger boot again, with nothing asked of the API.
  await csms.waitFor(
    () => first.every((id) => bootsOf(id) > bootsBefore.get(id)! && csms.clients.has(id)),
    30_000,
  );
  const after = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === N && list.every((d) => d.stage === 'online'),
  );
  assert.equal(after.length, N);
  // The restart is a new attempt, and it says the charger recovered.
  const events = await eventually(
    () => eventsOf(as, 'RST-007'),
    (ev) => ev[0]?.outcome === 'recovered',
  );
  assert.deepEqual({ stage: events[0].stage, attempt: events[0].attempt }, { stage: 'online', attempt: 2 });
  assert.deepEqual(csms.schemaErrors, []);
});

test('restart: a location killed while it deploys finishes deploying after the next start', async () => {
  const res = await as('POST', '/evcharger/location', { body: locationBody('MID', 20, csms.url) });
  assert.equal(res.status, 202, res.text);
  await svc.kill9();
  await svc.restart();
  const items = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === 20 && list.every((d) => d.stage === 'online'),
    30_000,
  );
  assert.deepEqual(
    items.map((d) => d.identity).sort(),
    Array.from({ length: 20 }, (_x, i) => `MID-${String(i + 1).padStart(3, '0')}`),
  );
  // The first location came back too.
  await eventually(
    () => deploymentsOf(as),
    (list) => list.filter((d) => d.identity.startsWith('RST-') && d.stage === 'online').length === N,
  );
});
