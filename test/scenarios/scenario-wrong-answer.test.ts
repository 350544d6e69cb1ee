// A ready scenario whose central system answers wrongly on purpose fails, naming the step and the
// frame that broke it, and stops there.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { runScenario } from '../../engine/scenarios/scenario-runner.ts';
import { createServiceHost, type ScenarioHost } from '../../engine/scenarios/scenario-host.ts';
import { scenarioOf } from './ready-scenarios.ts';

describe('a central system that answers wrongly', () => {
  let svc: TestService;
  let host: ScenarioHost;
  let csms: StrictCsms;
  before(async () => {
    svc = await startTestService();
    host = await createServiceHost(svc.service.deps);
    // Every token is refused: the scenario expects it accepted.
    csms = await startStrictCsms({ handlers: { Authorize: () => ({ idTagInfo: { status: 'Invalid' } }) } });
  });
  after(async () => {
    await host.close();
    await svc.close();
    await csms.close();
  });

  test('the run fails at the expectation, naming the step and the frame that broke it', async () => {
    const result = await runScenario(host, {
      orgId: 'org-a',
      scenario: scenarioOf('scenarios/ocpp16/local-start-stop.yaml'),
      wsUrl: csms.url,
    });
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.expectations, { passed: 2, failed: 1 });
    const failed = result.steps.filter((s) => s.status === 'failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0].path, '4');
    assert.equal(failed[0].kind, 'expect_answer');
    assert.match(failed[0].message!, /no answer to Authorize with \{"idTagInfo":\{"status":"Accepted"\}\}/);
    assert.match(failed[0].message!, /"Invalid"/);
    const item = failed[0].frames.at(-1)!.item as any;
    assert.equal(item.type, 'CALLRESULT');
    assert.equal(item.action, 'Authorize');
    assert.deepEqual(item.frame[2], { idTagInfo: { status: 'Invalid' } });
    // The run stopped there: nothing after the failed step ran; those steps are reported skipped.
    const after = result.steps.slice(result.steps.indexOf(failed[0]) + 1);
    assert.deepEqual(
      after.map((s) => `${s.path} ${s.status}`),
      ['5 skipped', '6 skipped', '7 skipped', '8 skipped', '9 skipped', '10 skipped'],
    );
  });
});
