// Conformance runs through the API: POST /conformance-runs runs the ready cases of a version
// against the built-in central system, the cases of profiles not claimed not applicable; GET
// follows the verdicts; bad input is a 422, another organization's run a 404.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';

describe('conformance runs API', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => await svc.close());

  test('POST /conformance-runs runs the claimed profiles; GET gives a verdict per case', async () => {
    const a = svc.as('org-a');
    const started = await a('POST', '/conformance-runs', {
      body: { version: 'ocpp1.6', profiles: ['RemoteTrigger'] },
    });
    assert.equal(started.status, 201);
    assert.equal(started.body.status, 'running');
    assert.equal(started.headers.get('location'), `/conformance-runs/${started.body.run_id}`);
    assert.ok(started.body.cases.length >= 50);

    let run = started.body;
    while (run.status === 'running') {
      await new Promise((r) => setTimeout(r, 200));
      run = (await a('GET', `/conformance-runs/${run.run_id}`)).body;
    }
    const trigger = run.cases.filter((c: any) => c.profile === 'RemoteTrigger');
    assert.deepEqual(
      trigger.map((c: any) => [c.id, c.verdict]),
      [
        ['TC_054_CSMS', 'passed'],
        ['TC_055_CSMS', 'passed'],
      ],
    );
    const others = run.cases.filter((c: any) => c.profile !== 'RemoteTrigger');
    assert.deepEqual([...new Set(others.map((c: any) => c.verdict))], ['not applicable']);
    assert.match(others[0].message, /does not claim the profile/);
    assert.deepEqual(Object.keys(run.cases[0]).sort(), ['id', 'message', 'profile', 'title', 'verdict']);

    const b = svc.as('org-b');
    assert.equal((await b('GET', `/conformance-runs/${run.run_id}`)).status, 404);
  });

  test('an unknown version or profile is a 422 naming the field', async () => {
    const a = svc.as('org-a');
    const bad = await a('POST', '/conformance-runs', { body: { version: 'ocpp1.5', profiles: ['Nope'] } });
    assert.equal(bad.status, 422);
    const locs = bad.body.detail.map((d: any) => d.loc.join('.'));
    assert.ok(locs.includes('body.version'), JSON.stringify(bad.body));
    assert.ok(locs.includes('body.profiles.0'), JSON.stringify(bad.body));
    assert.equal(
      (await a('POST', '/conformance-runs', { body: { version: 'ocpp1.6', profiles: [] } })).status,
      422,
    );
    assert.equal((await a('GET', '/conformance-runs/nope')).status, 404);
  });
});
