// The scenario document: what the schema accepts and how it names a mistake, the JSON Schema file
// generated from it, variables and seeded choices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadScenario, problemText } from '../../engine/scenarios/load-scenario.ts';
import { seededRandom, substitute } from '../../engine/scenarios/scenario-vars.ts';
import { SCHEMA_FILE, schemaText } from '../../tools/scenario/write-schema.ts';
import { createCertificateAuthority } from '../../engine/platform/certificates/x509.ts';
import { makeCrl } from '../support/test-crl.ts';

const problemsOf = (text: string) => {
  const loaded = loadScenario(text);
  assert.ok('problems' in loaded, 'expected problems');
  return loaded.problems.map(problemText);
};

test('a YAML document gets its defaults: model, version, count, connector, time limits', () => {
  const loaded = loadScenario(`
name: defaults
chargers: [{ id: cp }]
steps:
  - plug_in: {}
  - expect_answer: { action: Authorize }
`);
  assert.ok('scenario' in loaded);
  assert.deepEqual(loaded.scenario.chargers[0], {
    id: 'cp',
    count: 1,
    model: 'abb-terra-ac-wallbox-22',
    ocpp_version: 'ocpp1.6',
  });
  assert.deepEqual(loaded.scenario.steps, [
    { plug_in: { connector: 1 } },
    { expect_answer: { action: 'Authorize', within_s: 10 } },
  ]);
});

test('a JSON document is read as well', () => {
  const loaded = loadScenario(
    JSON.stringify({ name: 'json', chargers: [{ id: 'cp' }], steps: [{ wait: { seconds: 1 } }] }),
  );
  assert.ok('scenario' in loaded);
});

test('an unknown step is named with its place and the kinds there are', () => {
  const [problem] = problemsOf(`
name: x
chargers: [{ id: cp }]
steps:
  - plug_in: {}
  - repeat: { times: 2, steps: [{ wait: { seconds: 1 } }, { jump: {} }] }
`);
  assert.match(problem, /^steps\.2\.repeat\.steps\.2: unknown step 'jump': one of plug_in, present_token, /);
});

test('a wrong field of a step is named where it is', () => {
  assert.deepEqual(
    problemsOf(`
name: x
chargers: [{ id: cp }]
steps:
  - present_token: { connector: 0, id_tag: T }
`),
    ['steps.1.present_token.connector: Too small: expected number to be >=1'],
  );
});

test('a link step takes the link conditions of PUT .../link, or clear: true alone', () => {
  const loaded = loadScenario(`
name: link
chargers: [{ id: cp }]
steps:
  - link: { latency_ms: { from_csms: 500 }, drop: 0.5, half_open: true, seed: 7 }
  - link: { clear: true }
`);
  assert.ok('scenario' in loaded);
  assert.deepEqual(loaded.scenario.steps, [
    { link: { latency_ms: { from_csms: 500 }, drop: 0.5, half_open: true, seed: 7 } },
    { link: { clear: true } },
  ]);
  assert.deepEqual(problemsOf('{name: x, chargers: [{id: cp}], steps: [{link: {drop: 2}}]}'), [
    'steps.1.link.drop: Too big: expected number to be <=1',
  ]);
  assert.deepEqual(
    problemsOf('{name: x, chargers: [{id: cp}], steps: [{link: {clear: true, duplicate: 1}}]}'),
    ['steps.1.link: clear: true takes no conditions beside it'],
  );
});

test('a mistake is placed by the step numbers of the report: from 1, also inside a repeat', () => {
  assert.deepEqual(
    problemsOf(`
name: x
chargers: [{ id: cp }]
steps:
  - plug_in: {}
  - repeat: { times: 2, steps: [{ plug_in: {} }, { present_token: { connector: 0, id_tag: T } }] }
`),
    ['steps.2.repeat.steps.2.present_token.connector: Too small: expected number to be >=1'],
  );
});

test('a step naming a charger group that is not there is refused', () => {
  assert.deepEqual(
    problemsOf(`
name: x
chargers: [{ id: cp }]
steps:
  - unplug: { charger: other }
`),
    ["steps.1.unplug.charger: no charger group 'other'"],
  );
});

test("a charger group's security holds revocation lists (crl_pem); text that is not one is named", async () => {
  const crl = await makeCrl(await createCertificateAuthority('evsim scenario CRL CA'), []);
  const doc = (crlPem: string) =>
    JSON.stringify({
      name: 'crl',
      chargers: [{ id: 'cp', security: { profile: 0, crl_pem: crlPem } }],
      steps: [{ wait: { seconds: 1 } }],
    });
  const loaded = loadScenario(doc(crl));
  assert.ok('scenario' in loaded);
  assert.equal(loaded.scenario.chargers[0].security?.crl_pem, crl);
  const problems = problemsOf(doc('-----BEGIN X509 CRL-----\nnot base64\n-----END X509 CRL-----'));
  assert.equal(problems.length, 1);
  assert.match(problems[0], /chargers\.1\.security\.crl_pem.*not PEM certificate revocation lists/);
});

test('text that is not YAML is refused as such', () => {
  assert.match(problemsOf('name: [unclosed')[0], /^document: not YAML or JSON/);
});

test('scenarios/scenario.schema.json is the JSON Schema generated from the zod schema (npm run scenario:schema)', async () => {
  assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), await schemaText());
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
  assert.deepEqual(schema.required, ['name', 'chargers', 'steps']);
});

test('variables: ${name} inside a string is text, a whole ${name} keeps the value as saved', () => {
  const vars = new Map<string, unknown>([
    ['tx', 17],
    ['token', 'TAG-1'],
  ]);
  assert.deepEqual(substitute({ transactionId: '${tx}', note: 'tx ${tx} for ${token}' }, vars), {
    transactionId: 17,
    note: 'tx 17 for TAG-1',
  });
  assert.throws(() => substitute('${nope}', vars), /unknown variable \$\{nope\}/);
});

test('the same seed gives the same random sequence', () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const seqA = Array.from({ length: 5 }, a);
  assert.deepEqual(seqA, Array.from({ length: 5 }, b));
  assert.notDeepEqual(seqA, Array.from({ length: 5 }, seededRandom(43)));
});
