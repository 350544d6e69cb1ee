// The built-in central system requires credentials, issues them to the virtual chargers deployed
// without ws_url, hands re-issued ones over to them, and lets no organization take over another
// organization's charge point.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import {
  DUAL_MODEL,
  eventsOf,
  eventually,
  type As,
  type StageEventBody,
} from '../deployments/deployment-helpers.ts';
import { openSecrets } from '../../engine/deployments/charger-security.ts';

const onlineAt = (attempt: number) => (events: StageEventBody[]) =>
  events.some((e) => e.attempt === attempt && e.stage === 'online' && e.outcome === 'succeeded');

describe(`built-in central system credentials (${MODE})`, () => {
  let svc: TestService;
  let a: As;
  let b: As;
  let ocpp: string;
  let proxy: TcpProxy;

  before(async () => {
    svc = await startTestService();
    a = svc.as('org-a');
    b = svc.as('org-b');
    ocpp = svc.url.replace(/^http/, 'ws') + '/ocpp';
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(svc.url).port));
  });
  after(async () => {
    await proxy.close();
    await svc.close();
  });

  /** The HTTP status of a WebSocket upgrade as `identity` (101: it became a WebSocket). */
  function upgradeStatus(identity: string, password?: string): Promise<number> {
    const headers: Record<string, string> =
      password === undefined
        ? {}
        : { authorization: 'Basic ' + Buffer.from(`${identity}:${password}`).toString('base64') };
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${ocpp}/${identity}`, ['ocpp1.6'], { headers });
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.on('open', () => {
        resolve(101);
        ws.terminate();
      });
      ws.on('error', reject);
    });
  }

  /** The password sealed in the deployment row, opened with the service's own secret box. */
  async function sealedPassword(orgId: string, identity: string): Promise<string | undefined> {
    const { rows } = await svc.service.platform.db.query<{ security_sealed: string | null }>(
      'SELECT security_sealed FROM evc_deployments WHERE organization_id = $1 AND identity = $2',
      [orgId, identity],
    );
    const sealed = rows[0]?.security_sealed;
    return sealed ? openSecrets(svc.service.platform.secrets, orgId, identity, sealed).password : undefined;
  }

  async function deployBuiltIn(as: As, identity: string): Promise<string> {
    const res = await as('POST', '/evcharger/deployment', { body: { identity, model: DUAL_MODEL } });
    assert.equal(res.status, 201, res.text);
    await eventually(() => eventsOf(as, identity), onlineAt(1));
    return res.body.deployment_id;
  }

  test('E5 without ws_url issues credentials for the charge point and the charger connects with them', async () => {
    await deployBuiltIn(a, 'BI-ISSUED');
    const cp = await a('GET', '/cpo/charge-points/BI-ISSUED');
    assert.equal(cp.body.has_credentials, true);
    assert.equal(cp.body.is_online, true);
    const password = await sealedPassword('org-a', 'BI-ISSUED');
    assert.ok(password && password.length >= 16 && password.length <= 40);
    // Nobody else gets in as this charge point without its password.
    assert.equal(await upgradeStatus('BI-ISSUED'), 401);
    assert.equal(await upgradeStatus('BI-ISSUED', 'a-guessed-password-0000'), 401);
  });

  test('a re-issue through POST /cpo/charge-points/{id}/credentials hands the new password to the virtual charger', async () => {
    const deploymentId = await deployBuiltIn(a, 'BI-REISSUE');
    const before = await sealedPassword('org-a', 'BI-REISSUE');
    const issued = await a('POST', '/cpo/charge-points/BI-REISSUE/credentials');
    assert.equal(issued.status, 201);
    assert.notEqual(issued.body.password, before);
    assert.equal(await sealedPassword('org-a', 'BI-REISSUE'), issued.body.password);

    // Its next connection uses the new password: a restart comes online at the first try.
    const restart = await a('POST', '/evcharger/deployment-runtime-ops', {
      body: { action: 'restart', deployment_id: deploymentId },
    });
    assert.equal(restart.status, 202);
    const events = await eventually(() => eventsOf(a, 'BI-REISSUE'), onlineAt(2));
    assert.deepEqual(
      events.filter((e) => e.outcome === 'failed'),
      [],
    );
    assert.equal(await upgradeStatus('BI-REISSUE', before), 401, 'the previous password stops working');
  });

  test('deploying a virtual charger for a charge point registered with E22 issues it new credentials', async () => {
    const registered = await a('POST', '/cpo/charge-points', { body: { charge_point_id: 'BI-E22' } });
    assert.equal(registered.status, 201);
    const first = await a('POST', '/cpo/charge-points/BI-E22/credentials');
    await deployBuiltIn(a, 'BI-E22');
    assert.notEqual(await sealedPassword('org-a', 'BI-E22'), first.body.password);
    assert.equal(await upgradeStatus('BI-E22', first.body.password), 401);
  });

  describe("takeover of another organization's charge point", () => {
    before(async () => {
      await deployBuiltIn(a, 'TAKE-X');
    });

    test("E5 with ws_url at this service's own OCPP endpoint, for an identity another organization registered: 409", async () => {
      const port = new URL(svc.url).port;
      for (const wsUrl of [ocpp, `ws://localhost:${port}/ocpp`, `${ocpp}/`]) {
        const res = await b('POST', '/evcharger/deployment', {
          body: { identity: 'TAKE-X', model: DUAL_MODEL, ws_url: wsUrl },
        });
        assert.equal(res.status, 409, `${wsUrl}: ${res.text}`);
        assert.match(res.body.detail, /another organization/);
      }
      const located = await b('POST', '/evcharger/location', {
        body: { name: 'takeover', chargers: [{ identity: 'TAKE-X', model: DUAL_MODEL, ws_url: ocpp }] },
      });
      assert.equal(located.status, 202);
      const events = await eventually(
        () => eventsOf(b, 'TAKE-X'),
        (ev) => ev.some((e) => e.code === 'IDENTITY_REGISTERED_ELSEWHERE'),
      );
      assert.match(
        events.find((e) => e.code === 'IDENTITY_REGISTERED_ELSEWHERE')!.hint!,
        /another organization/,
      );
    });

    test('E5 reaching the endpoint under a name the service cannot recognize is refused at the upgrade (401); A keeps its charge point', async () => {
      const res = await b('POST', '/evcharger/deployment', {
        body: { identity: 'TAKE-X', model: DUAL_MODEL, ws_url: `ws://127.0.0.1:${proxy.port}/ocpp` },
      });
      assert.equal(res.status, 201, res.text);
      const events = await eventually(
        () => eventsOf(b, 'TAKE-X'),
        (ev) => ev.some((e) => e.code === 'HTTP_401'),
      );
      assert.ok(!events.some((e) => e.stage === 'online'), 'B never got online as X');
      const cp = await a('GET', '/cpo/charge-points/TAKE-X');
      assert.equal(cp.body.is_online, true);
      // A's charger was never replaced: it is still on its first attempt, online, with no failure.
      const own = await eventsOf(a, 'TAKE-X');
      assert.deepEqual(
        own.filter((e) => e.outcome === 'failed' || e.attempt !== 1),
        [],
      );
      assert.equal((await b('GET', '/cpo/charge-points/TAKE-X')).status, 404);
    });

    test('a raw client of another organization without the password gets 401 at the upgrade', async () => {
      assert.equal(await upgradeStatus('TAKE-X'), 401);
      assert.equal(await upgradeStatus('TAKE-X', 'org-b-does-not-know-it'), 401);
      assert.equal((await a('GET', '/cpo/charge-points/TAKE-X')).body.is_online, true);
    });
  });
});
