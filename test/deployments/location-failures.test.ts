// E7 as the spec says it: individual charger failures do not abort the batch. A charger naming an
// unknown model, a model of another brand or one that does not speak the version, an identity
// already deployed, or an identity owned at the built-in central system by another organization
// is reported (202 `failed`, a failed stage event with code and hint, a row of the list) while the
// others deploy; E8 takes the failures with the location.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import {
  DUAL_MODEL,
  OCPP16_ONLY_MODEL,
  deploymentsOf,
  eventsOf,
  eventually,
  locationBody,
  type As,
} from './deployment-helpers.ts';

let svc: TestService;
let csms: StrictCsms;
let as: As;

before(async () => {
  csms = await startStrictCsms();
  svc = await startTestService();
  as = svc.as('org-fail');
});

after(async () => {
  await svc.close();
  await csms.close();
});

interface Failed {
  identity: string;
  code: string;
  hint: string;
}

test('E7 answers 202 when some chargers cannot be deployed, lists them in failed with a code and hint, and deploys the others', async () => {
  const taken = await as('POST', '/evcharger/deployment', {
    body: { identity: 'MIX-005', model: DUAL_MODEL, ws_url: csms.url },
  });
  assert.equal(taken.status, 201, taken.text);
  // Another organization owns MIX-006 at the built-in central system.
  const owned = await svc.as('org-owner')('POST', '/cpo/charge-points', {
    body: { charge_point_id: 'MIX-006', ocpp_version: 'ocpp1.6' },
  });
  assert.equal(owned.status, 201, owned.text);

  const body = locationBody('MIX', 6, csms.url);
  body.chargers[1].model = 'no-such-model';
  body.chargers[2].brand_slug = 'alfen';
  Object.assign(body.chargers[3], { model: OCPP16_ONLY_MODEL, ocpp_version: 'ocpp2.0.1' });
  delete (body.chargers[5] as { ws_url?: string }).ws_url; // to the built-in central system
  const res = await as<{ detail: string; location_id: string; failed: Failed[] }>(
    'POST',
    '/evcharger/location',
    { body },
  );
  assert.equal(res.status, 202, res.text);
  assert.match(res.body.detail, /1 charger is being deployed.*5 chargers cannot be deployed/);
  assert.deepEqual(
    res.body.failed.map((f) => [f.identity, f.code]),
    [
      ['MIX-002', 'UNKNOWN_MODEL'],
      ['MIX-003', 'BRAND_MISMATCH'],
      ['MIX-004', 'OCPP_VERSION_UNSUPPORTED'],
      ['MIX-005', 'IDENTITY_TAKEN'],
      ['MIX-006', 'IDENTITY_REGISTERED_ELSEWHERE'],
    ],
  );
  assert.match(res.body.failed[0].hint, /Unknown model 'no-such-model'/);
  assert.match(res.body.failed[2].hint, /does not speak ocpp2\.0\.1/);
  assert.match(res.body.failed[4].hint, /another organization/);

  const locationId = res.body.location_id;
  const items = await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.some((d) => d.identity === 'MIX-001' && d.stage === 'online'),
  );
  assert.equal(items.length, 6);
  const failedRows = items.filter((d) => !d.deployment_id);
  assert.deepEqual(
    failedRows.map((d) => [d.identity, d.stage, d.outcome, d.code]),
    res.body.failed.map((f) => [f.identity, 'not_deployed', 'failed', f.code]),
  );
  assert.ok(failedRows.every((d) => d.location_id === locationId && typeof d.hint === 'string'));
  const row = failedRows.find((d) => d.identity === 'MIX-002')!;
  assert.equal(row.model, 'no-such-model');
  assert.equal(row.ocpp_version, 'ocpp1.6');
  // The other location's charger of the same identity keeps running.
  assert.ok(
    (await deploymentsOf(as)).some(
      (d) => d.identity === 'MIX-005' && d.location_id === null && !!d.deployment_id,
    ),
  );
});

test('E10 tells each failed charger as a not_deployed / failed stage event with its code and hint', async () => {
  const events = await eventually(
    () => eventsOf(as, 'MIX-004', '&outcome=failed'),
    (ev) => ev.length > 0,
  );
  assert.equal(events[0].stage, 'not_deployed');
  assert.equal(events[0].code, 'OCPP_VERSION_UNSUPPORTED');
  assert.match(events[0].hint ?? '', /abb-terra-54.*does not speak ocpp2\.0\.1/);
  const alerts = await eventually(
    () => eventsOf(as, 'MIX-006', '&outcome=alerts'),
    (ev) => ev.length > 0,
  );
  assert.equal(alerts[0].code, 'IDENTITY_REGISTERED_ELSEWHERE');
});

test('E7 with every charger failing still answers 202 and creates a location that E8 deletes with its failures', async () => {
  const body = locationBody('NONE', 2, csms.url, 'no-such-model');
  const res = await as('POST', '/evcharger/location', { body });
  assert.equal(res.status, 202, res.text);
  assert.match(res.body.detail, /0 chargers are being deployed.*2 chargers cannot be deployed/);
  const locationId = res.body.location_id;
  assert.equal((await deploymentsOf(as, locationId)).length, 2);
  await eventually(
    () => eventsOf(as, 'NONE-001', '&outcome=failed'),
    (ev) => ev.length > 0,
  );
  const del = await as('DELETE', `/evcharger/location?location_id=${locationId}`);
  assert.equal(del.status, 204);
  assert.equal(
    (await deploymentsOf(as)).filter((d) => d.identity.startsWith('NONE-')).length,
    0,
    'the failures went with the location',
  );
  assert.deepEqual(await eventsOf(as, 'NONE-001'), [], 'and their stage events');
});

test('the list shows the code and hint of a running charger that failed to connect', async () => {
  const res = await as('POST', '/evcharger/deployment', {
    body: { identity: 'REFUSED-1', model: DUAL_MODEL, ws_url: 'ws://127.0.0.1:1' },
  });
  assert.equal(res.status, 201, res.text);
  // The row mirrors the newest stage event: read both until they agree on the refusal.
  const [items] = await eventually(
    async () => [await deploymentsOf(as), await eventsOf(as, 'REFUSED-1')] as const,
    ([list, events]) => {
      const row = list.find((d) => d.identity === 'REFUSED-1');
      return (
        row?.code === 'WS_CONNECT_REFUSED' &&
        [row.stage, row.outcome, row.code, row.hint].join('|') ===
          [events[0].stage, events[0].outcome, events[0].code, events[0].hint].join('|')
      );
    },
  );
  assert.match(items.find((d) => d.identity === 'REFUSED-1')!.hint ?? '', /refused|127\.0\.0\.1:1/i);
  const online = items.find((d) => d.identity === 'MIX-001')!;
  assert.equal(online.code, null);
  assert.equal(online.hint, null);
});
