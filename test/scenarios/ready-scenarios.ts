// Every ready scenario of scenarios/ passes against the built-in central system and against a
// strict ocpp-rpc central system written here (its csms_call steps reach it through a hook, as an
// external central system's would): readyScenariosSuite(dir), run by one test file per folder
// (ready-scenarios-<dir>.test.ts) so the versions run side by side. The firmware and diagnostics scenarios get a real HTTP server
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

/** The ready scenarios of one folder of scenarios/ (ocpp16, ocpp201, ocpp21). */
export const readyIn = (dir: string) =>
  readdirSync(join('scenarios', dir))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join('scenarios', dir, f));

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

export function readyScenariosSuite(dir: string): void {
  describe(`ready scenarios of scenarios/${dir}`, () => {
    let svc: TestService;
    let host: ScenarioHost;
    let csms: StrictCsms;
    let hook: { url: string; server: Server };
    let http: TransferServer;
    let variables: Record<string, string>;
    before(async () => {
      svc = await startTestService();
      host = await createServiceHost(svc.service.deps);
      csms = await startStrictCsms({ protocols: ['ocpp1.6', 'ocpp2.0.1', 'ocpp2.1'] });
      hook = await startHook(csms);
      http = await startTransferServer();
      http.file('/fw/evsim-ac-2.4.1.bin', 'EVSIM firmware image\n');
      variables = {
        firmware_url: `${http.url}/fw/evsim-ac-2.4.1.bin`,
        upload_url: `${http.url}/diagnostics/`,
      };
    });
    after(async () => {
      await http.close();
      hook.server.close();
      await host.close();
      await svc.close();
      await csms.close();
    });

    for (const file of readyIn(dir)) {
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
}
