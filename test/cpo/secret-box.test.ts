// Sealing secrets at rest: AES-256-GCM bound to its row, and the generated key kept in DATA_DIR.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../engine/platform/config/config.ts';
import {
  DEV_SECRETS_KEY_FILE,
  createSecretBox,
  secretsKeyOf,
} from '../../engine/platform/secrets/secret-box.ts';

describe('secret box', () => {
  test('opens what it sealed; another context or key cannot', () => {
    const box = createSecretBox('key-one');
    const sealed = box.seal('private key', 'org-a/k1');
    assert.ok(!sealed.includes('private key'));
    assert.notEqual(box.seal('private key', 'org-a/k1'), sealed); // fresh IV each time
    assert.equal(box.open(sealed, 'org-a/k1'), 'private key');
    assert.throws(() => box.open(sealed, 'org-b/k1'));
    assert.throws(() => createSecretBox('key-two').open(sealed, 'org-a/k1'));
  });

  test('without SECRETS_KEY a key is generated once in DATA_DIR and reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evsim-secrets-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      const first = secretsKeyOf(config);
      assert.equal(first.generated, true);
      assert.equal(readFileSync(join(dir, DEV_SECRETS_KEY_FILE), 'utf8').trim(), first.key);
      assert.equal(secretsKeyOf(config).key, first.key);
      assert.deepEqual(secretsKeyOf(loadConfig({ DATA_DIR: dir, SECRETS_KEY: 'configured' })), {
        key: 'configured',
        generated: false,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
