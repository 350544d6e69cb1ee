// Generated traffic through the API on a location's chargers (built-in central system): started,
// its sessions in the chargers' message logs, changed, stopped; the same seed on a like location
// gives the same sessions; another organization's run is a 404.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { deploymentsOf, eventually, type As } from '../deployments/deployment-helpers.ts';
import { KEEP_STOPPED } from '../../engine/traffic/traffic-service.ts';

/** Busy hours all day, short stays: sessions come fast at speed 3600 (an hour per second). */
const BUSY = {
  seed: 42,
  speed: 3600,
  arrivals_per_hour: Array(24).fill(4),
  dwell_minutes: { mean: 20, sd: 5, min: 5 },
  fault_rate_per_hour: 0,
  drop_rate_per_hour: 0,
};

async function location(as: As, prefix: string, model = 'abb-terra-ac-wallbox-22'): Promise<string> {
  const res = await as('POST', '/evcharger/location', {
    body: {
      name: prefix,
      ocpp_version: 'ocpp1.6',
      charger_groups: [{ count: 2, identity_prefix: prefix, model }],
    },
  });
  assert.equal(res.status, 202, res.text);
  await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === 2 && list.every((d) => d.stage === 'online'),
  );
  return res.body.location_id;
}

const comparable = (items: any[]) => items.slice(0, 6).map(({ charger: _identity, ...s }: any) => s);

