// The layout is the architecture: imports point down (api -> engine -> actors -> protocols), no two
// folders import each other (directly or round a loop), and tools use the engine as a client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOTS = ['protocols', 'actors', 'engine', 'api', 'cli', 'tools'];
const LAYER: Record<string, number> = { protocols: 0, actors: 1, engine: 2, api: 3, cli: 4, tools: 4 };

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|js)$/.test(name)) out.push(path);
  }
  return out;
}

/** Every relative import of every source file, as [importing file, imported file]. */
function imports(): Array<[string, string]> {
  const edges: Array<[string, string]> = [];
  const re = /(?:from\s*|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const root of ROOTS)
    for (const file of sources(root))
      for (const m of readFileSync(file, 'utf8').matchAll(re))
        edges.push([file, normalize(join(dirname(file), m[1]))]);
  return edges;
}

test('imports point down only: protocols <- actors <- engine <- api <- cli', () => {
  const upward = imports().filter(([from, to]) => {
    const a = from.split('/')[0];
    const b = to.split('/')[0];
    return b !== 'tools' && a !== b && LAYER[b] !== undefined && LAYER[b] >= LAYER[a];
  });
  assert.deepEqual(upward, []);
});

test('no import cycle between folders', () => {
  const folders = imports()
    .map(([from, to]): [string, string] => [dirname(from), dirname(to)])
    .filter(([a, b]) => a !== b);
  assert.deepEqual(
    cyclesAmong(folders, () => true),
    [],
  );
});

/** The import cycles among the nodes `inside` (as a -> b -> ... -> a); type imports count too. */
function cyclesAmong(edges: Array<[string, string]>, inside: (file: string) => boolean): string[] {
  const graph = new Map<string, string[]>();
  for (const [from, to] of edges)
    if (inside(from) && inside(to)) graph.set(from, [...(graph.get(from) ?? []), to]);
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

// Within the charger a loop hides which file is lower; what two files both need goes to a third
// below them (core/ for what everything shares).
test('no import cycle between the files of actors/charger', () => {
  assert.deepEqual(
    cyclesAmong(imports(), (f) => f.startsWith('actors/charger/')),
    [],
  );
});

test('nothing in the product imports a tool', () => {
  const intoTools = imports().filter(([from, to]) => !from.startsWith('tools/') && to.startsWith('tools/'));
  assert.deepEqual(intoTools, []);
});
