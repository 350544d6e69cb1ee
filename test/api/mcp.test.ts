// The MCP server (issue 36): the SDK's own client (StreamableHTTPClientTransport) against a booted
// service. It initializes, lists the tools, and calls each one with real effects: a charger
// deployed through a tool boots at a strict ocpp-rpc central system, a command sent through a tool
// reaches it, the charger's message log and the CSMS's answer times show it, a ready scenario runs
// to its verdict. A missing or invalid token is a 401; another organization's token sees nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, eventually } from '../deployments/deployment-helpers.ts';

const TOOLS = [
  'list_locations',
  'fleet_summary',
  'list_chargers',
  'get_charger',
  'deploy_charger',
  'deploy_location',
  'charger_runtime_op',
  'read_message_log',
  'send_command',
  'get_command',
  'csms_latency',
  'list_ready_scenarios',
  'start_scenario_run',
  'get_scenario_run',
  'list_scenario_runs',
  'list_catalog',
  'list_templates',
];

async function connect(svc: TestService, token: string | null): Promise<Client> {
  const client = new Client({ name: 'evsim-test', version: '1.0.0' });
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', svc.url), { requestInit: { headers } }),
  );
  return client;
}

type Json = any;

/** A tool's answer: its JSON, or the tool error's text when `isError`. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { isError: res.isError === true, text, json: (res.isError ? undefined : JSON.parse(text)) as Json };
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> {
  const res = await call(client, name, args);
  assert.equal(res.isError, false, `${name}: ${res.text}`);
  return res.json;
}

describe('MCP server at /mcp (issue 36)', () => {
  let csms: StrictCsms;
  let svc: TestService;
  let a: Client;
  let b: Client;
  let deploymentId: string;

  before(async () => {
    csms = await startStrictCsms({ protocols: ['ocpp1.6'] });
    svc = await startTestService();
    a = await connect(svc, await svc.token('org-a'));
    b = await connect(svc, await svc.token('org-b'));
    const deployed = await ok(a, 'deploy_charger', {
      identity: 'MCP-001',
      model: DUAL_MODEL,
      ocpp_version: 'ocpp1.6',
      ws_url: csms.url,
    });
    deploymentId = deployed.deployment_id;
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await svc?.close();
    await csms?.close();
  });

  test('initialize names the server; tools/list has every tool, each described with an object input schema', async () => {
    assert.equal(a.getServerVersion()?.name, 'evsim');
    assert.ok(a.getServerCapabilities()?.tools);
    const { tools } = await a.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOLS].sort());
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok((t.description ?? '').length > 40, `${t.name} is described`);
    }
    const send = tools.find((t) => t.name === 'send_command')!;
    assert.match(send.description ?? '', /present-token/);
  });

  test('deploy_charger: the charger boots at the strict central system and is listed, online, by list_chargers and get_charger', async () => {
    await csms.waitFor(() =>
      csms.received.find((r) => r.identity === 'MCP-001' && r.action === 'BootNotification'),
    );
    const detail = await eventually(
      () => ok(a, 'get_charger', { deployment_id: deploymentId }),
      (d) => d.stage === 'online',
      30_000,
    );
    assert.equal(detail.identity, 'MCP-001');
    assert.ok(detail.connectors.length >= 1);
    const list = await ok(a, 'list_chargers', {});
    assert.deepEqual(
      list.items.map((d: Json) => [d.identity, d.stage]),
      [['MCP-001', 'online']],
    );
    const summary = await ok(a, 'fleet_summary');
    assert.ok(JSON.stringify(summary).includes('online'), JSON.stringify(summary));
  });

  test('send_command present-token reaches the central system as Authorize; get_command, read_message_log and csms_latency show it', async () => {
    await eventually(
      () => ok(a, 'get_charger', { deployment_id: deploymentId }),
      (d) => d.stage === 'online',
      30_000,
    );
    const queued = await ok(a, 'send_command', {
      command: 'present-token',
      target: { deployment_id: deploymentId },
      payload: { id_tag: 'MCP-TAG', connector_id: 1 },
    });
    assert.equal(queued.queued_count, 1, JSON.stringify(queued));
    const commandId = queued.results[0].command.id;
    const authorize = await csms.waitFor(() =>
      csms.received.find((r) => r.identity === 'MCP-001' && r.action === 'Authorize'),
    );
    assert.equal(authorize.params.idTag, 'MCP-TAG');
    const command = await eventually(
      () => call(a, 'get_command', { command_id: commandId }),
      (r) => !r.isError,
    );
    assert.deepEqual([command.json.id, command.json.event_type], [commandId, 'present-token']);

    const log = await eventually(
      () => ok(a, 'read_message_log', { deployment_id: deploymentId, action: 'Authorize' }),
      (page) => page.items.some((i: Json) => i.type === 'CALLRESULT'),
    );
    const sent = log.items.find((i: Json) => i.type === 'CALL');
    assert.equal(sent.direction, 'out');
    assert.equal(sent.frame[2], 'Authorize');

    const latency = await eventually(
      () => ok(a, 'csms_latency', { window: 'all' }),
      (l) => l.items.some((i: Json) => i.action === 'Authorize' && i.count >= 1),
    );
    assert.equal(latency.window, 'all');
  });

  test('list_catalog, list_templates and list_locations read what can be deployed; deploy_location deploys a location', async () => {
    const brands = await ok(a, 'list_catalog', {});
    assert.ok(JSON.stringify(brands).includes('abb'));
    const models = await ok(a, 'list_catalog', { brand_slug: 'abb' });
    assert.ok(JSON.stringify(models).includes(DUAL_MODEL));
    const templates = await ok(a, 'list_templates', { ocpp_version: 'ocpp1.6' });
    assert.equal(templates.count, templates.templates.length);
    assert.ok(templates.count >= 1);

    const accepted = await ok(a, 'deploy_location', {
      name: 'MCP depot',
      ocpp_version: 'ocpp1.6',
      charger_groups: [{ model: DUAL_MODEL, count: 2, identity_prefix: 'MCP-LOC-', ws_url: csms.url }],
    });
    assert.deepEqual(accepted.failed, []);
    const locations = await ok(a, 'list_locations', { name: 'mcp depot' });
    assert.deepEqual(
      locations.items.map((l: Json) => [l.location_id, l.chargers]),
      [[accepted.location_id, 2]],
    );
    await csms.waitFor(
      () =>
        csms.received.filter((r) => r.identity.startsWith('MCP-LOC-') && r.action === 'BootNotification')
          .length >= 2,
      30_000,
    );
    const stopped = await ok(a, 'charger_runtime_op', {
      action: 'delete',
      location_id: accepted.location_id,
    });
    assert.equal(stopped.location_id, accepted.location_id);
  });

  test('start_scenario_run runs a ready scenario on the built-in central system; get_scenario_run waits for its verdict', async () => {
    const ready = await ok(a, 'list_ready_scenarios');
    const boot = ready.items.find((s: Json) => s.file.endsWith('ocpp16/boot.yaml'));
    assert.ok(boot, JSON.stringify(ready.items.map((s: Json) => s.file)));
    const run = await ok(a, 'start_scenario_run', { scenario: boot.text });
    assert.equal(run.status, 'running');
    const done = await eventually(
      () => ok(a, 'get_scenario_run', { run_id: run.run_id, wait_s: 20 }),
      (r) => r.status !== 'running',
      60_000,
    );
    assert.equal(done.status, 'passed', JSON.stringify(done).slice(0, 2000));
    const runs = await ok(a, 'list_scenario_runs');
    assert.ok(runs.items.some((r: Json) => r.run_id === run.run_id));
    // Another organization sees none of it.
    const other = await call(b, 'get_scenario_run', { run_id: run.run_id });
    assert.deepEqual([other.isError, other.text], [true, `Scenario run '${run.run_id}' not found`]);
  });

  test("another organization's token: the charger is not found by any tool, and its lists are empty", async () => {
    for (const [name, args] of [
      ['get_charger', { deployment_id: deploymentId }],
      ['read_message_log', { deployment_id: deploymentId }],
      ['charger_runtime_op', { action: 'stop', deployment_id: deploymentId }],
    ] as const) {
      const res = await call(b, name, args);
      assert.deepEqual([res.isError, res.text], [true, `Deployment '${deploymentId}' not found`], name);
    }
    const sent = await call(b, 'send_command', {
      command: 'plug-in',
      target: { deployment_id: deploymentId },
      payload: { connector_id: 1 },
    });
    assert.equal(sent.isError, true);
    assert.match(sent.text, /not found/i);
    assert.deepEqual((await ok(b, 'list_chargers')).items, []);
    assert.deepEqual((await ok(b, 'csms_latency', { window: 'all' })).items, []);
    // And the charger still runs for its own organization.
    assert.equal((await ok(a, 'get_charger', { deployment_id: deploymentId })).identity, 'MCP-001');
  });

  test("errors come back as tool errors in the API's words: a 422 list, a 409, an unknown command", async () => {
    const unknownModel = await call(a, 'deploy_charger', { identity: 'MCP-X', model: 'no-such-model' });
    assert.equal(unknownModel.isError, true);
    const issues = JSON.parse(unknownModel.text).detail;
    assert.deepEqual(issues[0].loc, ['body', 'model']);
    const again = await call(a, 'deploy_charger', {
      identity: 'MCP-001',
      model: DUAL_MODEL,
      ws_url: csms.url,
    });
    assert.equal(again.isError, true);
    assert.match(again.text, /MCP-001/);
    const badPayload = await call(a, 'send_command', {
      command: 'present-token',
      target: { deployment_id: deploymentId },
      payload: { connector_id: 'one' },
    });
    assert.equal(badPayload.isError, true);
    assert.deepEqual(JSON.parse(badPayload.text).detail[0].loc.slice(0, 2), ['body', 'payload']);
    const noCommand = await call(a, 'send_command', {
      command: 'fly',
      target: { deployment_id: deploymentId },
    });
    assert.equal(noCommand.isError, true);
  });

  test('a missing, malformed or invalid token is a 401 before any MCP message; GET /mcp is a 405', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    for (const [auth, detail] of [
      [undefined, 'Not authenticated'],
      ['Token abc', 'Authorization header must be: Bearer <token>'],
      ['Bearer not-a-jwt', /^Invalid token/],
    ] as const) {
      const res = await fetch(new URL('/mcp', svc.url), {
        method: 'POST',
        headers: auth ? { ...headers, authorization: auth } : headers,
        body: JSON.stringify(init),
      });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      const body = (await res.json()) as { detail: string };
      if (typeof detail === 'string') assert.equal(body.detail, detail);
      else assert.match(body.detail, detail);
    }
    await assert.rejects(connect(svc, null), /401|Unauthorized|Not authenticated/);
    const get = await svc.request('GET', '/mcp', { token: await svc.token('org-a') });
    assert.equal(get.status, 405);
  });
});
