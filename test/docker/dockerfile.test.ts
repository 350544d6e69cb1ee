// The Docker image, read from the Dockerfile (no Docker engine runs where the tests do): its runtime
// stage carries scenarios/ where the compiled service looks for the ready scenarios, and every
// `node dist/...` command the Dockerfile documents exists after the build and answers --help.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const dockerfile = readFileSync('Dockerfile', 'utf8');
/** The lines of the last stage (the runtime image). */
const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')).split('\n');

test('the runtime stage copies scenarios/ beside dist/, where the compiled service finds the ready scenarios', () => {
  assert.ok(runtime.includes('COPY scenarios ./scenarios'), 'COPY scenarios ./scenarios in the last stage');
  assert.ok(runtime.includes('COPY --from=build /app/dist ./dist'));
  // dist/engine/scenarios/ready-scenarios.js looks in ../../../scenarios: the directory holding dist/.
  const finder = readFileSync('engine/scenarios/ready-scenarios.ts', 'utf8');
  assert.match(finder, /'\.\.\/\.\.\/\.\.\/scenarios\/'/);
  assert.ok(existsSync('scenarios/scenario.schema.json'));
});

test('the Dockerfile documents the compiled token, scenario and load-test commands, and each answers --help', () => {
  const documented = [...dockerfile.matchAll(/node (?:--expose-gc )?(dist\/[\w/.-]+\.js)/g)].map((m) => m[1]);
  for (const path of ['dist/cli/token.js', 'dist/tools/scenario/main.js', 'dist/tools/loadtest/main.js'])
    assert.ok(documented.includes(path), `${path} documented in the Dockerfile`);
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  for (const path of new Set(documented)) {
    assert.ok(existsSync(path), `${path} exists after the build`);
    if (path === 'dist/cli/start.js') continue; // the service itself: started by the image's CMD
    // Plain node, as in the image: no TypeScript loader.
    const out = spawnSync(process.execPath, [path, '--help'], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(out.status, 0, `${path} --help: ${out.stderr}`);
    assert.match(out.stdout, /usage/i, path);
  }
});
