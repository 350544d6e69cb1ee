// The README's five-minute walk-through, run as it is written: every ```sh block of its section,
// in order, in one bash with set -eu (no pipefail, as in an interactive shell), with API and TOKEN
// exported as `npm start` prints them, against a started service. Then what each step shows is
// checked in its output, so the README cannot drift from what the service does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MODE, startTestService, type TestService } from '../support/service.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The ```sh blocks of the section whose heading starts with `heading`, in order. */
export function shBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}`);
  assert.ok(start >= 0, `no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

let svc: TestService;
let token: string;

before(async () => {
  svc = await startTestService();
  token = await svc.token('walkthrough');
});

after(() => svc.close());

interface Run {
  code: number | null;
  stderr: string;
  /** stdout of each block, by index. */
  outputs: string[];
}

async function runBlocks(blocks: string[], timeoutMs = 120_000): Promise<Run> {
  const marker = (i: number) => `@@block ${i}@@`;
  const script = ['set -eu', ...blocks.flatMap((b, i) => [`echo '${marker(i)}'`, b])].join('\n');
  const child = spawn('bash', ['-c', script], {
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? '/tmp',
      API: svc.url,
      TOKEN: token,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const outputs = blocks.map((_b, i) => {
    const from = stdout.indexOf(`${marker(i)}\n`);
    const to = stdout.indexOf(`${marker(i + 1)}\n`);
    return from < 0 ? '' : stdout.slice(from + marker(i).length + 1, to < 0 ? undefined : to);
  });
  return { code, stderr: `${stderr}\n--- stdout ---\n${stdout}`, outputs };
}

/** The JSON objects printed one per line. */
const jsonLines = (out: string): any[] =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

test(`README walk-through: every step runs as written and shows what the README says (${MODE})`, async () => {
  const blocks = shBlocks(README, 'Five-minute walk-through');
  assert.equal(blocks.length, 8, 'the steps of the walk-through');
  for (const block of blocks) assert.match(block, /\$API/, 'every block uses API (and the shorthand, TOKEN)');

  const run = await runBlocks(blocks);
  assert.equal(run.code, 0, run.stderr);
  const [look, deploy, online, commands, charging, unplug, wire, stopDelete] = run.outputs;

  // 1. health, catalog, one model
  const [health, brands, model] = jsonLines(look);
  assert.deepEqual(health, { status: 'ok', database: 'ok', mqtt: 'ok' });
  assert.equal(brands.data.length, 3);
  assert.equal(model.slug, 'abb-a400');

  // 2. the deployment id
  const deploymentId = deploy.trim();
  assert.match(deploymentId, /^[0-9a-f-]{36}$/);

  // 3. online, told by the stage events and by the central system
  const [events, chargePoint] = jsonLines(online);
  assert.deepEqual(
    { stage: events.events[0].stage, outcome: events.events[0].outcome },
    { stage: 'online', outcome: 'succeeded' },
  );
  assert.equal(chargePoint.is_online, true);
  assert.equal(chargePoint.charge_point_vendor, 'ABB');

  // 4. three commands queued
  const queued = jsonLines(commands);
  assert.deepEqual(
    queued.map((q) => [q.queued_count, q.results[0].command.event_type]),
    [
      [1, 'configuration'],
      [1, 'plug-in'],
      [1, 'present-token'],
    ],
  );

  // ... charging, the energy rising between the two reads
  const [first, second] = jsonLines(charging).map((s) => s.items[0]);
  assert.equal(first.status, 'ACTIVE');
  assert.equal(first.id_tag, 'TAG-1');
  assert.ok(
    second.meter_last_wh > (first.meter_last_wh ?? 0),
    `${first.meter_last_wh} -> ${second.meter_last_wh}`,
  );

  // 5. unplugged: the session ended with the EV
  const [command, ended] = jsonLines(unplug);
  assert.equal(command.results[0].command.event_type, 'unplug');
  assert.equal(ended.items[0].status, 'COMPLETED');
  assert.equal(ended.items[0].stop_reason, 'EVDisconnected');
  assert.ok(ended.items[0].meter_stop_wh >= second.meter_last_wh);

  // 6. the StartTransaction CALL and its answer, as sent; the stream; the charger's detail
  const [log, detail] = jsonLines(wire);
  assert.deepEqual(
    log.items.map((i: any) => [i.direction, i.type, i.action]),
    [
      ['in', 'CALLRESULT', 'StartTransaction'],
      ['out', 'CALL', 'StartTransaction'],
    ],
  );
  assert.equal(log.items[1].frame[2], 'StartTransaction');
  assert.equal(log.items[1].frame[3].idTag, 'TAG-1');
  assert.equal((wire.match(/^event: frame$/gm) ?? []).length, 2, wire);
  assert.equal(detail.deployment_id, deploymentId);
  assert.equal(detail.connectors[0].connector_id, 1);
  assert.equal(detail.connectors[0].ev_connected, false);

  // 7. stopped, deleted, gone
  const [stopped, list] = jsonLines(stopDelete);
  assert.equal(stopped.action, 'stop');
  assert.equal(stopped.results[0].deployment_id, deploymentId);
  assert.deepEqual(list, { items: [], next_offset: null });
  const gone = await svc.request('DELETE', `/evcharger/deployment?deployment_id=${deploymentId}`, { token });
  assert.equal(gone.status, 404);
});

test('README walk-through: a second run, as the README promises, works the same', async () => {
  const run = await runBlocks(shBlocks(README, 'Five-minute walk-through'));
  assert.equal(run.code, 0, run.stderr);
  const sessions = await svc.request('GET', '/cpo/charge-points/CP-1/sessions', { token });
  assert.equal(sessions.body.items.length, 2);
});
