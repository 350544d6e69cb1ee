// The CLI a CI job calls: exit code 0 only when every expectation held, JUnit XML and HTML reports
// that name the failed step and the frame.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { main } from '../../tools/scenario/main.ts';
import { parseOptions } from '../../tools/scenario/options.ts';

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
    assert.match(xml, /<testsuite name="1\.6 local start and stop[^"]*" tests="5" failures="1"/);
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

  test('exits 0 when every expectation held', async () => {
    assert.equal(await main(['scenarios/ocpp16/boot.yaml', '--ws-url', csms.url]), 0);
  });

  test('exits 2 for a document that is not a scenario', async () => {
    assert.equal(await main(['package.json']), 2);
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
