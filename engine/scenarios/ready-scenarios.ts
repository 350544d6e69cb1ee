// The ready scenarios of the repository (scenarios/<dir>/*.yaml, and the conformance cases of
// scenarios/conformance/<version>/*.yaml), read once, for the console's
// "choose a ready scenario": their file, name, description, OCPP version and text. Found next to
// the sources (engine/scenarios -> ../../scenarios) or next to the build (dist/engine/scenarios ->
// ../../../scenarios); none when neither exists (a service installed without them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadScenario } from './load-scenario.ts';

export interface ReadyScenario {
  /** `ocpp16/boot.yaml`, relative to scenarios/. */
  file: string;
  name: string;
  description: string;
  ocpp_version: string;
  text: string;
}

const CANDIDATES = ['../../scenarios/', '../../../scenarios/'].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);

let cached: ReadyScenario[] | undefined;

/** The folders under scenarios/ that hold scenarios, nested ones too (conformance/ocpp16), sorted. */
function folders(root: string, under = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, under), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))) {
    const sub = under ? `${under}/${e.name}` : e.name;
    out.push(sub, ...folders(root, sub));
  }
  return out;
}

export function readyScenarios(): ReadyScenario[] {
  if (cached) return cached;
  const dir = CANDIDATES.find((d) => existsSync(join(d, 'scenario.schema.json')));
  const out: ReadyScenario[] = [];
  if (dir)
    for (const sub of folders(dir))
      for (const name of readdirSync(join(dir, sub))
        .filter((f) => f.endsWith('.yaml'))
        .sort()) {
        const text = readFileSync(join(dir, sub, name), 'utf8');
        const loaded = loadScenario(text);
        // A file that does not load is left out (the ready-scenario tests keep them loading).
        if (!('scenario' in loaded)) continue;
        const s = loaded.scenario;
        out.push({
          file: `${sub}/${name}`,
          name: s.name,
          description: (s.description ?? '').trim(),
          ocpp_version: s.chargers[0].ocpp_version,
          text,
        });
      }
  return (cached = out);
}
