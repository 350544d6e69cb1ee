// A secret sent through a command reaches the charger (and through it the central system) and
// nothing else: the 202 answer, E16, the command list, a 422, the stored row and the message log
// show it masked, as the message log's frames do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, type As } from '../deployments/deployment-helpers.ts';
import { finalOf } from './command-helpers.ts';
import { SECRET_MASK } from '../../protocols/ocpp/secret-values.ts';
import { sealCommand } from '../../engine/commands/command-secrets.ts';
import type { ChargerCommand } from '../../engine/commands/command-topics.ts';
import { createSecretBox } from '../../engine/platform/secrets/secret-box.ts';

const P1 = 'First-Passw0rd-00001';
const KEY16 = 'Second-Passw0rd-0002';
const PASSWORD201 = 'Third-Passw0rd-000003';
const PROXIED = 'Fourth-Passw0rd-00004';

describe(`secrets sent through commands (${MODE})`, () => {
  let svc: TestService;
  let csms: StrictCsms;
  let as: As;
  const ids: Record<string, string> = {};
  /** Basic auth passwords the central system was offered, per identity. */
  const offered: Array<{ identity: string; password: string | undefined }> = [];
  const proxied: unknown[] = [];

  before(async () => {
    [svc, csms] = await Promise.all([
      startTestService(),
      startStrictCsms({
        auth: (identity, password) => {
          offered.push({ identity, password });
          return password !== undefined && [P1, KEY16, PASSWORD201].includes(password);
        },
        handlers: {
          ChangeConfiguration: (params) => {
            proxied.push(params);
            return { status: 'Accepted' };
          },
        },
      }),
    ]);
    as = svc.as('org-cmd-secrets');
    for (const [identity, version] of [
      ['SEC16', 'ocpp1.6'],
      ['SEC201', 'ocpp2.0.1'],
    ] as const) {
      const res = await as('POST', '/evcharger/deployment', {
        body: {
          identity,
          model: DUAL_MODEL,
          ws_url: csms.url,
          ocpp_version: version,
          security: { profile: 1, password: P1 },
        },
      });
      assert.equal(res.status, 201, res.text);
      ids[identity] = res.body.deployment_id;
    }
    await csms.waitFor(() => csms.clients.has('SEC16') && csms.clients.has('SEC201'), 15_000);
  });
  after(async () => {
    await svc.close();
    await csms.close();
  });

  /** POSTs the command: the 202 shows the payload with the secret masked; returns the command id. */
  async function send(path: string, identity: string, payload: object, secret: string): Promise<string> {
    const res = await as('POST', `/evcharger/commands/${path}`, {
      body: { target: { deployment_id: ids[identity] }, payload },
    });
    assert.equal(res.status, 202, res.text);
    assert.ok(!res.text.includes(secret), res.text);
    return res.body.results[0].command.id;
  }

  /** Nothing a read answers or the database keeps holds the secret. */
  async function assertHidden(identity: string, commandId: string, secret: string): Promise<void> {
    const one = await as('GET', `/evcharger/commands/${commandId}`);
    assert.equal(one.status, 200);
    assert.ok(!one.text.includes(secret), one.text);
    const list = await as('GET', `/evcharger/commands?deployment_id=${ids[identity]}`);
    assert.equal(list.status, 200);
    assert.ok(list.body.items.some((c: { id: string }) => c.id === commandId));
    assert.ok(!list.text.includes(secret), list.text);
    const detail = await as('GET', `/evcharger/deployments/${ids[identity]}`);
    assert.ok(!detail.text.includes(secret), detail.text);
    const log = await as('GET', `/evcharger/deployments/${ids[identity]}/ocpp-log?limit=500`);
    assert.ok(!log.text.includes(secret), log.text);
    const { rows } = await svc.service.platform.db.query<{ row: string }>(
      'SELECT row_to_json(c)::text AS row FROM evc_commands c WHERE id = $1',
      [commandId],
    );
    assert.equal(rows.length, 1);
    assert.ok(!rows[0].row.includes(secret), rows[0].row);
  }

  test('E13 1.6 AuthorizationKey: the charger connects with the new key; reads show it masked', async () => {
    const id = await send('configuration', 'SEC16', { key: 'AuthorizationKey', value: KEY16 }, KEY16);
    const record = await finalOf(as, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.deepEqual(record.payload, { key: 'AuthorizationKey', value: SECRET_MASK });
    await csms.waitFor(() => offered.some((o) => o.identity === 'SEC16' && o.password === KEY16), 15_000);
    await assertHidden('SEC16', id, KEY16);
  });

  test('E13 2.0.1 SecurityCtrlr.BasicAuthPassword: the charger connects with it; reads show it masked', async () => {
    const payload = { component: 'SecurityCtrlr', variable: 'BasicAuthPassword', value: PASSWORD201 };
    const id = await send('configuration', 'SEC201', payload, PASSWORD201);
    const record = await finalOf(as, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.deepEqual(record.payload, { ...payload, value: SECRET_MASK });
    await csms.waitFor(
      () => offered.some((o) => o.identity === 'SEC201' && o.password === PASSWORD201),
      15_000,
    );
    await assertHidden('SEC201', id, PASSWORD201);
  });

  test('E11 proxy-message: the central system receives the secret as written; reads show it masked', async () => {
    // Back online with the key of the first test (booted again).
    await csms.waitFor(
      () =>
        csms.received.filter((r) => r.identity === 'SEC16' && r.action === 'BootNotification').length >= 2,
      15_000,
    );
    const payload = { action: 'ChangeConfiguration', payload: { key: 'AuthorizationKey', value: PROXIED } };
    const id = await send('proxy-message', 'SEC16', payload, PROXIED);
    const record = await finalOf(as, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.deepEqual(proxied.at(-1), { key: 'AuthorizationKey', value: PROXIED });
    assert.deepEqual(record.payload.payload, { key: 'AuthorizationKey', value: SECRET_MASK });
    await assertHidden('SEC16', id, PROXIED);
  });

  test('a 422 on a command never echoes the secret of its payload', async () => {
    // The 2.0.1 shape for a 1.6 charger: refused after parsing, with the payload as input.
    const mismatch = await as('POST', '/evcharger/commands/configuration', {
      body: {
        target: { deployment_id: ids.SEC16 },
        payload: { component: 'SecurityCtrlr', variable: 'BasicAuthPassword', value: PROXIED },
      },
    });
    assert.equal(mismatch.status, 422, mismatch.text);
    assert.ok(!mismatch.text.includes(PROXIED), mismatch.text);
    // A value the schema refuses (too long): the input is the secret itself.
    const long = PROXIED.repeat(60);
    const invalid = await as('POST', '/evcharger/commands/configuration', {
      body: { target: { deployment_id: ids.SEC16 }, payload: { key: 'AuthorizationKey', value: long } },
    });
    assert.equal(invalid.status, 422, invalid.text);
    assert.ok(!invalid.text.includes(PROXIED), invalid.text);
  });
  test('a command stored with its secret in clear (before this was masked) is read masked', async () => {
    const { rows } = await svc.service.platform.db.query<{ id: string }>(
      `SELECT id::text AS id FROM evc_commands WHERE organization_id = 'org-cmd-secrets' AND status <> 'queued' LIMIT 1`,
    );
    const OLD = 'Older-Passw0rd-000005';
    await svc.service.platform.db.query(
      `UPDATE evc_commands SET payload = $2::jsonb, response = $3::jsonb WHERE id = $1`,
      [
        rows[0].id,
        JSON.stringify({ key: 'AuthorizationKey', value: OLD }),
        JSON.stringify({ configurationKey: [{ key: 'AuthorizationKey', value: OLD, readonly: false }] }),
      ],
    );
    const one = await as('GET', `/evcharger/commands/${rows[0].id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.payload.value, SECRET_MASK);
    assert.ok(!one.text.includes(OLD), one.text);
    const list = await as('GET', '/evcharger/commands?limit=500');
    assert.ok(!list.text.includes(OLD), list.text);
  });
  test('a sealed command this node cannot open (another SECRETS_KEY) fails with SECRET_UNAVAILABLE', async () => {
    const id = randomUUID();
    const event: ChargerCommand = {
      type: 'CHANGE_CONFIGURATION',
      key: 'AuthorizationKey',
      value: KEY16,
      commandId: id,
    };
    const sealed = sealCommand(createSecretBox('another-key'), event);
    // Queued a minute ago and never published: the sweep takes it from the database.
    await svc.service.platform.db.query(
      `INSERT INTO evc_commands (id, organization_id, deployment_id, identity, event_type, ocpp_version, payload,
         event, created_at, deadline_at)
       VALUES ($1, 'org-cmd-secrets', $2, 'SEC16', 'configuration', 'ocpp1.6', $3::jsonb, $4::jsonb,
         now() - interval '1 minute', now() + interval '1 minute')`,
      [
        id,
        ids.SEC16,
        JSON.stringify({ key: 'AuthorizationKey', value: SECRET_MASK }),
        JSON.stringify(sealed),
      ],
    );
    const record = await finalOf(as, id);
    assert.equal(record.status, 'failed');
    assert.equal(record.error?.code, 'SECRET_UNAVAILABLE');
  });
});
