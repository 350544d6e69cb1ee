// The replay's input and rules: the {t, dir, msg} format of a real charger's frames (its identity
// and subprotocol from the recording, the central system's calls answered as recorded), bad lines
// named by number, usage errors, and the comparison rules one by one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { compareAnswers } from '../../tools/replay/compare.ts';
import { readRecording } from '../../tools/replay/recording.ts';
import { replayCli } from './replay-cli.ts';

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'evsim-replay-input-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A recording file of these lines (objects as JSON, strings as they are). */
function recording(lines: unknown[]): string {
  const file = join(dir, `rec-${++n}.jsonl`);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}

const T = Date.parse('2026-01-05T08:00:00Z');
const at = (s: number) => new Date(T + s * 1000).toISOString();
/** A real charger's session, as its frames: boot, a GetConfiguration from the CSMS, Authorize. */
const REAL_CHARGER = [
  { identity: 'FIELD-CP-7', subprotocol: 'ocpp1.6' },
  {
    t: at(0),
    dir: 'out',
    msg: [2, 'a1', 'BootNotification', { chargePointVendor: 'X', chargePointModel: 'Y' }],
  },
  { t: at(0.1), dir: 'in', msg: [3, 'a1', { status: 'Accepted', currentTime: at(0.1), interval: 300 }] },
  { t: at(0.2), dir: 'in', msg: [2, 'c1', 'GetConfiguration', { key: ['HeartbeatInterval'] }] },
  {
    t: at(0.3),
    dir: 'out',
    msg: [3, 'c1', { configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] }],
  },
  { t: at(0.4), dir: 'out', msg: '[2,"a2","Authorize",{"idTag":"TAG-FIELD"}]' },
  { t: T + 500, dir: 'in', msg: [3, 'a2', { idTagInfo: { status: 'Accepted' } }] },
];

