// Dev mode keeps one random HS256 secret in DATA_DIR so tokens survive restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEV_SECRET_FILE = 'dev-jwt-secret';

export function readOrCreateDevSecret(dataDir: string): string {
  const path = join(dataDir, DEV_SECRET_FILE);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  return secret;
}
