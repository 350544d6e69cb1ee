// A suite from the disk: a folder (every scenario file under it, in name order) or a suite file
// (YAML: `name`, optional `profiles` the central system claims, `concurrency`, and `cases`: files
// or folders relative to it). Every case is loaded and checked before anything runs; problems
// come back as `file: place: message` lines. The documents are checked against the schema here;
// the service checks each again (and what it needs of the run) when it is started.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { SuiteCase } from '../../engine/conformance/suite-result.ts';
import { placeText, scenarioSchema } from '../../engine/scenarios/scenario-schema.ts';

const suiteFileSchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(5000).optional(),
  profiles: z.array(z.string().min(1).max(50)).max(50).optional(),
  concurrency: z.number().int().min(1).max(20).optional(),
  cases: z.array(z.string().min(1).max(500)).min(1).max(1000),
});

export interface LoadedSuite {
  name: string;
  profiles?: string[];
  concurrency?: number;
  cases: SuiteCase[];
}

/** The scenario files under a folder, sorted, suite files left out. */
function scenarioFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...scenarioFiles(path));
    else if (/\.ya?ml$/.test(e.name) && !/\.suite\.ya?ml$/.test(e.name)) out.push(path);
  }
  return out;
}

export function loadSuite(path: string): LoadedSuite | { problems: string[] } {
  let files: string[];
  let meta: Omit<LoadedSuite, 'cases'>;
  const base = process.cwd();
  if (statSync(path).isDirectory()) {
    files = scenarioFiles(path);
    meta = { name: basename(resolve(path)) };
  } else {
    const parsed = suiteFileSchema.safeParse(parseYaml(readFileSync(path, 'utf8')));
    if (!parsed.success)
      return {
        problems: parsed.error.issues.map((i) => `${path}: ${i.path.join('.') || 'document'}: ${i.message}`),
      };
    const dir = dirname(path);
    files = parsed.data.cases.flatMap((c) => {
      const p = join(dir, c);
      return statSync(p, { throwIfNoEntry: false })?.isDirectory() ? scenarioFiles(p) : [p];
    });
    meta = { name: parsed.data.name, profiles: parsed.data.profiles, concurrency: parsed.data.concurrency };
  }
  const problems: string[] = [];
  const cases: SuiteCase[] = [];
  const ids = new Map<string, string>();
  for (const file of files) {
    const shown = relative(base, file) || file;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      problems.push(`${shown}: ${(err as Error).message}`);
      continue;
    }
    let doc: unknown;
    try {
      doc = parseYaml(text, { maxAliasCount: 100 });
    } catch (err) {
      problems.push(`${shown}: not YAML or JSON (${(err as Error).message.split('\n')[0]})`);
      continue;
    }
    const parsed = scenarioSchema.safeParse(doc);
    if (!parsed.success) {
      problems.push(
        ...parsed.error.issues.map(
          (i) => `${shown}: ${placeText(i.path as Array<string | number>)}: ${i.message}`,
        ),
      );
      continue;
    }
    const id = parsed.data.test_case?.id;
    if (id && ids.has(id)) problems.push(`${shown}: test case ${id} is also ${ids.get(id)}`);
    if (id) ids.set(id, shown);
    cases.push({ file: shown, scenario: parsed.data, text });
  }
  if (files.length === 0) problems.push(`${path}: no scenario files`);
  return problems.length > 0 ? { problems } : { ...meta, cases };
}