describe('a real charger recorded as {t, dir, msg} frames, replayed against a strict central system', () => {
  let csms: StrictCsms;
  let answers: unknown[];
  before(async () => {
    answers = [];
    csms = await startStrictCsms({
      protocols: ['ocpp1.6'],
      handlers: {
        // As the recorded central system did: it asks for the configuration after the boot.
        BootNotification: (_p, client) => {
          setImmediate(() =>
            csms
              .call(client.identity!, 'GetConfiguration', { key: ['HeartbeatInterval'] })
              .then((a) => answers.push(a)),
          );
          return { status: 'Accepted', currentTime: new Date().toISOString(), interval: 300 };
        },
      },
    });
  });
  after(() => csms.close());

  test('connects as the recorded identity and subprotocol, answers the CSMS’s call as recorded: no difference', async () => {
    const r = await replayCli([recording(REAL_CHARGER), '--ws-url', csms.url, '--speed', 'max']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /replayed as FIELD-CP-7 \(ocpp1\.6\).*2 call\(s\) sent, 2 answer\(s\) compared, 1 call\(s\) of the central system answered, 0 frame\(s\) differ/,
    );
    assert.deepEqual(
      csms.received.map((c) => `${c.identity} ${c.protocol} ${c.action}`),
      ['FIELD-CP-7 ocpp1.6 BootNotification', 'FIELD-CP-7 ocpp1.6 Authorize'],
    );
    await csms.waitFor(() => answers.length === 1);
    assert.deepEqual(answers, [
      { configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] },
    ]);
    assert.deepEqual(csms.schemaErrors, []);
  });

  test('a recorded call of the central system that never comes is reported at its line', async () => {
    const lines = [
      ...REAL_CHARGER.slice(0, 3),
      { t: at(0.25), dir: 'in', msg: [2, 'c2', 'ClearCache', {}] },
      { t: at(0.26), dir: 'out', msg: [3, 'c2', { status: 'Accepted' }] },
      ...REAL_CHARGER.slice(3),
    ];
    const r = await replayCli([
      recording(lines),
      '--ws-url',
      csms.url,
      '--speed',
      'max',
      '--timeout',
      '0.5',
      '--json',
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).differences, [
      { line: 4, action: 'ClearCache', field: 'call', rule: 'presence', expected: {}, got: '(none)' },
    ]);
  });

  test('--identity overrides the recorded one', async () => {
    const r = await replayCli([
      recording(REAL_CHARGER),
      '--ws-url',
      csms.url,
      '--speed',
      '0',
      '--identity',
      'OTHER-1',
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(csms.received.some((c) => c.identity === 'OTHER-1'));
  });
});

describe('bad input: one line naming the problem, exit 2', () => {
  const cases: Array<[string, unknown[], RegExp]> = [
    ['a line that is not JSON', [REAL_CHARGER[0], REAL_CHARGER[1], '{"t": 1, "dir"'], /: line 3: not JSON$/],
    [
      'a frame that is not OCPP-J',
      [{ t: 1, dir: 'out', msg: [9, 'x'] }],
      /: line 1: not a CALL, CALLRESULT or CALLERROR$/,
    ],
    [
      'a direction that is neither',
      [{ t: 1, dir: 'up', msg: [2, 'x', 'Heartbeat', {}] }],
      /: line 1: dir is 'out' or 'in'/,
    ],
    [
      'a time that is not one',
      [{ t: 'soon', dir: 'out', msg: [2, 'x', 'Heartbeat', {}] }],
      /: line 1: the time is not/,
    ],
    ['a line of neither format', [REAL_CHARGER[1], { hello: 1 }], /: line 2: neither a message log item/],
    ['an unknown subprotocol', [{ subprotocol: 'ocpp9' }], /: line 1: unknown subprotocol 'ocpp9'$/],
    ['no frame at all', [REAL_CHARGER[0]], /: the recording holds no OCPP-J frame$/],
    [
      'both formats mixed',
      [
        REAL_CHARGER[1],
        {
          id: '1',
          at: at(1),
          direction: 'out',
          type: 'CALL',
          message_id: 'h',
          action: 'Heartbeat',
          frame: [2, 'h', 'Heartbeat', {}],
          error: null,
        },
      ],
      /mixes message log items and \{t, dir, msg\} frames$/,
    ],
  ];
  for (const [what, lines, message] of cases)
    test(what, async () => {
      const r = await replayCli([recording(lines), '--ws-url', 'ws://127.0.0.1:9']);
      assert.equal(r.code, 2);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.match(r.stderr.trimEnd(), message);
      assert.equal(r.stdout, '');
    });

  test('no identity in the recording and no --identity', async () => {
    const r = await replayCli([recording(REAL_CHARGER.slice(1)), '--ws-url', 'ws://127.0.0.1:9']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no charge point identity in the recording: give --identity\n$/);
  });

  test('a central system out of reach', async () => {
    const r = await replayCli([recording(REAL_CHARGER), '--ws-url', 'ws://127.0.0.1:9']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /cannot connect to ws:\/\/127\.0\.0\.1:9\/FIELD-CP-7: ECONNREFUSED/);
  });
});

describe('options', () => {
  test('--help prints the usage on stdout and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await replayCli([flag]);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^usage: npm run replay -- FILE --ws-url URL \[options\]/);
      assert.equal(r.stderr, '');
    }
  });

  const usage: Array<[string, string[], RegExp]> = [
    ['no FILE', [], /^usage: npm run replay/],
    ['neither --ws-url nor --to-scenario', ['f.jsonl'], /give either --ws-url URL/],
    [
      'both --ws-url and --to-scenario',
      ['f.jsonl', '--ws-url', 'ws://x', '--to-scenario', 'o.yaml'],
      /give either/,
    ],
    ['a negative --speed', ['f.jsonl', '--ws-url', 'ws://x', '--speed=-2'], /--speed: a number >= 0, or max/],
    ['an unknown --ocpp', ['f.jsonl', '--ws-url', 'ws://x', '--ocpp', '1.5'], /--ocpp: one of ocpp1\.6/],
    ['an http --ws-url', ['f.jsonl', '--ws-url', 'http://x'], /--ws-url: a ws:\/\/ or wss:\/\/ URL/],
    ['an unknown option', ['f.jsonl', '--fast'], /Unknown option '--fast'/],
  ];
  for (const [what, argv, message] of usage)
    test(`${what}: exit 2`, async () => {
      const r = await replayCli(argv);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
    });
});

