// The OCPP 1.6 conformance suite (scenarios/conformance/ocpp16), run as a suite: every case passes
// against the built-in central system and against a strict ocpp-rpc central system written here
// (its operator prompts fulfilled through a hook); a central system that breaks one requirement
// per profile on purpose fails exactly those cases, the JUnit report naming the requirement and
// the frame. Firmware and log uploads go to a real HTTP server (the charger tests' transfer server).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRPCError } from 'ocpp-rpc';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type CsmsHandler, type StrictCsms } from '../support/strict-csms.ts';
import { createServiceHost, type ScenarioHost } from '../../engine/scenarios/scenario-host.ts';
import { runSuite } from '../../engine/conformance/suite-runner.ts';
import type { SuiteResult } from '../../engine/conformance/suite-result.ts';
import { loadSuite } from '../../tools/scenario/load-suite.ts';
import { suiteJunit } from '../../tools/scenario/suite-reports.ts';
import { startTransferServer, type TransferServer } from '../charger/transfer-server.ts';

const SUITE = 'scenarios/conformance/ocpp16';
const CONCURRENCY = 8;

/** The tokens a conformance run names as refused: this central system knows them so (by name). */
const tokenStatus = (idTag: string | undefined) =>
  idTag?.startsWith('INVALID')
    ? 'Invalid'
    : idTag?.startsWith('BLOCKED')
      ? 'Blocked'
      : idTag?.startsWith('EXPIRED')
        ? 'Expired'
        : 'Accepted';

function refusingHandlers(): Record<string, CsmsHandler> {
  let next = 1;
  return {
    Authorize: (p) => ({ idTagInfo: { status: tokenStatus(p.idTag) } }),
    StartTransaction: (p) => ({ transactionId: next++, idTagInfo: { status: tokenStatus(p.idTag) } }),
  };
}

/** A call the hook makes the central system send instead of the one asked for (undefined: none). */
type Rewrite = (action: string, payload: Record<string, any>) => Record<string, any> | undefined;

