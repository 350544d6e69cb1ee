// Writes the scenario document's JSON Schema (made from the zod schema) to
// scenarios/scenario.schema.json, for editors: `# yaml-language-server: $schema=./scenario.schema.json`.
//   npm run scenario:schema          (a test fails when the committed file is out of date)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { scenarioJsonSchema } from '../../engine/scenarios/scenario-schema.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('../../scenarios/scenario.schema.json', import.meta.url));

/** The file's text, formatted as the repository's prettier check wants it. */
export const schemaText = (): Promise<string> =>
  format(JSON.stringify(scenarioJsonSchema()), { parser: 'json' });

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_FILE, await schemaText());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
