// INSPECT / INSPECT_URL as the configuration reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, DEFAULT_INSPECT_URL, loadConfig } from '../../engine/platform/config/config.ts';

test('INSPECT unset: inspection is off', () => {
  assert.equal(loadConfig({}).inspect, undefined);
});

test('INSPECT takes an identity or a comma list; INSPECT_URL defaults to the local receiver', () => {
  assert.deepEqual(loadConfig({ INSPECT: 'CP-1' }).inspect, {
    identities: ['CP-1'],
    url: DEFAULT_INSPECT_URL,
  });
  assert.deepEqual(loadConfig({ INSPECT: ' CP-1, CP-2 ,', INSPECT_URL: 'wss://inspect.example/x' }).inspect, {
    identities: ['CP-1', 'CP-2'],
    url: 'wss://inspect.example/x',
  });
});

test('INSPECT=* watches every charger', () => {
  assert.equal(loadConfig({ INSPECT: '*' }).inspect?.identities, '*');
});

test('INSPECT_URL must be a ws:// or wss:// URL', () => {
  assert.throws(() => loadConfig({ INSPECT: 'CP-1', INSPECT_URL: 'http://x' }), ConfigError);
});
