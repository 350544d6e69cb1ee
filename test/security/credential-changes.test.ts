// The engine seam for credential changes (the charger's own AuthorizationKey / BasicAuthPassword
// handling lands on it): new secrets are sealed, stored and used from the next connection attempt;
// secrets changed behind this process's back are re-read after the central system refuses the old.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { createSecretBox } from '../../engine/platform/secrets/secret-box.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from '../deployments/deployment-helpers.ts';
import {
  sealSecrets,
  SECURITY_COLUMNS,
  securityView,
  type SecurityColumns,
} from '../../engine/deployments/charger-security.ts';

const P1 = 'First-Passw0rd-00001';
const P2 = 'Second-Passw0rd-0002';
const P3 = 'Third-Passw0rd-000003';

describe(`credential changes through the engine (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let csms: StrictCsms;
  let accepted = new Set([P1]);
  const sent: Array<string | undefined> = [];

  before(async () => {
    [svc, csms] = await Promise.all([
      startTestService(),
      startStrictCsms({
        auth: (_id, password) => {
          sent.push(password);
          return password !== undefined && accepted.has(password);
        },
      }),
    ]);
    as = svc.as('org-change');
  });
  after(async () => {
    await svc.close();
    await csms.close();
  });

  const connections = () => csms.received.filter((r) => r.action === 'BootNotification').length;
  async function reconnect(): Promise<void> {
    const n = sent.length;
    await csms.clients.get('CHG-1')!.close({ code: 1001, force: true });
    await csms.waitFor(() => sent.length > n && csms.clients.has('CHG-1'), 15_000);
  }

  test('update() seals the new password into the row and the next connection uses it', async () => {
    const res = await as('POST', '/evcharger/deployment', {
      body: {
        identity: 'CHG-1',
        model: DUAL_MODEL,
        ws_url: csms.url,
        security: { profile: 1, password: P1 },
      },
    });
    assert.equal(res.status, 201, res.text);
    await csms.waitFor(() => connections() > 0);
    const id = res.body.deployment_id;

    accepted = new Set([P2]);
    assert.equal(await svc.service.deps.deployments.credentials.update(id, 1, { password: P2 }), true);
    await reconnect();
    assert.equal(sent.at(-1), P2);
    const { rows } = await svc.service.platform.db.query<
      SecurityColumns & { security_sealed: string | null }
    >(`SELECT ${SECURITY_COLUMNS}, security_sealed FROM evc_deployments WHERE id = $1`, [id]);
    assert.deepEqual(securityView(rows[0]), { profile: 1, has_password: true, has_client_cert: false });
    assert.ok(!String(rows[0].security_sealed).includes(P2));
    assert.equal(
      await svc.service.deps.deployments.credentials.update('00000000-0000-0000-0000-000000000000', 1, {}),
      false,
    );
  });

  test('secrets written elsewhere (another node) are read again after the central system answers 401', async () => {
    const { rows } = await svc.service.platform.db.query<{ id: string }>(
      `SELECT id::text AS id FROM evc_deployments WHERE organization_id = 'org-change' AND identity = 'CHG-1'`,
    );
    const sealed = sealSecrets(svc.service.platform.secrets, 'org-change', 'CHG-1', 1, { password: P3 });
    await svc.service.platform.db.query('UPDATE evc_deployments SET security_sealed = $2 WHERE id = $1', [
      rows[0].id,
      sealed.sealed,
    ]);
    accepted = new Set([P3]);
    const n = sent.length;
    await csms.clients.get('CHG-1')!.close({ code: 1001, force: true });
    // First the cached password (refused), then the one read again.
    await csms.waitFor(() => csms.clients.has('CHG-1') && sent.at(-1) === P3, 20_000);
    assert.deepEqual(sent.slice(n), [P2, P3]);
    const events = await eventsOf(as, 'CHG-1');
    assert.ok(events.some((e) => e.code === 'HTTP_401'));
    await eventually(
      () => eventsOf(as, 'CHG-1'),
      (ev) => ev[0]?.stage === 'online',
    );
  });

  test('a sealed value that cannot be opened (SECRETS_KEY changed) fails the attempt with SETTINGS_UNAVAILABLE; the process lives on', async () => {
    const { rows } = await svc.service.platform.db.query<{ id: string }>(
      `SELECT id::text AS id FROM evc_deployments WHERE organization_id = 'org-change' AND identity = 'CHG-1'`,
    );
    const other = sealSecrets(createSecretBox('another-key'), 'org-change', 'CHG-1', 1, { password: P3 });
    await svc.service.platform.db.query('UPDATE evc_deployments SET security_sealed = $2 WHERE id = $1', [
      rows[0].id,
      other.sealed,
    ]);
    svc.service.deps.deployments.credentials.forget(rows[0].id);
    await csms.clients.get('CHG-1')!.close({ code: 1001, force: true });
    const events = await eventually(
      () => eventsOf(as, 'CHG-1'),
      (ev) => ev.some((e) => e.code === 'SETTINGS_UNAVAILABLE'),
    );
    assert.match(events.find((e) => e.code === 'SETTINGS_UNAVAILABLE')!.hint!, /could not be read/);
    assert.equal((await as('GET', '/evcharger/deployments')).status, 200);
  });
});