describe('traffic runs API', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => await svc.close());

  test('a run with a seed makes sessions the chargers carry out; the same seed elsewhere makes the same sessions', async () => {
    const a = svc.as('org-a');
    const b = svc.as('org-b');
    const [locA, locB] = await Promise.all([location(a, 'TRA-'), location(b, 'TRB-')]);

    const runA = await a('POST', '/traffic-runs', { body: { location_id: locA, ...BUSY } });
    assert.equal(runA.status, 201, runA.text);
    assert.equal(runA.body.chargers, 2);
    const runB = await b('POST', '/traffic-runs', { body: { location_id: locB, ...BUSY } });
    assert.equal(runB.status, 201);

    const sessionsOf = (as: As, id: string) =>
      eventually(
        async () => (await as('GET', `/traffic-runs/${id}/sessions`)).body.items,
        (items: any[]) => items.length >= 6,
        30_000,
      );
    const [sa, sb] = await Promise.all([
      sessionsOf(a, runA.body.traffic_id),
      sessionsOf(b, runB.body.traffic_id),
    ]);
    assert.deepEqual(comparable(sa), comparable(sb));
    assert.ok(sa[0].charger.startsWith('TRA-'));
    assert.ok(sb[0].charger.startsWith('TRB-'));

    // The chargers carried the sessions out: their message log has the plug-in's StatusNotification
    // and the token's Authorize.
    const deployments = await deploymentsOf(a, locA);
    const first = deployments.find((d) => d.identity === sa[0].charger)!;
    await eventually(
      async () =>
        (await a('GET', `/evcharger/deployments/${first.deployment_id}/ocpp-log?action=Authorize`)).body
          .items,
      (items: any[]) => items.some((i) => i.type === 'CALL'),
    );

    const changed = await a('PATCH', `/traffic-runs/${runA.body.traffic_id}`, { body: { speed: 60 } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.config.speed, 60);
    assert.equal(changed.body.config.seed, 42);

    // The organization's runs: its own only.
    const listed = await a('GET', '/traffic-runs');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.items.map((r: any) => r.traffic_id),
      [runA.body.traffic_id],
    );
    assert.equal(listed.body.items[0].running, true);

    const stopped = await a('DELETE', `/traffic-runs/${runA.body.traffic_id}`);
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.running, false);
    assert.equal(stopped.body.sessions_active, 0);
    await b('DELETE', `/traffic-runs/${runB.body.traffic_id}`);

    // Another organization's run: 404 everywhere.
    for (const [method, path] of [
      ['GET', `/traffic-runs/${runA.body.traffic_id}`],
      ['GET', `/traffic-runs/${runA.body.traffic_id}/sessions`],
      ['PATCH', `/traffic-runs/${runA.body.traffic_id}`],
      ['DELETE', `/traffic-runs/${runA.body.traffic_id}`],
    ]) {
      const res = await b(method, path, method === 'PATCH' ? { body: { speed: 2 } } : {});
      assert.equal(res.status, 404, `${method} ${path}`);
    }
  });

  test("a run draws sessions on every connector of its chargers' model", async () => {
    const as = svc.as('org-connectors');
    const loc = await location(as, 'TRC-', 'abb-terra-184'); // two connectors
    const run = await as('POST', '/traffic-runs', { body: { location_id: loc, ...BUSY } });
    assert.equal(run.status, 201, run.text);
    const sessions = await eventually(
      async () => (await as('GET', `/traffic-runs/${run.body.traffic_id}/sessions`)).body.items,
      (items: any[]) => items.length >= 8,
      30_000,
    );
    await as('DELETE', `/traffic-runs/${run.body.traffic_id}`);
    const connectors = new Set(sessions.map((s: any) => s.connector));
    assert.deepEqual([...connectors].sort(), [1, 2], JSON.stringify(sessions));
  });

  test('only the newest stopped runs are kept: the oldest stopped run is gone after one more', async () => {
    const a = svc.as('org-keep');
    const loc = await location(a, 'KEEP');
    const ids: string[] = [];
    for (let i = 0; i <= KEEP_STOPPED; i++) {
      const run = await a('POST', '/traffic-runs', { body: { location_id: loc, ...BUSY, speed: 1 } });
      assert.equal(run.status, 201, run.text);
      ids.push(run.body.traffic_id);
      assert.equal((await a('DELETE', `/traffic-runs/${run.body.traffic_id}`)).status, 200);
    }
    const listed = (await a('GET', '/traffic-runs')).body.items.map((r: any) => r.traffic_id);
    assert.deepEqual(listed, ids.slice(1).reverse());
    assert.equal((await a('GET', `/traffic-runs/${ids[0]}`)).status, 404);
  });

  test('a location whose chargers are all stopped is refused with 409; one running charger is enough', async () => {
    const a = svc.as('org-stopped');
    const loc = await location(a, 'TRS-');
    const stop = await a('POST', '/evcharger/deployment-runtime-ops', {
      body: { action: 'stop', location_id: loc },
    });
    assert.equal(stop.status, 202, stop.text);
    const chargers = await eventually(
      () => deploymentsOf(a, loc),
      (list) => list.length === 2 && list.every((d) => d.stage === 'stopped'),
    );
    // Nothing would reach the central system: no run, and no sessions counted that no frame carried.
    const refused = await a('POST', '/traffic-runs', { body: { location_id: loc, ...BUSY } });
    assert.equal(refused.status, 409, refused.text);
    assert.deepEqual(Object.keys(refused.body), ['detail']);
    assert.match(refused.body.detail, /none of its 2 chargers is running/);
    assert.deepEqual((await a('GET', '/traffic-runs')).body.items, []);

    const start = await a('POST', '/evcharger/deployment-runtime-ops', {
      body: { action: 'start', deployment_id: chargers[0].deployment_id },
    });
    assert.equal(start.status, 202, start.text);
    const run = await a('POST', '/traffic-runs', { body: { location_id: loc, ...BUSY } });
    assert.equal(run.status, 201, run.text);
    assert.equal((await a('DELETE', `/traffic-runs/${run.body.traffic_id}`)).status, 200);
  });

  test("another organization's location is a 404; a bad profile is a 422", async () => {
    const a = svc.as('org-c');
    const res = await a('POST', '/traffic-runs', { body: { location_id: 'nope' } });
    assert.equal(res.status, 404);
    const bad = await a('POST', '/traffic-runs', { body: { location_id: 'x', arrivals_per_hour: [1, 2] } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['body', 'arrivals_per_hour']);
    const change = await a('PATCH', '/traffic-runs/whatever', { body: { seed: 3 } });
    assert.equal(change.status, 422);
  });
});
