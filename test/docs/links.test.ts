// Every relative link of the README and of docs/ points at a file that exists, and every #anchor
// at a heading of its target, so moving or renaming a section cannot leave a dead link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const files = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

test('README, CHANGELOG and docs/: every relative link and anchor resolves', () => {
  const dead: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#');
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, resolved))) {
        dead.push(`${file}: ${target}`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
        dead.push(`${file}: ${target}`);
    }
  }
  assert.deepEqual(dead, []);
});

test('the README stays a guide: at most 250 lines, reference in docs/', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 250, `README.md has ${lines} lines`);
});
