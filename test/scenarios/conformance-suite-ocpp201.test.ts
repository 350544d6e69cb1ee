// The OCPP 2.0.1 conformance suite (scenarios/conformance/ocpp201), run as a suite: every case
// passes against the built-in central system and against a strict ocpp-rpc central system written
// here (its operator prompts fulfilled through a hook); a central system that breaks one
// requirement per profile on purpose fails exactly those cases, the JUnit report naming the
// requirement and the frame.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type CsmsHandler, type StrictCsms } from '../support/strict-csms.ts';
import { createServiceHost, type ScenarioHost } from '../../engine/scenarios/scenario-host.ts';
import { runSuite } from '../../engine/conformance/suite-runner.ts';
import type { SuiteResult } from '../../engine/conformance/suite-result.ts';
import { loadSuite } from '../../tools/scenario/load-suite.ts';
import { suiteJunit } from '../../tools/scenario/suite-reports.ts';

const SUITE = 'scenarios/conformance/ocpp201';

/** The tokens a conformance run names as refused: this central system knows them so (by name). */
const tokenStatus = (idToken: string | undefined) =>
  idToken?.startsWith('INVALID')
    ? 'Invalid'
    : idToken?.startsWith('BLOCKED')
      ? 'Blocked'
      : idToken?.startsWith('EXPIRED')
        ? 'Expired'
        : 'Accepted';

const refusingHandlers: Record<string, CsmsHandler> = {
  Authorize: (p) => ({ idTokenInfo: { status: tokenStatus(p.idToken.idToken) } }),
  TransactionEvent: (p) => (p.idToken ? { idTokenInfo: { status: tokenStatus(p.idToken.idToken) } } : {}),
};

/** A call the hook makes the central system send instead of the one asked for (undefined: none). */
type Rewrite = (action: string, payload: Record<string, any>) => Record<string, any> | undefined;

/** The hook of the strict central system: it sends the call the prompt asks for (rewritten, if told). */
async function startHook(csms: StrictCsms, rewrite: Rewrite = (_a, p) => p) {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { identity, action, payload } = JSON.parse(body);
      const sent = rewrite(action, payload);
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

describe('the OCPP 2.0.1 conformance suite', () => {
  let svc: TestService;
  let host: ScenarioHost;
  const closers: Array<() => Promise<unknown> | void> = [];
  const suite = loadSuite(SUITE);
  assert.ok(!('problems' in suite), JSON.stringify(suite));

  before(async () => {
    svc = await startTestService();
    host = await createServiceHost(svc.service.deps);
  });
  after(async () => {
    for (const close of closers.reverse()) await close();
    await host.close();
    await svc.close();
  });

  const run = (external?: { wsUrl: string; csmsHook: string }) =>
    runSuite(host, { orgId: 'org-a', name: 'ocpp2.0.1', cases: suite.cases, concurrency: 8, ...external });

  async function strictCsms(handlers: Record<string, CsmsHandler>, rewrite?: Rewrite) {
    const csms = await startStrictCsms({ protocols: ['ocpp2.0.1'], handlers });
    const hook = await startHook(csms, rewrite);
    closers.push(
      () => csms.close(),
      () => void hook.server.close(),
    );
    return { csms, url: csms.url, hook: hook.url };
  }

  test('every case passes against the built-in central system', async () => {
    const r = await run();
    assert.deepEqual(notPassed(r), []);
    assert.ok(r.cases.length >= 38);
  });

  test('every case passes against a strict ocpp-rpc central system with its hook', async () => {
    const { csms, url, hook } = await strictCsms(refusingHandlers);
    const r = await run({ wsUrl: url, csmsHook: hook });
    assert.deepEqual(notPassed(r), []);
    assert.deepEqual(csms.schemaErrors, []);
  });

  test('a central system breaking one requirement per profile fails exactly those cases', async () => {
    const { url, hook } = await strictCsms(
      {
        ...refusingHandlers,
        // Core: an unknown token is accepted.
        Authorize: (p) => ({
          idTokenInfo: {
            status: p.idToken.idToken.startsWith('INVALID') ? 'Accepted' : tokenStatus(p.idToken.idToken),
          },
        }),
      },
      (action, payload) => {
        // Local Authorization List: no differential updates, always the full list.
        if (action === 'SendLocalList') return { ...payload, updateType: 'Full' };
        // Reservation: cancels the wrong reservation.
        if (action === 'CancelReservation') return { reservationId: payload.reservationId + 1 };
        // Smart Charging: the station-wide limit is sent for EVSE 1 instead of EVSE 0.
        if (payload.chargingProfile?.chargingProfilePurpose === 'ChargingStationMaxProfile')
          return { ...payload, evseId: 1 };
        return payload;
      },
    );
    const r = await run({ wsUrl: url, csmsHook: hook });
    const failed = r.cases.filter((c) => c.verdict === 'failed');
    assert.deepEqual(
      failed.map((c) => `${c.profile} ${c.id}`).sort(),
      [
        'Core TC_C_02_CSMS',
        'LocalAuthListManagement TC_D_02_CSMS',
        'Reservation TC_H_17_CSMS',
        'SmartCharging TC_K_03_CSMS',
      ],
      JSON.stringify(notPassed(r), null, 1),
    );
    assert.deepEqual(
      r.cases.filter((c) => c.verdict !== 'passed' && c.verdict !== 'failed').map((c) => c.id),
      [],
    );
    // The report names the requirement the case checks and the frame that disproved it.
    const junit = suiteJunit(r);
    const failure =
      /name="TC_C_02_CSMS [^"]*"[^]*?<failure message="([^"]*)" type="([^"]*)">([^<]*)<\/failure>/.exec(
        junit,
      )!;
    assert.ok(failure, junit);
    assert.match(failure[2], /OCPP2\.0\.1 C01\.FR\.02/);
    assert.match(failure[3], /Authorize/);
    assert.match(failure[3], /&quot;status&quot;:&quot;Accepted&quot;/);
    assert.equal((junit.match(/<testsuite /g) ?? []).length, 4);
  });
});
