import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createTokenService } from '../../engine/platform/auth/tokens.ts';

const run = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'cli/token.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });

test('npm run token -- --org ID prints a token the service accepts for that organization (dev secret)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-token-'));
  const out = run(['--org', 'acme'], { DATA_DIR: dataDir });
  assert.equal(out.status, 0, out.stderr);
  const token = out.stdout.trim();
  const principal = await createTokenService(loadConfig({ DATA_DIR: dataDir })).verify(token);
  assert.equal(principal.orgId, 'acme');
});

test('npm run token signs with AUTH_JWT_SECRET when it is set', async () => {
  const env = {
    AUTH_JWT_SECRET: 'cli-secret-0123456789abcdef0123456789',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'x-')),
  };
  const out = run(['--org', 'beta'], env);
  assert.equal(out.status, 0, out.stderr);
  const principal = await createTokenService(loadConfig(env)).verify(out.stdout.trim());
  assert.equal(principal.orgId, 'beta');
  const devOnly = createTokenService(loadConfig({ DATA_DIR: env.DATA_DIR }));
  await assert.rejects(devOnly.verify(out.stdout.trim()));
});

test('npm run token without --org prints usage and exits 2', () => {
  const out = run([], { DATA_DIR: mkdtempSync(join(tmpdir(), 'x-')) });
  assert.equal(out.status, 2);
  assert.match(out.stderr, /usage: npm run token -- --org ID/);
});

test('npm run token -- --help prints usage on stdout and exits 0', () => {
  const out = run(['--help'], { DATA_DIR: mkdtempSync(join(tmpdir(), 'x-')) });
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /usage: npm run token -- --org ID/);
  assert.match(out.stdout, /--expires/);
  assert.equal(out.stderr, '');
});

test('bad input is answered in one line with exit 2, no stack trace', () => {
  const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'x-')) };
  const cases: Array<[string[], RegExp]> = [
    [['--org', 'acme', '--expires', '2x'], /--expires '2x'/],
    [['--org', 'acme', '--expires', ''], /--expires ''/],
    [['--org', 'acme', '--colour', 'blue'], /--colour/],
    [['--org'], /--org/],
    [['--org', 'acme', 'extra'], /extra/],
  ];
  for (const [args, names] of cases) {
    const out = run(args, env);
    assert.equal(out.status, 2, `${args.join(' ')}: ${out.stderr}`);
    assert.equal(out.stdout, '', args.join(' '));
    const lines = out.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${args.join(' ')}: ${out.stderr}`);
    assert.match(lines[0], names, args.join(' '));
    assert.doesNotMatch(out.stderr, /\n\s+at /, args.join(' '));
  }
});
