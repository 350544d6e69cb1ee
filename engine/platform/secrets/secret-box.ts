// Seals secrets at rest (signing private keys, partner credentials) with AES-256-GCM. The 256-bit key is derived from
// SECRETS_KEY; without it a random key is generated once and kept in DATA_DIR, like the dev JWT
// secret. Additional data binds each ciphertext to its row, so a sealed value cannot be moved.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.ts';

export const DEV_SECRETS_KEY_FILE = 'dev-secrets-key';
const FORMAT = 'v1';

export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export function createSecretBox(secret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'evsim-secret-box', 'aes-256-gcm', 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
    },
    open(sealed, context) {
      const [format, body] = sealed.split(':', 2);
      if (format !== FORMAT || !body) throw new Error('unknown sealed secret format');
      const raw = Buffer.from(body, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** SECRETS_KEY, or the key kept in DATA_DIR (created on first use). */
export function secretsKeyOf(config: Config): { key: string; generated: boolean } {
  if (config.secretsKey) return { key: config.secretsKey, generated: false };
  const path = join(config.dataDir, DEV_SECRETS_KEY_FILE);
  if (existsSync(path)) return { key: readFileSync(path, 'utf8').trim(), generated: true };
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(path, key + '\n', { mode: 0o600 });
  return { key, generated: true };
}
