// Nothing is lost on restart: the service runs as a child process, 50 chargers come online against
// the strict central system, the process is killed with SIGKILL, and at the next start every charger
// comes back online by itself (no API call but reads). A location killed mid-deployment finishes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createTokenService } from '../../engine/platform/auth/tokens.ts';
import {
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  createSchema,
  dropSchema,
  withSearchPath,
  type TestResponse,
} from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deploymentsOf, eventsOf, eventually, locationBody, type As } from './deployment-helpers.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'evsim-restart-'));
let schema: string | undefined;
let env: Record<string, string>;
let csms: StrictCsms;
let child: ChildProcess | undefined;
let url = '';
let token = '';

/** Starts `node --import tsx cli/start.ts` and resolves with its URL once it listens. */
function startChild(): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'cli/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        proc.stdout!.off('data', onData);
        proc.stdout!.resume();
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    proc.once('exit', (code) => reject(new Error(`service exited (${code}) before listening:\n${out}`)));
  });
}

async function kill9(): Promise<void> {
  const proc = child!;
  child = undefined;
  if (proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

const as: As = async (method, path, opts = {}) => {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : undefined,
    headers: res.headers,
    text,
  } as TestResponse;
};

before(async () => {
  csms = await startStrictCsms();
  env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    MQTT_TOPIC_PREFIX: `t${randomBytes(4).toString('hex')}`,
  };
  if (REAL_DATABASE_URL) {
    schema = await createSchema();
    env.DATABASE_URL = withSearchPath(REAL_DATABASE_URL, schema);
  }
  if (REAL_MQTT_URL) env.MQTT_URL = REAL_MQTT_URL;
  url = await startChild();
  // Dev mode: the token is signed with the secret the service keeps in DATA_DIR.
  token = await createTokenService(loadConfig(env)).sign!('org-restart');
});

after(async () => {
  if (child) {
    const proc = child;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  }
  await csms.close();
  if (schema) await dropSchema(schema).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

const bootsOf = (identity: string) =>
  csms.received.filter((r) => r.identity === identity && r.action === 'BootNotification').length;

const N = 50;
let first: string[] = [];

test('restart: 50 chargers online, SIGKILL, start again: all 50 online again without any API call', async () => {
  const res = await as('POST', '/evcharger/location', { body: locationBody('RST', N, csms.url) });
  assert.equal(res.status, 202, res.text);
  const items = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === N && list.every((d) => d.stage === 'online'),
    30_000,
  );
  first = items.map((d) => d.identity);
  const bootsBefore = new Map(first.map((id) => [id, bootsOf(id)]));

  await kill9();
  await csms.waitFor(() => first.every((id) => !csms.clients.has(id)), 10_000);
  url = await startChild();

  // The strict central system sees every charger boot again, with nothing asked of the API.
  await csms.waitFor(
    () => first.every((id) => bootsOf(id) > bootsBefore.get(id)! && csms.clients.has(id)),
    30_000,
  );
  const after = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === N && list.every((d) => d.stage === 'online'),
  );
  assert.equal(after.length, N);
  // The restart is a new attempt, and it says the charger recovered.
  const events = await eventually(
    () => eventsOf(as, 'RST-007'),
    (ev) => ev[0]?.outcome === 'recovered',
  );
  assert.deepEqual({ stage: events[0].stage, attempt: events[0].attempt }, { stage: 'online', attempt: 2 });
  assert.deepEqual(csms.schemaErrors, []);
});

test('restart: a location killed while it deploys finishes deploying after the next start', async () => {
  const res = await as('POST', '/evcharger/location', { body: locationBody('MID', 20, csms.url) });
  assert.equal(res.status, 202, res.text);
  await kill9();
  url = await startChild();
  const items = await eventually(
    () => deploymentsOf(as, res.body.location_id),
    (list) => list.length === 20 && list.every((d) => d.stage === 'online'),
    30_000,
  );
  assert.deepEqual(
    items.map((d) => d.identity).sort(),
    Array.from({ length: 20 }, (_x, i) => `MID-${String(i + 1).padStart(3, '0')}`),
  );
  // The first location came back too.
  await eventually(
    () => deploymentsOf(as),
    (list) => list.filter((d) => d.identity.startsWith('RST-') && d.stage === 'online').length === N,
  );
});
