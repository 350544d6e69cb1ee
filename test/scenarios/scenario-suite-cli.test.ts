// `npm run scenario -- --suite DIR`: the cases of a folder as one run on the in-process service, a
// verdict each (passed, failed, blocked by a failed precondition, not applicable to a profile not
// claimed), warnings apart, a charger misbehaving on purpose, one JUnit testsuite per profile, exit 1 when a case failed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../tools/scenario/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'evsim-suite-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const doc = (id: string, profile: string, steps: string) => `name: ${id} case
test_case: { id: ${id}, title: '${id} title', profile: ${profile}, requirements: ['REQ ${id}'] }
chargers: [{ id: cp, ocpp_version: ocpp1.6 }]
steps:
${steps}`;

test('a suite folder: a verdict per case, warnings apart, JUnit per profile, exit 1 on a failure', async () => {
  const cases = join(dir, 'cases');
  rmSync(cases, { recursive: true, force: true });
  mkdirSync(cases);
  writeFileSync(
    join(cases, 'a.yaml'),
    doc(
      'TC_A',
      'Core',
      `  - send: { action: DataTransfer, payload: { vendorId: org.evsim.test } }
  - expect_answer: { action: DataTransfer, payload: { status: '/.+/' } }
  - expect_answer: { action: DataTransfer, payload: { status: Accepted }, within_s: 1 }
    severity: warning`,
    ),
  );
  writeFileSync(
    join(cases, 'b.yaml'),
    doc('TC_B', 'Core', '  - expect_answer: { action: Heartbeat, within_s: 1 }'),
  );
  writeFileSync(
    join(cases, 'c.yaml'),
    doc(
      'TC_C',
      'Core',
      '  - wait_for_frame: { from: charger, action: Heartbeat, timeout_s: 1 }\n    precondition: true',
    ),
  );
  // The charger misbehaves on purpose: a CALL that breaks its schema, answered with a CALLERROR.
  writeFileSync(
    join(cases, 'e.yaml'),
    doc(
      'TC_E',
      'Core',
      `  - misbehave: { kind: raw_text, text: '[2,"evsim-bad-1","Heartbeat",{"unexpected":1}]' }
  - wait_for_frame: { action: Heartbeat, type: CALLERROR, timeout_s: 5 }`,
    ),
  );
  writeFileSync(join(cases, 'd.yaml'), doc('TC_D', 'Reservation', '  - wait: { seconds: 1 }'));
  const junit = join(dir, 'suite.xml');
  let stdout = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'string')
      return (write as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    stdout += chunk;
    return true;
  }) as typeof process.stdout.write;
  let code: number;
  try {
    code = await main(['--suite', cases, '--profiles', 'Core', '--junit', junit]);
  } finally {
    process.stdout.write = write;
  }
  assert.equal(code, 1, stdout);
  assert.match(stdout, /✔ TC_A TC_A title \(passed, 1 warning\(s\)\)/);
  assert.match(stdout, /✘ TC_B TC_B title \(failed\)/);
  assert.match(stdout, /⊘ TC_C TC_C title \(blocked\)/);
  assert.match(stdout, /– TC_D TC_D title \(not applicable\)/);
  assert.match(stdout, /✔ TC_E TC_E title \(passed\)/);
  assert.match(stdout, /Core\s+4\s+2\s+1\s+1\s+0\s+1/);
  assert.match(stdout, /WARNING TC_A: step 3 expect_answer DataTransfer/);
  const xml = readFileSync(junit, 'utf8');
  assert.equal((xml.match(/<testsuite /g) ?? []).length, 2);
  assert.match(xml, /<testsuite name="Core" tests="4" failures="1" errors="0" skipped="1"/);
  assert.match(
    xml,
    /<testcase classname="Core" name="TC_B TC_B title"[^]*?<failure message="step 1 expect_answer Heartbeat[^"]*" type="REQ TC_B">/,
  );
  assert.match(xml, /name="TC_C TC_C title"[^]*?<skipped message="blocked: step 1 wait_for_frame Heartbeat/);
  assert.match(xml, /name="TC_D TC_D title"[^]*?<skipped message="not applicable"\/>/);
});

test('a suite with a document that does not load is refused before anything runs (exit 2)', async () => {
  const bad = join(dir, 'bad');
  mkdirSync(bad, { recursive: true });
  writeFileSync(join(bad, 'x.yaml'), doc('TC_X', 'Core', '  - nope: {}'));
  const err = process.stderr.write;
  let stderr = '';
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    assert.equal(await main(['--suite', bad]), 2);
  } finally {
    process.stderr.write = err;
  }
  assert.match(stderr, /x\.yaml: steps\.1: unknown step 'nope'/);
});
