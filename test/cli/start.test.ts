// `npm start` as a user runs it: a child process that prints its URL and a dev token, serves the
// API, and stops cleanly on SIGTERM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  MODE,
  createSchema,
  dropSchema,
  withSearchPath,
} from '../support/service.ts';

test(`npm start serves E1-E4 and E27 with the printed dev token, and exits 0 on SIGTERM (${MODE})`, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-start-'));
  const schema = REAL_DATABASE_URL ? await createSchema() : undefined;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  if (schema) env.DATABASE_URL = withSearchPath(REAL_DATABASE_URL!, schema);
  if (REAL_MQTT_URL) env.MQTT_URL = REAL_MQTT_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/start.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const started = Date.now();
    while (!/export TOKEN=\S+/.test(out) && Date.now() - started < 60_000)
      await new Promise((r) => setTimeout(r, 100));
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const token = /export TOKEN=(\S+)/.exec(out)?.[1];
    assert.ok(url && token, `no URL and token printed:\n${out}`);
    const auth = { authorization: `Bearer ${token}` };

    const health = await fetch(`${url}/health/ready`);
    assert.equal(health.status, 200);
    for (const path of [
      '/evcharger/catalog',
      '/evcharger/catalog/abb/models',
      '/evcharger/templates/locations?include_all=true',
    ]) {
      const res = await fetch(url + path, { headers: auth });
      assert.equal(res.status, 200, path);
    }
    const brand = (await (
      await fetch(`${url}/evcharger/catalog/abb/models?limit=1`, { headers: auth })
    ).json()) as any;
    const model = await fetch(`${url}/evcharger/catalog/abb/models/${brand.data[0].slug}`, { headers: auth });
    assert.equal(model.status, 200);

    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) await dropSchema(schema);
  }
});
