// Runs the benchmarks in tools/bench/ (one file each; helpers live in tools/bench/support/),
// each in its own node process with --expose-gc so it can measure memory after a full GC.
// Usage: npm run bench [-- <name> [options for that benchmark]]
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const dir = 'tools/bench';
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'main.ts')
  .map((f) => f.slice(0, -3))
  .sort();

const [first, ...rest] = process.argv.slice(2);
const selected = first && !first.startsWith('-') ? [first] : all;
const args = first && !first.startsWith('-') ? rest : process.argv.slice(2);
for (const name of selected) {
  if (!all.includes(name)) {
    console.error(`no benchmark named ${name}; there are: ${all.join(', ')}`);
    process.exit(1);
  }
}

for (const name of selected) {
  const command = [process.execPath, '--expose-gc', '--import', 'tsx', `${dir}/${name}.ts`, ...args];
  console.log(`$ node --expose-gc --import tsx ${dir}/${name}.ts ${args.join(' ')}`.trimEnd());
  const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