describe('the recording', () => {
  test('a central system’s log (out = sent by it) is turned round; answers name their call', () => {
    const item = (id: number, direction: string, frame: unknown[], action: string | null) => ({
      id: String(id),
      at: at(id),
      direction,
      type: frame[0] === 2 ? 'CALL' : 'CALLRESULT',
      message_id: frame[1],
      action,
      frame,
      error: null,
    });
    const rec = readRecording(
      [
        item(
          2,
          'out',
          [3, 'b', { status: 'Accepted', currentTime: at(0), interval: 60 }],
          'BootNotification',
        ),
        item(
          1,
          'in',
          [
            2,
            'b',
            'BootNotification',
            { chargingStation: { model: 'M', vendorName: 'V' }, reason: 'PowerUp' },
          ],
          'BootNotification',
        ),
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    assert.deepEqual(
      rec.frames.map((f) => `${f.line} ${f.from} ${f.type} ${f.action}`),
      ['2 charger 2 BootNotification', '1 csms 3 BootNotification'],
    );
    assert.equal(rec.version, 'ocpp2.0.1');
  });
});

describe('the comparison rules', () => {
  const ok = (payload: Record<string, unknown>) => ({ type: 3 as const, payload });
  test('the message type, then a CALLERROR’s code (not its description)', () => {
    const err = (code: string, description = '') => ({
      type: 4 as const,
      payload: { errorCode: code, errorDescription: description, errorDetails: {} },
    });
    assert.deepEqual(compareAnswers(ok({}), err('InternalError')), [
      { field: 'type', rule: 'type', expected: 'CALLRESULT', got: 'CALLERROR' },
    ]);
    assert.deepEqual(compareAnswers(err('NotSupported', 'a'), err('NotSupported', 'b')), []);
    assert.deepEqual(compareAnswers(err('NotSupported'), err('NotImplemented')), [
      { field: 'errorCode', rule: 'error_code', expected: 'NotSupported', got: 'NotImplemented' },
    ]);
  });
  test('status at any depth, fields present, other values; times and ids ignored', () => {
    const recorded = ok({
      transactionId: 1,
      idTokenInfo: {
        status: 'Accepted',
        cacheExpiryDateTime: at(0),
        groupIdToken: { idToken: 'G', type: 'Central' },
      },
      totalCost: 1.5,
    });
    assert.deepEqual(
      compareAnswers(
        recorded,
        ok({
          transactionId: 9,
          idTokenInfo: {
            status: 'Accepted',
            cacheExpiryDateTime: at(99),
            groupIdToken: { idToken: 'G', type: 'Central' },
          },
          totalCost: 1.5,
        }),
      ),
      [],
    );
    assert.deepEqual(
      compareAnswers(
        recorded,
        ok({
          transactionId: 9,
          idTokenInfo: { status: 'Invalid', groupIdToken: { idToken: 'H', type: 'Central' } },
          totalCost: 2,
          chargingPriority: 1,
        }),
      ),
      [
        { field: 'idTokenInfo.status', rule: 'status', expected: 'Accepted', got: 'Invalid' },
        { field: 'idTokenInfo.cacheExpiryDateTime', rule: 'presence', expected: at(0), got: '(absent)' },
        { field: 'idTokenInfo.groupIdToken.idToken', rule: 'value', expected: 'G', got: 'H' },
        { field: 'totalCost', rule: 'value', expected: 1.5, got: 2 },
        { field: 'chargingPriority', rule: 'presence', expected: '(absent)', got: 1 },
      ],
    );
  });
});
