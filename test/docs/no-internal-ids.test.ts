// User-facing text names what a thing does, not the spec's internal requirement ids (E1-E27): the
// API description (/openapi.json, shown by /docs), the README and the console. Tests may keep the
// ids in their names, and docs/ reference pages may keep a mapping table.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { startTestService, type TestService } from '../support/service.ts';

const INTERNAL_ID = /\bE(?:[1-9]|[12][0-9])\b/;

/** Every summary and description in the document, with where it is. */
function texts(node: unknown, at: string, out: Array<[string, string]>): void {
  if (Array.isArray(node)) node.forEach((v, i) => texts(v, `${at}/${i}`, out));
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'summary' || key === 'description' || key === 'title') && typeof value === 'string')
        out.push([`${at}/${key}`, value]);
      else texts(value, `${at}/${key}`, out);
    }
}

/** Lines of a JavaScript file that are not comments. */
const codeLines = (text: string) => text.split('\n').filter((l) => !/^\s*(\/\/|\/\*\*?|\*)/.test(l));

describe('no internal requirement ids in user-facing text', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  test('the API description (summaries, descriptions, titles)', async () => {
    const doc = (await svc.request('GET', '/openapi.json')).body;
    const found: Array<[string, string]> = [];
    texts(doc, '', found);
    const leaking = found.filter(([, text]) => INTERNAL_ID.test(text)).map(([at, text]) => `${at}: ${text}`);
    assert.deepEqual(leaking, []);
  });

  test('the README and the console (its pages and scripts, comments aside)', () => {
    const leaking: string[] = [];
    readFileSync('README.md', 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (INTERNAL_ID.test(line)) leaking.push(`README.md:${i + 1}: ${line}`);
      });
    for (const file of readdirSync('api/console').filter((f) => /\.(js|html)$/.test(f)))
      codeLines(readFileSync(`api/console/${file}`, 'utf8')).forEach((line) => {
        if (INTERNAL_ID.test(line)) leaking.push(`api/console/${file}: ${line.trim()}`);
      });
    const consoleDoc = readFileSync('docs/console.md', 'utf8');
    consoleDoc.split('\n').forEach((line, i) => {
      if (INTERNAL_ID.test(line)) leaking.push(`docs/console.md:${i + 1}: ${line}`);
    });
    assert.deepEqual(leaking, []);
  });
});
