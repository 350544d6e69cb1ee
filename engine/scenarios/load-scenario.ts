// A scenario document from its text (YAML, or JSON which YAML reads too), checked against the
// schema. Problems come back as `path: message` lines, the form the CLI prints and the API's 422
// carries in its `msg`.
import { parse as parseYaml } from 'yaml';
import { placeText, scenarioSchema, STEP_META_KEYS, type Scenario } from './scenario-schema.ts';

export { placeText };

export interface ScenarioProblem {
  /** Where in the document: `['steps', 3, 'present_token', 'id_tag']`; empty for the whole document. */
  path: Array<string | number>;
  message: string;
}

export type Loaded = { scenario: Scenario } | { problems: ScenarioProblem[] };

/** `steps.4.present_token: message`, as the CLI prints a problem. */
export const problemText = (p: ScenarioProblem) => `${placeText(p.path)}: ${p.message}`;

/** Documents larger than this are refused before parsing (a scenario is a few KB). */
export const MAX_SCENARIO_BYTES = 1_000_000;

export function loadScenario(text: string): Loaded {
  if (text.length > MAX_SCENARIO_BYTES)
    return { problems: [{ path: [], message: `larger than ${MAX_SCENARIO_BYTES} bytes` }] };
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    return {
      problems: [{ path: [], message: `not YAML or JSON (${(err as Error).message.split('\n')[0]})` }],
    };
  }
  return checkScenario(doc);
}

export function checkScenario(doc: unknown): Loaded {
  const result = scenarioSchema.safeParse(doc);
  if (result.success) {
    const problems = crossCheck(result.data);
    return problems.length > 0 ? { problems } : { scenario: result.data };
  }
  return {
    problems: result.error.issues.map((i) => ({
      path: i.path as Array<string | number>,
      message: i.message,
    })),
  };
}

/** What the schema cannot say: step chargers name a group, group ids are unique. */
function crossCheck(s: Scenario): ScenarioProblem[] {
  const ids = new Set<string>();
  const problems: ScenarioProblem[] = [];
  s.chargers.forEach((g, i) => {
    if (ids.has(g.id)) problems.push({ path: ['chargers', i, 'id'], message: `'${g.id}' is used twice` });
    ids.add(g.id);
  });
  const visit = (steps: unknown[], path: Array<string | number>) =>
    steps.forEach((step, i) => {
      const [kind, body] = Object.entries(step as object).find(([k]) => !STEP_META_KEYS.includes(k))!;
      const b = body as { charger?: string; steps?: unknown[]; options?: Array<{ steps: unknown[] }> };
      if (b && typeof b.charger === 'string' && !b.charger.includes('${') && !ids.has(b.charger))
        problems.push({ path: [...path, i, kind, 'charger'], message: `no charger group '${b.charger}'` });
      if (kind === 'repeat' && b.steps) visit(b.steps, [...path, i, 'repeat', 'steps']);
      if (kind === 'choose' && b.options)
        b.options.forEach((o, j) => visit(o.steps, [...path, i, 'choose', 'options', j, 'steps']));
    });
  visit(s.steps, ['steps']);
  return problems;
}
