// Migration 1032: commands stored before secrets were sealed lose them at rest. A final command's
// charger event goes; a payload setting a secret key or variable keeps its name, not its value;
// an open command keeps its event (a node still hands it to its charger).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { migrate, readMigrations } from '../../engine/platform/db/migrate.ts';
import { openTestDatabase, silentLog } from '../support/database.ts';
import type { Database } from '../../engine/platform/db/database.ts';

let db: Database;
let close: () => Promise<void>;
const all = readMigrations();
const before1032 = all.filter((m) => m.version < '1032');
const upTo1032 = all.filter((m) => m.version < '1033');

before(async () => {
  ({ db, close } = await openTestDatabase());
  await migrate(db, silentLog, before1032);
});
after(() => close());

async function insert(status: string, payload: unknown, event: unknown): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO evc_commands (id, organization_id, deployment_id, identity, event_type, ocpp_version, payload,
       status, event, deadline_at)
     VALUES ($1, 'org', $2, 'CP-1', 'CHANGE_CONFIGURATION', 'ocpp1.6', $3, $4, $5, now() + interval '1 minute')`,
    [id, randomUUID(), JSON.stringify(payload), status, JSON.stringify(event)],
  );
  return id;
}

const row = async (id: string) =>
  (
    await db.query<{ payload: unknown; event: unknown }>(
      'SELECT payload, event FROM evc_commands WHERE id = $1',
      [id],
    )
  ).rows[0];

test('old command rows lose their secrets at rest; other values and open events stay', async () => {
  const key16 = await insert(
    'completed',
    { key: 'AuthorizationKey', value: '0123456789abcdef' },
    { type: 'CHANGE_CONFIGURATION', key: 'AuthorizationKey', value: '0123456789abcdef' },
  );
  const pw201 = await insert(
    'failed',
    { component: 'SecurityCtrlr', variable: 'BasicAuthPassword', value: 'pass-word-2026' },
    { type: 'CHANGE_CONFIGURATION' },
  );
  const plain = await insert('completed', { key: 'HeartbeatInterval', value: '60' }, { type: 'X' });
  const open = await insert(
    'queued',
    { key: 'HeartbeatInterval', value: '30' },
    { type: 'CHANGE_CONFIGURATION' },
  );

  assert.deepEqual(await migrate(db, silentLog, upTo1032), ['1032_command_secrets_at_rest']);

  assert.deepEqual(await row(key16), {
    payload: { key: 'AuthorizationKey', value: '********' },
    event: null,
  });
  assert.deepEqual(await row(pw201), {
    payload: { component: 'SecurityCtrlr', variable: 'BasicAuthPassword', value: '********' },
    event: null,
  });
  assert.deepEqual(await row(plain), { payload: { key: 'HeartbeatInterval', value: '60' }, event: null });
  assert.deepEqual(await row(open), {
    payload: { key: 'HeartbeatInterval', value: '30' },
    event: { type: 'CHANGE_CONFIGURATION' },
  });
});
