// Brings dist/ up to date for `npm start` and `npm run loadtest`, which run plain JavaScript (no
// TypeScript loader at run time). When no input changed since the last build it only compares
// modification times (well under a second); otherwise esbuild transpiles every module one to one
// (no type check: that is `npm run typecheck`, lint and CI; under a second for ~280 files) and the
// data files the code reads at run time (catalog JSON, SQL migrations) are copied beside them.
// Usage: tsx scripts/build.ts [--force]
import { build } from 'esbuild';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

const SOURCE_DIRS = ['engine', 'api', 'actors', 'protocols', 'cli', 'tools'];
const INPUT_FILES = ['tsconfig.json', 'package-lock.json'];
const OUT = 'dist';
const STAMP = join(OUT, '.build-stamp.json');

interface Inputs {
  files: number;
  newestMs: number;
}

function walk(dir: string, visit: (path: string) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else visit(path);
  }
}

/** How many input files there are and when the newest changed: a deleted file changes the count. */
function inputs(): Inputs {
  let files = 0;
  let newestMs = 0;
  const see = (path: string) => {
    files++;
    newestMs = Math.max(newestMs, statSync(path).mtimeMs);
  };
  for (const dir of SOURCE_DIRS) walk(dir, see);
  for (const file of INPUT_FILES) if (existsSync(file)) see(file);
  return { files, newestMs };
}

function upToDate(now: Inputs): boolean {
  if (!existsSync(STAMP)) return false;
  const built = JSON.parse(readFileSync(STAMP, 'utf8')) as Inputs & { startedMs: number };
  return built.files === now.files && now.newestMs <= built.startedMs;
}

/** One build at a time (two `npm start` at once): the other waits, then finds dist/ up to date. */
const LOCK = `${OUT}.lock`;
async function lock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch {
      // A lock older than two minutes belongs to a build that died.
      const held = statSync(LOCK, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 120_000) rmSync(LOCK, { force: true, recursive: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const force = process.argv.includes('--force');
if (!force && upToDate(inputs())) process.exit(0);
await lock();
process.on('exit', () => rmSync(LOCK, { force: true, recursive: true }));
const before = inputs();
if (!force && upToDate(before)) process.exit(0);

const startedMs = Date.now();
process.stderr.write('Building dist/ with esbuild (once after each change of the sources)...\n');
rmSync(OUT, { recursive: true, force: true });
const sources: string[] = [];
for (const dir of SOURCE_DIRS) walk(dir, (path) => path.endsWith('.ts') && sources.push(path));
const result = await build({
  entryPoints: sources,
  outdir: OUT,
  outbase: '.',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  logLevel: 'error',
}).catch((err: Error) => {
  process.stderr.write(`The build failed: ${err.message}\n`);
  process.exit(1);
});
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, relativeImportsToJs(file.text));
}
// Data files live beside the modules that read them (new URL('./x.json', import.meta.url)).
for (const dir of SOURCE_DIRS)
  walk(dir, (path) => {
    if (path.endsWith('.ts')) return;
    mkdirSync(join(OUT, path, '..'), { recursive: true });
    cpSync(path, join(OUT, path));
  });
writeFileSync(STAMP, JSON.stringify({ ...before, startedMs }));
process.stderr.write(
  `Built dist/ (${sources.length} modules) in ${((Date.now() - startedMs) / 1000).toFixed(1)} s.\n`,
);

/**
 * The sources import each other as './x.ts' (what tsx and tsc check); the built modules are '.js'.
 * esbuild keeps specifiers as written when it does not bundle, so rewrite the relative ones, in
 * static imports, re-exports and dynamic imports alike.
 */
function relativeImportsToJs(code: string): string {
  return code.replace(
    /(\b(?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]*?)\.ts\2/g,
    (_, lead: string, quote: string, path: string) => `${lead}${quote}${path}.js${quote}`,
  );
}
