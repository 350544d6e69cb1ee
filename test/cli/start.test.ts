// `npm start` as a user runs it: it brings the compiled build (dist/) up to date and runs it with
// plain node, prints one line for a person first (URL, console link with the dev token, then the
// exports for the README's walk-through), then the log: JSON lines when not on a terminal, request
// lines only at LOG_LEVEL=debug, compact lines with LOG_FORMAT=pretty. Ctrl-C (SIGINT to the
// process group) stops the service cleanly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REAL_DATABASE_URL,
  REAL_MQTT_URL,
  MODE,
  createTestDatabase,
  dropTestDatabase,
  testDatabaseUrl,
} from '../support/service.ts';

let dataDir: string;
let database: string | undefined;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'evsim-start-'));
  database = REAL_DATABASE_URL ? await createTestDatabase() : undefined;
});

after(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  if (database) await dropTestDatabase(database);
});

interface Started {
  url: string;
  token: string;
  pid: number;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** The lines the service printed on stdout, npm's own header left out. */
  lines(): string[];
  /** Ctrl-C: SIGINT to the whole process group; resolves once npm and the service are gone. */
  interrupt(): Promise<void>;
}

async function npmStart(env: Record<string, string> = {}): Promise<Started> {
  const full: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...env,
  };
  if (database) full.DATABASE_URL = testDatabaseUrl(REAL_DATABASE_URL!, database);
  if (REAL_MQTT_URL) full.MQTT_URL = REAL_MQTT_URL;
  const child = spawn('npm', ['start'], { env: full, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let all = '';
  child.stdout.on('data', (d: Buffer) => ((stdout += d), (all += d)));
  child.stderr.on('data', (d: Buffer) => (all += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const started = Date.now();
  // The first start builds dist/ (esbuild) and creates the embedded database: allow for both.
  while (!/export TOKEN=\S+ API=\S+/.test(stdout) && Date.now() - started < 120_000) {
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const match = /export TOKEN=(\S+) API=(\S+)/.exec(stdout);
  if (!match) {
    process.kill(-child.pid!, 'SIGKILL');
    throw new Error(`npm start printed no URL and token:\n${all}`);
  }
  return {
    url: match[2],
    token: match[1],
    pid: child.pid!,
    output: () => all,
    lines: () => stdout.split('\n').filter((l) => l !== '' && !l.startsWith('> ')),
    async interrupt() {
      const service = descendants(child.pid!).length;
      assert.ok(service > 0, 'the service runs below npm');
      process.kill(-child.pid!, 'SIGINT');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      // The service shut down by itself: it said so and nothing of the group is left.
      assert.match(all, /"?shutting down"?/);
      assert.doesNotMatch(all, /shutdown failed|failed to start/);
      await waitFor(
        () => !groupAlive(child.pid!),
        'the end of the process group',
        () => all,
      );
    },
  };
}

/** Whether any process of the group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The command lines of the processes below `pid`. */
function descendants(pid: number): string[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const out: string[] = [];
  const walk = (parent: number) => {
    for (const r of rows.filter((x) => x.ppid === parent)) {
      out.push(r.args);
      walk(r.pid);
    }
  };
  walk(pid);
  return out;
}

const waitFor = async (check: () => boolean, what: string, output: () => string) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} never showed:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

test(`npm start prints the URL, the console link and the dev token first, serves with that token, runs the compiled build and stops on Ctrl-C (${MODE})`, async () => {
  const svc = await npmStart();
  try {
    const [first, exports] = svc.lines();
    assert.equal(
      first,
      `evsim 0.1.0 listening on ${svc.url} · console ${svc.url}/ui/?token=${svc.token}`,
      svc.output(),
    );
    assert.equal(exports, `  export TOKEN=${svc.token} API=${svc.url}`);
    assert.match(svc.url, /^http:\/\/127\.0\.0\.1:\d+$/);

    const auth = { authorization: `Bearer ${svc.token}` };
    assert.equal((await fetch(`${svc.url}/health/ready`)).status, 200);
    for (const path of ['/evcharger/catalog', '/evcharger/templates/locations?include_all=true']) {
      const res = await fetch(svc.url + path, { headers: auth });
      assert.equal(res.status, 200, path);
    }
    // Not a terminal: every log record is a JSON line, after the person's lines; no request lines at info.
    await waitFor(() => svc.output().includes('"msg":"service ready"'), 'service ready', svc.output);
    const logLines = svc.lines().slice(4);
    assert.ok(logLines.length > 0);
    for (const line of logLines) assert.doesNotThrow(() => JSON.parse(line), line);
    assert.doesNotMatch(svc.output(), /"msg":"request"/);
    // What runs is node on the compiled build, without a TypeScript loader.
    const processes = descendants(svc.pid);
    assert.ok(
      processes.some((args) => /^(\S*\/)?node dist\/cli\/start\.js$/.test(args)),
      processes.join('\n'),
    );
  } finally {
    await svc.interrupt();
  }
});

test('npm start again: nothing to build, request lines at LOG_LEVEL=debug, compact lines with LOG_FORMAT=pretty', async () => {
  const svc = await npmStart({ LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' });
  try {
    assert.doesNotMatch(svc.output(), /Building dist/, 'dist/ was up to date');
    assert.match(svc.lines()[0], /^evsim 0\.1\.0 listening on /);
    await fetch(`${svc.url}/evcharger/catalog`, { headers: { authorization: `Bearer ${svc.token}` } });
    await waitFor(
      () => /DEBUG request .*path=\/evcharger\/catalog status=200/.test(svc.output()),
      'request line',
      svc.output,
    );
    assert.match(svc.output(), /^\d\d:\d\d:\d\d INFO {2}service ready url=http:\/\/127\.0\.0\.1:\d+$/m);
    assert.doesNotMatch(svc.output(), /^\{"level"/m, 'no JSON lines in the pretty format');
  } finally {
    await svc.interrupt();
  }
});
