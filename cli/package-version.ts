// The version of package.json, found from here whether this runs from the sources (cli/) or from
// the build (dist/cli/): the nearest package.json up the tree.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file))
      return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '';
    if (dirname(dir) === dir) return '';
  }
}
