// A recorded session replayed: a 1.6 charger's start/stop session against the built-in central
// system, exported from its message log, replayed against the built-in central system (no
// difference, exit 0) and against a strict ocpp-rpc central system that blocks the token (exactly
// the Authorize frame reported, exit 1); and the same recording as a scenario that parses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../deployments/deployment-helpers.ts';
import { run } from '../commands/command-helpers.ts';
import { logUntil } from '../message-log/log-helpers.ts';
import { parse as parseYaml } from 'yaml';
import { loadScenario } from '../../engine/scenarios/load-scenario.ts';
import { replayCli } from './replay-cli.ts';

describe(`npm run replay: a recorded 1.6 session (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let dir: string;
  let file: string;
  /** The line of the Authorize CALL in the file (newest first: counted from the end). */
  let authorizeLine: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evsim-replay-'));
    svc = await startTestService();
    as = svc.as('org-replay');
    // Recorded: a charger of the built-in central system boots, charges and stops.
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity: 'REC16-1', model: DUAL_MODEL, ocpp_version: 'ocpp1.6' },
    });
    assert.equal(res.status, 201, res.text);
    const target = { deployment_id: res.body.deployment_id };
    await eventually(
      () => eventsOf(as, 'REC16-1'),
      (ev) => ev.some((e) => e.stage === 'online'),
    );
    assert.equal((await run(as, 'plug-in', { target, payload: { connector_id: 1 } })).status, 'completed');
    const started = await run(as, 'present-token', {
      target,
      payload: { id_tag: 'TAG-REC', connector_id: 1 },
    });
    assert.equal(started.status, 'completed', JSON.stringify(started));
    assert.equal((await run(as, 'unplug', { target, payload: { connector_id: 1 } })).status, 'completed');
    // Until every call of the charger is answered (the last StatusNotification's answer included).
    const items = await logUntil(
      as,
      `/evcharger/deployments/${target.deployment_id}/ocpp-log`,
      (list) =>
        list.some((i) => i.type === 'CALL' && i.action === 'StopTransaction') &&
        list.filter((i) => i.type === 'CALL').length === list.filter((i) => i.type === 'CALLRESULT').length,
    );
    // The export: JSON lines, newest first as the API pages them (the reader orders them by id).
    file = join(dir, 'session.jsonl');
    writeFileSync(
      file,
      [...items]
        .reverse()
        .map((i) => JSON.stringify(i))
        .join('\n') + '\n',
    );
    authorizeLine = items.length - items.findIndex((i) => i.type === 'CALL' && i.action === 'Authorize');
  });
  after(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('against the built-in central system: no answer differs, exit 0', async () => {
    const id = 'REPLAY16-1';
    assert.equal((await as('POST', '/cpo/charge-points', { body: { charge_point_id: id } })).status, 201);
    const issued = await as('POST', `/cpo/charge-points/${id}/credentials`);
    assert.equal(issued.status, 201, issued.text);
    const wsUrl = `${svc.url.replace(/^http/, 'ws')}/ocpp`;
    // Without its password the central system refuses the charge point: one line, exit 2.
    const refused = await replayCli([file, '--ws-url', wsUrl, '--identity', id]);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /^.*session\.jsonl: cannot connect to ws:.*\/REPLAY16-1: HTTP 401 \(give --password\)\n$/,
    );
    const r = await replayCli([
      file,
      '--ws-url',
      wsUrl,
      '--identity',
      id,
      '--password',
      issued.body.password,
      '--speed',
      '4',
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^SAME: .* replayed as REPLAY16-1 \(ocpp1\.6\) .*: 10 call\(s\) sent, 10 answer\(s\) compared, .* 0 frame\(s\) differ$/m,
    );
    // The central system saw the session: its own log holds the replayed calls, its transaction stopped.
    const cpLog = await logUntil(as, `/cpo/charge-points/${id}/ocpp-log`, (list) =>
      list.some((i) => i.type === 'CALLRESULT' && i.action === 'StopTransaction'),
    );
    const started = cpLog.find((i) => i.type === 'CALLRESULT' && i.action === 'StartTransaction')!;
    const stopped = cpLog.find((i) => i.type === 'CALL' && i.action === 'StopTransaction')!;
    // The recorded transaction id was replaced by the one this central system gave.
    assert.equal((stopped.frame as any[])[3].transactionId, (started.frame as any[])[2].transactionId);
  });

  describe('against a strict central system that blocks the token', () => {
    let csms: StrictCsms;
    before(async () => {
      csms = await startStrictCsms({
        protocols: ['ocpp1.6'],
        handlers: { Authorize: () => ({ idTagInfo: { status: 'Blocked' } }) },
      });
    });
    after(() => csms.close());

    test('exactly the Authorize frame is reported, with its line, field, expected and got; exit 1', async () => {
      const r = await replayCli([
        file,
        '--ws-url',
        csms.url,
        '--identity',
        'REPLAY16-2',
        '--speed',
        'max',
        '--json',
      ]);
      assert.equal(r.code, 1, r.stderr);
      const report = JSON.parse(r.stdout);
      assert.deepEqual(report.differences, [
        {
          line: authorizeLine,
          action: 'Authorize',
          field: 'idTagInfo.status',
          rule: 'status',
          expected: 'Accepted',
          got: 'Blocked',
        },
      ]);
      assert.deepEqual(report.summary, { differing_frames: 1, differences: 1 });
      assert.equal(report.sent, 10);
      assert.deepEqual(csms.schemaErrors, []);
      // The same in text: one line per difference, then the summary.
      const text = await replayCli([file, '--ws-url', csms.url, '--identity', 'REPLAY16-3', '--speed', '0']);
      assert.equal(text.code, 1);
      assert.deepEqual(text.stdout.trimEnd().split('\n').slice(0, -1), [
        `  line ${authorizeLine} Authorize: idTagInfo.status: expected "Accepted", got "Blocked"`,
      ]);
      assert.match(text.stdout, /^DIFFERENT: .* 1 frame\(s\) differ$/m);
    });
  });

  test('--to-scenario writes a scenario the scenario schema accepts, and it passes against the built-in central system', async () => {
    const out = join(dir, 'session.yaml');
    const r = await replayCli([file, '--to-scenario', out]);
    assert.equal(r.code, 0, r.stderr);
    const loaded = loadScenario(readFileSync(out, 'utf8'));
    assert.ok('scenario' in loaded, JSON.stringify(loaded));
    const { scenario } = loaded;
    assert.equal(scenario.chargers[0].ocpp_version, 'ocpp1.6');
    const kinds = scenario.steps.map((s) => Object.keys(s).find((k) => k !== 'name'));
    // Boot is the virtual charger's own; its answer is expected, then each call is sent and answered.
    assert.equal(kinds[0], 'expect_answer');
    assert.equal(kinds.filter((k) => k === 'send').length, 9);
    const authorize = scenario.steps.find(
      (s) => 'expect_answer' in s && s.expect_answer.action === 'Authorize',
    );
    assert.deepEqual((authorize as any).expect_answer.payload, { idTagInfo: { status: 'Accepted' } });
    // The transaction id the central system gives is saved and sent back in StopTransaction.
    const stop = scenario.steps.find((s) => 'send' in s && s.send.action === 'StopTransaction');
    assert.equal((stop as any).send.payload.transactionId, '${tx_1}');
    // And it runs: against the built-in central system, every expectation holds.
    const started = await as('POST', '/scenario-runs', {
      body: { scenario: parseYaml(readFileSync(out, 'utf8')) },
    });
    assert.equal(started.status, 201, started.text);
    const result = await eventually(
      async () => (await as('GET', `/scenario-runs/${started.body.run_id}`)).body,
      (b) => b.status !== 'running',
      60_000,
    );
    assert.equal(result.status, 'passed', JSON.stringify(result));
  });
});
