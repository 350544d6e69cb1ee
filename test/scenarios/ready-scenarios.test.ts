// Every ready scenario of scenarios/ passes against the built-in central system and against a
// strict ocpp-rpc central system written here (its csms_call steps reach it through a hook, as an
// external central system's would); one whose central system answers wrongly on purpose fails,
// naming the step and the frame. The firmware and diagnostics scenarios get a real HTTP server
// (the charger tests' transfer server) for the image and the log upload, through their variables.
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
import { startTransferServer, type TransferServer } from '../charger/transfer-server.ts';

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

/** What reached the transfer server now: firmware downloads and log uploads. */
const transfers = (http: TransferServer) => ({
  downloads: http.hits('/fw/evsim-ac-2.4.1.bin'),
  uploads: http.uploads.filter((u) => u.path.startsWith('/diagnostics/')).length,
});

/** A firmware scenario fetched the image, a diagnostics one uploaded a log file, once each. */
function assertTransfers(
  file: string,
  before: ReturnType<typeof transfers>,
  now: ReturnType<typeof transfers>,
) {
  assert.deepEqual(now, {
    downloads: before.downloads + (file.includes('firmware') ? 1 : 0),
    uploads: before.uploads + (file.includes('diagnostics') ? 1 : 0),
  });
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
  let http: TransferServer;
  let variables: Record<string, string>;
  before(async () => {
    svc = await startTestService();
    host = await createServiceHost(svc.service.deps);
    csms = await startStrictCsms();
    hook = await startHook(csms);
    http = await startTransferServer();
    http.file('/fw/evsim-ac-2.4.1.bin', 'EVSIM firmware image\n');
    variables = { firmware_url: `${http.url}/fw/evsim-ac-2.4.1.bin`, upload_url: `${http.url}/diagnostics/` };
  });
  after(async () => {
    await http.close();
    hook.server.close();
    await host.close();
    await svc.close();
    await csms.close();
  });

  for (const file of READY) {
    test(`${file} passes against the built-in central system`, async () => {
      const seen = transfers(http);
      const result = await runScenario(host, { orgId: 'org-a', scenario: scenarioOf(file), variables });
      assert.equal(result.status, 'passed', explain(result));
      assertTransfers(file, seen, transfers(http));
      assert.ok(result.expectations.passed > 0);
    });

    test(`${file} passes against a strict ocpp-rpc central system`, async () => {
      const seen = transfers(http);
      const result = await runScenario(host, {
        orgId: 'org-a',
        scenario: scenarioOf(file),
        wsUrl: csms.url,
        csmsHook: hook.url,
        variables,
      });
      assert.equal(result.status, 'passed', explain(result));
      assert.deepEqual(csms.schemaErrors, []);
      assertTransfers(file, seen, transfers(http));
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
