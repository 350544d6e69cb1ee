// The console's own endpoints: the static page and its modules (no auth, nothing from outside),
// the fleet reads, the one stream of stage changes and the charger's machine diagram. Auth as
// everywhere; another organization's deployment is a 404 and its stage changes never reach a stream.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { DUAL_MODEL, eventually, type As } from '../deployments/deployment-helpers.ts';
import { openEventStream } from '../message-log/log-helpers.ts';

let svc: TestService;
let as: As;
let other: As;

async function deploy(identity: string): Promise<string> {
  const res = await as('POST', '/evcharger/deployment', { body: { identity, model: DUAL_MODEL } });
  assert.equal(res.status, 201, res.text);
  return res.body.deployment_id;
}

async function online(id: string): Promise<void> {
  await eventually(
    () => as('GET', `/evcharger/deployments/${id}`),
    (r) => r.body.stage === 'online',
  );
}

before(async () => {
  svc = await startTestService();
  as = svc.as('org-a');
  other = svc.as('org-b');
});
after(() => svc.close());

describe('the console page', () => {
  test('GET / redirects to /ui/, keeping the ?token= of the start-up link', async () => {
    const res = await fetch(`${svc.url}/?token=abc`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/ui/?token=abc');
  });

  test('GET /ui/ serves the page without a token, with a policy that loads nothing from outside', async () => {
    const res = await fetch(`${svc.url}/ui/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(
      res.headers.get('content-security-policy')!,
      /default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/=]+';/,
    );
    const html = await res.text();
    assert.match(html, /<script type="module" src="\/ui\/app.js">/);
    assert.doesNotMatch(html, /https?:\/\//);
  });

  test('the view library is served from node_modules as ES modules', async () => {
    for (const file of ['preact.mjs', 'hooks.mjs', 'htm.mjs']) {
      const res = await fetch(`${svc.url}/ui/vendor/${file}`);
      assert.equal(res.status, 200, file);
      assert.match(res.headers.get('content-type')!, /^text\/javascript/);
      assert.match(await res.text(), /export/);
    }
  });

  test('a file that is not the console own is a 404', async () => {
    for (const path of [
      '/ui/nope.js',
      '/ui/vendor/koa.mjs',
      '/ui/..%2Fapp.ts',
      '/ui/.env',
      '/ui/vendor/toString',
    ])
      assert.equal((await fetch(`${svc.url}${path}`)).status, 404, path);
  });
});

describe('fleet reads', () => {
  let ids: string[];
  before(async () => {
    ids = [await deploy('FLEET-A1'), await deploy('FLEET-A2'), await deploy('FLEET-B1')];
    for (const id of ids) await online(id);
    await as('POST', '/evcharger/deployment-runtime-ops', {
      body: { action: 'stop', deployment_id: ids[2] },
    });
    await eventually(
      () => as('GET', `/evcharger/deployments/${ids[2]}`),
      (r) => r.body.stage === 'stopped',
    );
  });

  test('without a token: 401', async () => {
    for (const path of [
      '/evcharger/fleet/summary',
      '/evcharger/fleet/deployments',
      '/evcharger/fleet/stream',
    ])
      assert.equal((await svc.request('GET', path)).status, 401, path);
  });

  test('the summary counts the organization deployments by stage and outcome', async () => {
    const res = await as('GET', '/evcharger/fleet/summary');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.total, 3);
    assert.deepEqual(res.body.stages, { online: 2, stopped: 1 });
    assert.equal(res.body.outcomes.succeeded, 3);
    assert.deepEqual((await other('GET', '/evcharger/fleet/summary')).body, {
      total: 0,
      stages: {},
      outcomes: {},
    });
  });

  test('the page searches identities, filters by stage and says how many match', async () => {
    const found = await as('GET', '/evcharger/fleet/deployments?q=fleet-a');
    assert.deepEqual(
      found.body.items.map((i: any) => i.identity),
      ['FLEET-A1', 'FLEET-A2'],
    );
    assert.equal(found.body.total, 2);
    const stopped = await as('GET', '/evcharger/fleet/deployments?stage=stopped');
    assert.deepEqual(
      stopped.body.items.map((i: any) => [i.identity, i.stage]),
      [['FLEET-B1', 'stopped']],
    );
    // A LIKE wildcard is searched as the character itself.
    assert.equal((await as('GET', '/evcharger/fleet/deployments?q=%25')).body.total, 0);
  });

  test('the page is cut by limit and offset, with next_offset until the last', async () => {
    const first = await as('GET', '/evcharger/fleet/deployments?limit=2');
    assert.deepEqual(
      first.body.items.map((i: any) => i.identity),
      ['FLEET-A1', 'FLEET-A2'],
    );
    assert.equal(first.body.next_offset, 2);
    const last = await as('GET', '/evcharger/fleet/deployments?limit=2&offset=2');
    assert.deepEqual(
      last.body.items.map((i: any) => i.identity),
      ['FLEET-B1'],
    );
    assert.equal(last.body.next_offset, null);
    assert.equal(last.body.total, 3);
  });

  test('bad paging is a 422 naming the field', async () => {
    const res = await as('GET', '/evcharger/fleet/deployments?limit=0');
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['query', 'limit']);
  });

  test('another organization sees none of them', async () => {
    const res = await other('GET', '/evcharger/fleet/deployments?q=FLEET');
    assert.deepEqual(res.body, { items: [], total: 0, next_offset: null });
  });
});

describe('the stage stream', () => {
  test('brings the stage changes of a new deployment of the organization, and none of another', async () => {
    const mine = await openEventStream(`${svc.url}/evcharger/fleet/stream`, await svc.token('org-a'));
    const theirs = await openEventStream(`${svc.url}/evcharger/fleet/stream`, await svc.token('org-b'));
    try {
      assert.equal(mine.status, 200);
      assert.match(mine.headers.get('content-type')!, /^text\/event-stream/);
      const id = await deploy('STREAM-1');
      const stages = await mine.waitFor((events) => {
        const seen = events
          .filter((e) => e.event === 'stage')
          .map((e) => JSON.parse(e.data))
          .filter((c) => c.deployment_id === id);
        return seen.some((c) => c.stage === 'online') && seen;
      }, 20_000);
      assert.equal(stages[0].identity, 'STREAM-1');
      assert.deepEqual(stages.map((c: any) => c.stage).slice(-2), ['registering', 'online']);
      assert.deepEqual(theirs.events, []);
    } finally {
      mine.close();
      theirs.close();
    }
  });
});

describe('the machine diagram', () => {
  test('is the charger machine, with the current state of the stored snapshot', async () => {
    const id = await deploy('DIAGRAM-1');
    await online(id);
    const res = await eventually(
      () => as('GET', `/evcharger/deployments/${id}/machine`),
      (r) => r.body.active?.includes('charger.deployed.session.online'),
    );
    assert.equal(res.body.machine.id, 'charger');
    const deployed = res.body.machine.states.find((s: any) => s.key === 'deployed');
    assert.equal(deployed.type, 'compound');
    assert.deepEqual(
      deployed.states.map((s: any) => s.key),
      ['queued', 'scheduling', 'pulling', 'starting', 'session', 'offline'],
    );
    assert.ok(
      res.body.machine.states[0].transitions.some(
        (t: any) => t.event === 'DEPLOY' && t.targets[0] === 'charger.deployed',
      ),
    );
  });

  test('without a token 401; another organization or an unknown id 404', async () => {
    const id = await deploy('DIAGRAM-2');
    assert.equal((await svc.request('GET', `/evcharger/deployments/${id}/machine`)).status, 401);
    const theirs = await other('GET', `/evcharger/deployments/${id}/machine`);
    assert.equal(theirs.status, 404);
    assert.deepEqual(theirs.body, { detail: `Deployment '${id}' not found` });
    assert.equal((await as('GET', '/evcharger/deployments/nope/machine')).status, 404);
  });
});
