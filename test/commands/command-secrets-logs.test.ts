// The service as a user runs it (a child process, LOG_LEVEL=trace): secrets sent through commands
// (E13 AuthorizationKey, a proxied ChangeConfiguration) reach the central system, and no line the
// process printed holds them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startChildService, type ChildService } from '../support/child-service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, type As } from '../deployments/deployment-helpers.ts';
import { finalOf, sendOne } from './command-helpers.ts';

const P1 = 'Logs-First-Passw0rd1';
const KEY = 'Logs-Second-Passw0rd';
const PROXIED = 'Logs-Proxied-Passw0rd';

let svc: ChildService;
let csms: StrictCsms;
let as: As;
const offered: Array<string | undefined> = [];
const proxied: unknown[] = [];

before(async () => {
  [svc, csms] = await Promise.all([
    startChildService({ LOG_LEVEL: 'trace' }),
    startStrictCsms({
      auth: (_identity, password) => {
        offered.push(password);
        return password === P1 || password === KEY;
      },
      handlers: {
        ChangeConfiguration: (params) => {
          proxied.push(params);
          return { status: 'Accepted' };
        },
      },
    }),
  ]);
  as = svc.as('org-cmd-logs');
});
after(async () => {
  await svc.close();
  await csms.close();
});

test('secrets sent through commands reach the central system and no log line', async () => {
  const res = await as('POST', '/evcharger/deployment', {
    body: {
      identity: 'SEC-LOG',
      model: DUAL_MODEL,
      ws_url: csms.url,
      ocpp_version: 'ocpp1.6',
      security: { profile: 1, password: P1 },
    },
  });
  assert.equal(res.status, 201, res.text);
  const target = { deployment_id: res.body.deployment_id };
  const boots = () => csms.received.filter((r) => r.action === 'BootNotification').length;
  await csms.waitFor(() => boots() === 1, 15_000);

  const changed = await finalOf(
    as,
    await sendOne(as, 'configuration', { target, payload: { key: 'AuthorizationKey', value: KEY } }),
  );
  assert.equal(changed.status, 'completed', JSON.stringify(changed));
  await csms.waitFor(() => offered.includes(KEY) && boots() === 2, 15_000);

  const sent = await finalOf(
    as,
    await sendOne(as, 'proxy-message', {
      target,
      payload: { action: 'ChangeConfiguration', payload: { key: 'AuthorizationKey', value: PROXIED } },
    }),
  );
  assert.equal(sent.status, 'completed', JSON.stringify(sent));
  assert.deepEqual(proxied, [{ key: 'AuthorizationKey', value: PROXIED }]);

  await svc.terminate();
  const output = svc.output();
  assert.match(output, /"level":10|"level":20/, 'trace and debug lines were printed');
  for (const secret of [P1, KEY, PROXIED])
    assert.ok(!output.includes(secret), `the output holds a secret (${secret.slice(0, 6)}...)`);
});