/** The hook of the strict central system: it sends the call the prompt asks for (rewritten, if told). */
async function startHook(csms: StrictCsms, rewrite?: Rewrite): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { identity, action, payload, prompt } = JSON.parse(body);
      assert.equal(typeof prompt, 'string');
      const sent = rewrite ? rewrite(action, payload) : payload;
      if (sent === undefined) return void res.writeHead(204).end();
      csms.call(identity, action, sent).then(
        () => res.writeHead(204).end(),
        (err: Error) => res.writeHead(502).end(err.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/csms-call`, server };
}

const notPassed = (r: SuiteResult) =>
  r.cases.filter((c) => c.verdict !== 'passed').map((c) => `${c.id}: ${c.verdict}: ${c.message}`);

describe('the OCPP 1.6 conformance suite', () => {
  let svc: TestService;
  let host: ScenarioHost;
  let http: TransferServer;
  let variables: Record<string, string>;
  const closers: Array<() => Promise<unknown> | void> = [];
  const suite = loadSuite(SUITE);
  assert.ok(!('problems' in suite), JSON.stringify(suite));

  before(async () => {
    svc = await startTestService();
    host = await createServiceHost(svc.service.deps);
    http = await startTransferServer();
    http.file('/fw/evsim-ac-2.4.1.bin', 'EVSIM firmware image\n');
    variables = {
      firmware_url: `${http.url}/fw/evsim-ac-2.4.1.bin`,
      upload_url: `${http.url}/diagnostics/`,
    };
  });
  after(async () => {
    for (const close of closers.reverse()) await close();
    await http.close();
    await host.close();
    await svc.close();
  });

  const run = (external?: { wsUrl: string; csmsHook: string }) =>
    runSuite(host, {
      orgId: 'org-a',
      name: 'ocpp1.6',
      cases: suite.cases,
      variables,
      concurrency: CONCURRENCY,
      ...external,
    });

  async function strictCsms(handlers: Record<string, CsmsHandler>, rewrite?: Rewrite) {
    const csms = await startStrictCsms({ protocols: ['ocpp1.6'], handlers });
    const hook = await startHook(csms, rewrite);
    closers.push(
      () => csms.close(),
      () => void hook.server.close(),
    );
    return { csms, hook };
  }

  test('every case passes against the built-in central system', async () => {
    const r = await run();
    assert.deepEqual(notPassed(r), []);
    assert.ok(r.cases.length >= 50);
  });

  test('every case passes against a strict ocpp-rpc central system with its hook', async () => {
    const { csms, hook } = await strictCsms(refusingHandlers());
    const r = await run({ wsUrl: csms.url, csmsHook: hook.url });
    assert.deepEqual(notPassed(r), []);
    assert.deepEqual(csms.schemaErrors, []);
  });

  test('a central system breaking one requirement per profile fails exactly those cases', async () => {
    const { csms, hook } = await strictCsms(
      {
        ...refusingHandlers(),
        // Core: an unknown token is accepted.
        Authorize: (p) => ({
          idTagInfo: { status: p.idTag.startsWith('INVALID') ? 'Accepted' : tokenStatus(p.idTag) },
        }),
        // Security: the security log's notification is not implemented.
        LogStatusNotification: () => {
          throw createRPCError('NotImplemented', 'no');
        },
      },
      (action, payload) => {
        // Firmware Management: the firmware location is sent wrong.
        if (action === 'UpdateFirmware') return { ...payload, location: `${payload.location}.missing` };
        // Local Auth List: no differential updates, always the full list.
        if (action === 'SendLocalList') return { ...payload, updateType: 'Full' };
        // Reservation: cancels the wrong reservation.
        if (action === 'CancelReservation') return { reservationId: payload.reservationId + 1 };
        // Remote Trigger: never triggers a Heartbeat.
        if (action === 'TriggerMessage' && payload.requestedMessage === 'Heartbeat') return undefined;
        // Smart Charging: never clears a profile.
        if (action === 'ClearChargingProfile') return undefined;
        return payload;
      },
    );
    const r = await run({ wsUrl: csms.url, csmsHook: hook.url });
    const failed = r.cases.filter((c) => c.verdict === 'failed');
    assert.deepEqual(
      failed.map((c) => `${c.profile} ${c.id}`).sort(),
      [
        'Core TC_023_1_CSMS',
        'FirmwareManagement TC_044_1_CSMS',
        'LocalAuthListManagement TC_043_5_CSMS',
        'RemoteTrigger TC_054_CSMS',
        'Reservation TC_051_CSMS',
        'Security TC_079_CSMS',
        'SmartCharging TC_067_CSMS',
      ],
      JSON.stringify(notPassed(r), null, 1),
    );
    assert.deepEqual(
      r.cases.filter((c) => c.verdict !== 'passed' && c.verdict !== 'failed').map((c) => c.id),
      [],
    );
    // The report names the requirement the case checks and the frame that disproved it.
    const junit = suiteJunit(r);
    const core = failed.find((c) => c.id === 'TC_023_1_CSMS')!;
    assert.match(core.message!, /no answer to Authorize with \{"idTagInfo":\{"status":"Invalid"\}\}/);
    const failure =
      /name="TC_023_1_CSMS [^"]*"[^]*?<failure message="([^"]*)" type="([^"]*)">([^<]*)<\/failure>/.exec(
        junit,
      )!;
    assert.ok(failure, junit);
    assert.match(failure[2], /OCPP1\.6 4\.1 Authorize/);
    assert.match(failure[3], /requirements: OCPP1\.6 4\.1 Authorize/);
    assert.match(failure[3], /Authorize/);
    assert.match(failure[3], /&quot;status&quot;:&quot;Accepted&quot;/);
    assert.equal((junit.match(/<testsuite /g) ?? []).length, 7);
  });
});
