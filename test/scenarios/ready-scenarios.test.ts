// Every ready scenario of scenarios/ passes against the built-in central system and against a
// strict ocpp-rpc central system written here (its csms_call steps reach it through a hook, as an
// external central system's would); one whose central system answers wrongly on purpose fails,
// naming the step and the frame.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { loadScenario } from '../../engine/scenarios/load-scenario.ts';
import { runScenario } from '../../engine/scenarios/scenario-runner.ts';
import { createServiceHost, type ScenarioHost } from '../../engine/scenarios/scenario-host.ts';
import type { RunResult } from '../../engine/scenarios/scenario-result.ts';

export const READY = ['ocpp16', 'ocpp201'].flatMap((dir) =>
  readdirSync(join('scenarios', dir))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join('scenarios', dir, f)),
);

export function scenarioOf(file: string) {
  const loaded = loadScenario(readFileSync(file, 'utf8'));
  assert.ok('scenario' in loaded, `${file}: ${JSON.stringify(loaded)}`);
  return loaded.scenario;
}

/** The hook an external central system offers for csms_call steps: here, the strict CSMS calls the charger. */
export async function startHook(csms: StrictCsms): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { identity, action, payload } = JSON.parse(body);
      csms.call(identity, action, payload).then(
        () => res.writeHead(204).end(),
        (err: Error) => res.writeHead(502).end(err.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/csms-call`, server };
}

const explain = (r: RunResult) =>
  JSON.stringify(
    { status: r.status, error: r.error, failed: r.steps.filter((s) => s.status === 'failed') },
    null,
    1,
  );

describe('ready scenarios', () => {
  let svc: TestService;
  let host: ScenarioHost;
  let csms: StrictCsms;
  let hook: { url: string; server: Server };
  before(async () => {
    svc = await startTestService();
    host = await createServiceHost(svc.service.deps);
    csms = await startStrictCsms();
    hook = await startHook(csms);
  });
  after(async () => {
    hook.server.close();
    await host.close();
    await svc.close();
    await csms.close();
  });

  for (const file of READY) {
    test(`${file} passes against the built-in central system`, async () => {
      const result = await runScenario(host, { orgId: 'org-a', scenario: scenarioOf(file) });
      assert.equal(result.status, 'passed', explain(result));
      assert.ok(result.expectations.passed > 0);
    });

    test(`${file} passes against a strict ocpp-rpc central system`, async () => {
      const result = await runScenario(host, {
        orgId: 'org-a',
        scenario: scenarioOf(file),
        wsUrl: csms.url,
        csmsHook: hook.url,
      });
      assert.equal(result.status, 'passed', explain(result));
      assert.deepEqual(csms.schemaErrors, []);
    });
  }
});

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
    // The run stopped there: nothing after the failed step ran.
    assert.equal(result.steps.at(-1)!.path, '4');
  });
});
