// Scenario runs through the API: start, follow the steps live, read the result with its proof
// frames; bad documents are a 422 naming the place; another organization's run is a 404.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/service.ts';

const SESSION = readFileSync('scenarios/ocpp16/local-start-stop.yaml', 'utf8');

/** The events of a run's stream until `end`, each as [event, data]. */
async function eventsOf(svc: TestService, token: string, runId: string): Promise<Array<[string, any]>> {
  const res = await fetch(`${svc.url}/scenario-runs/${runId}/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/event-stream/);
  const events: Array<[string, any]> = [];
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push([event, JSON.parse(data)]);
      if (event === 'end') return events;
    }
  }
  return events;
}

describe('scenario runs API', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => await svc.close());

  test('POST /scenario-runs starts a run; its events end with the result and the frames that proved each expectation', async () => {
    const a = svc.as('org-a');
    const started = await a('POST', '/scenario-runs', { body: { scenario: SESSION } });
    assert.equal(started.status, 201);
    assert.equal(started.body.status, 'running');
    assert.equal(started.headers.get('location'), `/scenario-runs/${started.body.run_id}`);

    const events = await eventsOf(svc, await svc.token('org-a'), started.body.run_id);
    assert.equal(events[0][0], 'run');
    const [kind, result] = events.at(-1)!;
    assert.equal(kind, 'end');
    assert.equal(result.status, 'passed');
    assert.deepEqual(result.expectations, { passed: 7, failed: 0 });
    const authorize = result.steps.find((s: any) => s.path === '4');
    assert.equal(authorize.status, 'passed');
    assert.deepEqual(
      authorize.frames.map((f: any) => [f.item.direction, f.item.type, f.item.action]),
      [
        ['out', 'CALL', 'Authorize'],
        ['in', 'CALLRESULT', 'Authorize'],
      ],
    );
    assert.ok(events.some(([e, d]) => e === 'step' && d.path === '4' && d.status === 'passed'));

    const read = await a('GET', `/scenario-runs/${started.body.run_id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.status, 'passed');
    // Its chargers were removed after the run.
    const deployments = await a('GET', '/evcharger/deployments');
    assert.equal(deployments.body.items.length, 0);
  });

  test("another organization's run is a 404, read, followed or stopped", async () => {
    const started = await svc.as('org-a')('POST', '/scenario-runs', {
      body: { scenario: { name: 'wait', chargers: [{ id: 'cp' }], steps: [{ wait: { seconds: 1 } }] } },
    });
    assert.equal(started.status, 201);
    const b = svc.as('org-b');
    for (const [method, path] of [
      ['GET', `/scenario-runs/${started.body.run_id}`],
      ['GET', `/scenario-runs/${started.body.run_id}/events`],
      ['DELETE', `/scenario-runs/${started.body.run_id}`],
    ]) {
      const res = await b(method, path);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.detail, `Scenario run '${started.body.run_id}' not found`);
    }
    assert.deepEqual((await b('GET', '/scenario-runs')).body.items, []);
    await eventsOf(svc, await svc.token('org-a'), started.body.run_id);
  });

  test('a document with a mistake is a 422 naming its place in the document', async () => {
    const res = await svc.as('org-a')('POST', '/scenario-runs', {
      body: {
        scenario: { name: 'x', chargers: [{ id: 'cp' }], steps: [{ present_token: { connector: 1 } }] },
      },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.detail.map((d: any) => d.loc),
      [['body', 'scenario', 'steps', 0, 'present_token', 'id_tag']],
    );
  });

  test('security without the ws_url of an external central system is a 422', async () => {
    const res = await svc.as('org-a')('POST', '/scenario-runs', {
      body: { scenario: SESSION, security: { profile: 1, password: 'a-password-of-16-chars' } },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'security']);
    assert.doesNotMatch(res.text, /a-password-of-16-chars/);
  });

  test('GET /scenarios/schema.json serves the JSON Schema without a token', async () => {
    const res = await svc.request('GET', '/scenarios/schema.json');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, JSON.parse(readFileSync('scenarios/scenario.schema.json', 'utf8')));
  });

  test('GET /scenarios/ready lists every ready scenario with its name, version and text, without a token', async () => {
    const res = await svc.request('GET', '/scenarios/ready');
    assert.equal(res.status, 200);
    const files = [
      'conformance/ocpp16',
      'conformance/ocpp201',
      'faults',
      'ocpp16',
      'ocpp201',
      'ocpp21',
    ].flatMap((d) =>
      readdirSync(join('scenarios', d))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => `${d}/${f}`),
    );
    assert.deepEqual(
      res.body.items.map((i: any) => i.file),
      files.sort(),
    );
    const boot = res.body.items.find((i: any) => i.file === 'ocpp201/boot.yaml');
    assert.equal(boot.ocpp_version, 'ocpp2.0.1');
    assert.equal(boot.text, readFileSync('scenarios/ocpp201/boot.yaml', 'utf8'));
    assert.match(boot.name, /2\.0\.1/);
    assert.ok(boot.description.length > 20);
  });
});
