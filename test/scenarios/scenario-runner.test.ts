// The scenario language as a run carries it out, on a group of several chargers against a strict
// central system: what each charger saves, how steps and waits are counted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { loadScenario } from '../../engine/scenarios/load-scenario.ts';
import { runScenario } from '../../engine/scenarios/scenario-runner.ts';
import { createServiceHost, type ScenarioHost } from '../../engine/scenarios/scenario-host.ts';

const scenario = (text: string) => {
  const loaded = loadScenario(text);
  assert.ok('scenario' in loaded, JSON.stringify(loaded));
  return loaded.scenario;
};

describe('a scenario on a group of chargers', () => {
  let svc: TestService;
  let host: ScenarioHost;
  let csms: StrictCsms;
  before(async () => {
    svc = await startTestService();
    host = await createServiceHost(svc.service.deps);
    // StartTransaction answers 1, 2, 3...: each charger of the group gets its own transaction.
    csms = await startStrictCsms();
  });
  after(async () => {
    await host.close();
    await svc.close();
    await csms.close();
  });

  test('a value saved on a group of 3 is each charger’s own: each stops its own transaction', async () => {
    const result = await runScenario(host, {
      orgId: 'org-a',
      wsUrl: csms.url,
      scenario: scenario(`
name: three chargers, three transactions
chargers: [{ id: cp, count: 3 }]
steps:
  - plug_in: {}
  - present_token: { id_tag: TAG-GROUP-1 }
  - wait_for_frame: { action: StartTransaction, type: CALLRESULT, save: { tx: transactionId } }
  - present_token: { id_tag: TAG-GROUP-1 }
  - wait_for_frame: { action: StopTransaction, from: charger, payload: { transactionId: '\${tx}' }, timeout_s: 5 }
`),
    });
    assert.equal(result.status, 'passed', JSON.stringify(result.steps.at(-1)));
    const stops = result.steps.at(-1)!.frames.map((f) => (f.item as { frame: unknown[] }).frame[3]);
    const ids = stops.map((p) => (p as { transactionId: number }).transactionId);
    assert.equal(new Set(ids).size, 3, `three different transactions: ${ids.join(', ')}`);
  });

  test('steps after a failed one are reported skipped: the rest of its round, the other rounds, the steps after', async () => {
    const result = await runScenario(host, {
      orgId: 'org-a',
      wsUrl: csms.url,
      scenario: scenario(`
name: a failure inside a repeat
chargers: [{ id: cp }]
steps:
  - repeat:
      times: 3
      steps:
        - wait_for_frame: { action: Reset, timeout_s: 1 }
        - plug_in: {}
  - set: { x: y }
  - unplug: {}
`),
    });
    assert.equal(result.status, 'failed');
    assert.deepEqual(
      result.steps.map((s) => `${s.path} ${s.status} ${s.name}`),
      [
        '0 passed every charger is accepted',
        '1.1.1 failed wait_for_frame Reset',
        '1.1.2 skipped plug_in connector 1',
        '1.2 skipped rounds 2-3',
        '3 skipped unplug connector 1',
      ],
    );
  });
  test('waits leave no listener on the run’s stop signal: a long run does not pile them up', async () => {
    const stop = new AbortController();
    const result = await runScenario(host, {
      orgId: 'org-a',
      wsUrl: csms.url,
      signal: stop.signal,
      scenario: scenario(`
name: many short waits
chargers: [{ id: cp }]
steps:
  - repeat:
      times: 30
      steps:
        - wait: { seconds: 0.01 }
        - wait_for_status: { status: Available, connector: 1, timeout_s: 1 }
`),
    });
    assert.equal(result.status, 'passed', JSON.stringify(result.steps.at(-1)));
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  });
});
