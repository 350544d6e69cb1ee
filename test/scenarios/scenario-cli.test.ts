// The CLI a CI job calls: exit code 0 only when every expectation held, JUnit XML and HTML reports
// that name the failed step and the frame.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { main } from '../../tools/scenario/main.ts';
import { parseOptions } from '../../tools/scenario/options.ts';

/** Runs the CLI, keeping what it prints (and printing nothing). */
async function captured(
  argv: string[],
  options?: Parameters<typeof main>[1],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  // The CLI writes strings; the test runner's own messages (bytes) go through untouched.
  const keep = (stream: 'stdout' | 'stderr') =>
    ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'string')
        return (write[stream] as (...a: unknown[]) => boolean).call(process[stream], chunk, ...rest);
      out[stream] += chunk;
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = keep('stdout');
  process.stderr.write = keep('stderr');
  try {
    const code = await main(argv, options);
    return { code, ...out };
  } finally {
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
  }
}

test('--help prints the usage on stdout and exits 0', async () => {
  for (const flag of ['--help', '-h']) {
    const r = await captured([flag]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^usage: npm run scenario -- FILE \[options\]/);
    assert.equal(r.stderr, '');
  }
});

describe('npm run scenario --api', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => await svc.close());

  test('a wrong --token is one line naming the option, exit 2, no stack trace', async () => {
    const r = await captured(['scenarios/ocpp16/boot.yaml', '--api', svc.url, '--token', 'not-a-token']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /--token/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  test('a service that cannot be reached is one line naming the URL, exit 2', async () => {
    const r = await captured(['scenarios/ocpp16/boot.yaml', '--api', 'http://127.0.0.1:9', '--token', 't']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /http:\/\/127\.0\.0\.1:9/);
  });
});

describe('npm run scenario', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'evsim-scenario-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  let csms: StrictCsms;
  before(async () => {
    csms = await startStrictCsms({ handlers: { Authorize: () => ({ idTagInfo: { status: 'Blocked' } }) } });
  });
  after(async () => await csms.close());

  test('exits 1 when an expectation fails; the reports name the step and the frame', async () => {
    const junit = join(dir, 'report.xml');
    const html = join(dir, 'report.html');
    const code = await main([
      'scenarios/ocpp16/local-start-stop.yaml',
      '--ws-url',
      csms.url,
      '--junit',
      junit,
      '--html',
      html,
    ]);
    assert.equal(code, 1);
    const xml = readFileSync(junit, 'utf8');
    // Steps 0-4 ran (4 failed); 5-10 were not reached: skipped test cases, not absent ones.
    assert.match(
      xml,
      /<testsuite name="1\.6 local start and stop[^"]*" tests="11" failures="1" errors="0" skipped="6"/,
    );
    assert.match(
      xml,
      /<testcase [^>]*name="5 expect_answer StartTransaction"[^>]*>\s*<skipped message="not reached"\/>\s*<\/testcase>/,
    );
    assert.match(
      xml,
      /<testcase [^>]*name="10 expect_status Available connector 1"[^>]*>\s*<skipped message="not reached"\/>/,
    );
    assert.match(
      xml,
      /<testcase [^>]*name="4 expect_answer Authorize"[^>]*>\s*<failure message="[^"]*no answer to Authorize/,
    );
    assert.match(
      xml,
      /&quot;frame&quot;:\[3,&quot;[^&]+&quot;,\{&quot;idTagInfo&quot;:\{&quot;status&quot;:&quot;Blocked&quot;\}\}\]/,
    );
    const page = readFileSync(html, 'utf8');
    assert.match(page, /<span class="status s-failed">failed<\/span>/);
    assert.match(page, /<tr class="failed"><td>✘<\/td><td>4<\/td><td>expect_answer Authorize/);
  });

  test('prints the scenario’s name first, and that a wait is still waiting while it waits', async () => {
    const file = join(dir, 'long-wait.yaml');
    writeFileSync(
      file,
      'name: a scenario with a long wait\nchargers: [{ id: cp }]\nsteps:\n  - wait: { seconds: 1 }\n',
    );
    // A short reminder interval, so the test does not wait 10 s; no timing is asserted.
    const r = await captured([file, '--ws-url', csms.url], { stillWaitingEveryMs: 100 });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split('\n')[0], 'a scenario with a long wait');
    assert.match(r.stdout, /^ {2}… 1 wait 1: still waiting \(\d+ s\)$/m);
  });

  test('a wait that ran out of time counts as failed, and the summary names its step', async () => {
    const file = join(dir, 'failed-wait.yaml');
    writeFileSync(
      file,
      'name: a wait that fails\nchargers: [{ id: cp }]\nsteps:\n  - wait_for_frame: { action: Reset, timeout_s: 1 }\n',
    );
    const r = await captured([file, '--ws-url', csms.url]);
    assert.equal(r.code, 1);
    const summary = r.stdout.trimEnd().split('\n').at(-1)!;
    assert.match(summary, /^FAILED at step 1 wait_for_frame Reset: 1 expectation\(s\) held, 1 failed /);
  });

  // Mistakes found before any charger is deployed: exit 2, the step named, nothing run.
  for (const [what, step, place] of [
    [
      'an unknown variable',
      "present_token: { id_tag: '${nope}' }",
      /^steps\.2\.present_token: unknown variable \$\{nope\}/m,
    ],
    [
      'a status the version does not have',
      'expect_status: { status: Occupied }',
      /^steps\.2\.expect_status\.status: 'Occupied' is not a status of ocpp1\.6/m,
    ],
    [
      'csms_call against an external central system without a hook',
      'csms_call: { action: Reset, payload: { type: Soft } }',
      /^steps\.2\.csms_call: .*--csms-hook/m,
    ],
  ] as const)
    test(`${what} is refused before deploying, naming the step`, async () => {
      const file = join(dir, 'preflight.yaml');
      writeFileSync(file, `name: x\nchargers: [{ id: cp }]\nsteps:\n  - plug_in: {}\n  - ${step}\n`);
      const r = await captured([file, '--ws-url', csms.url]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, place);
      assert.doesNotMatch(r.stdout, /every charger is accepted/);
    });

  test('exits 0 when every expectation held', async () => {
    assert.equal(await main(['scenarios/ocpp16/boot.yaml', '--ws-url', csms.url]), 0);
  });

  test('exits 2 for a document that is not a scenario', async () => {
    assert.equal(await main(['package.json']), 2);
  });

  test('a mistake in a step is placed by the number the report gives the step (from 1)', async () => {
    const file = join(dir, 'wrong-step.yaml');
    writeFileSync(
      file,
      'name: x\nchargers: [{ id: cp }]\nsteps:\n  - present_token: { connector: 0, id_tag: T }\n',
    );
    const r = await captured([file, '--ws-url', csms.url]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^steps\.1\.present_token\.connector: /m);
  });
});

test("--crl FILE gives the run's security the file's revocation lists as crl_pem", () => {
  const dir = mkdtempSync(join(tmpdir(), 'evsim-scenario-crl-'));
  try {
    const file = join(dir, 'held.crl');
    writeFileSync(file, '-----BEGIN X509 CRL-----\n...\n-----END X509 CRL-----\n');
    const o = parseOptions([
      's.yaml',
      '--ws-url',
      'ws://csms.test/ocpp',
      '--security-profile',
      '0',
      '--crl',
      file,
    ]);
    assert.deepEqual(o.security, { profile: 0, crl_pem: readFileSync(file, 'utf8') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
