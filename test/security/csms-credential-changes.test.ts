// The central system changes a charger's credentials and security profile (OCPP 1.6 security
// whitepaper, 2.0.1 A01 / A05 / B09), against ocpp-rpc strict servers requiring Basic auth (and
// TLS with a CA made in the test): the charger answers, reports ReconfigurationOfSecurityParameters,
// reconnects with the new settings (sealed at rest, kept over a restart), and goes back to the
// previous ones when the new connection fails. No secret reaches the message log or a read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MODE,
  REAL_DATABASE_URL,
  createTestDatabase,
  dropTestDatabase,
  startTestService,
  type TestService,
} from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { makeTestCertificates, type TestCertificates } from '../protocols/test-certificates.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from '../deployments/deployment-helpers.ts';

const VERSIONS = ['ocpp1.6', 'ocpp2.0.1'] as const;
type Version = (typeof VERSIONS)[number];
const short = (v: Version) => (v === 'ocpp1.6' ? '16' : '201');

const OLD = (id: string) => `Old-${id}-passw0rd`.padEnd(20, 'x').slice(0, 40);
const NEW = (id: string) => `New-${id}-passw0rd`.padEnd(20, 'y').slice(0, 40);
const REFUSED = (id: string) => `Refused-${id}-pw`.padEnd(20, 'z').slice(0, 40);

/** The CSMS's call that sets a password, in the charger's version. */
function setPassword(version: Version, password: string): [string, object] {
  return version === 'ocpp1.6'
    ? ['ChangeConfiguration', { key: 'AuthorizationKey', value: password }]
    : [
        'SetVariables',
        {
          setVariableData: [
            {
              component: { name: 'SecurityCtrlr' },
              variable: { name: 'BasicAuthPassword' },
              attributeValue: password,
            },
          ],
        },
      ];
}

const statusOf = (version: Version, answer: any): string =>
  version === 'ocpp1.6' ? answer.status : answer.setVariableResult[0].attributeStatus;

describe(`the central system changes the charger's credentials (${MODE})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-sec-changes-'));
  let database: string | undefined;
  let svc: TestService;
  let as: As;
  let certs: TestCertificates;
  let sp1: StrictCsms;
  let sp2: StrictCsms;
  /** Passwords each central system takes, per identity; and every one it was shown. */
  const accepted = new Map<string, Set<string>>();
  const shown = new Map<string, Array<string | undefined>>();
  const auth = (identity: string, password: string | undefined) => {
    shown.set(identity, [...(shown.get(identity) ?? []), password]);
    return password !== undefined && (accepted.get(identity)?.has(password) ?? false);
  };
  const start = () => startTestService({ dataDir, ...(database ? { database } : {}) });

  before(async () => {
    if (REAL_DATABASE_URL) database = await createTestDatabase();
    certs = await makeTestCertificates('unused');
    [svc, sp1, sp2] = await Promise.all([
      start(),
      startStrictCsms({ auth }),
      startStrictCsms({ auth, tls: { cert: certs.serverCert, key: certs.serverKey } }),
    ]);
    as = svc.as('org-changes');
  });
  after(async () => {
    await svc.close();
    await Promise.all([sp1.close(), sp2.close()]);
    if (database) await dropTestDatabase(database);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function deploy(identity: string, version: Version, body: object = {}): Promise<string> {
    accepted.set(identity, new Set([OLD(identity)]));
    const res = await as('POST', '/evcharger/deployment', {
      body: {
        identity,
        model: DUAL_MODEL,
        ocpp_version: version,
        ws_url: sp1.url,
        security: { profile: 1, password: OLD(identity) },
        ...body,
      },
    });
    assert.equal(res.status, 201, res.text);
    // Online: the boot was answered and the statuses sent.
    await sp1.waitFor(() =>
      sp1.received.find((r) => r.identity === identity && r.action === 'StatusNotification'),
    );
    return res.body.deployment_id;
  }

  const boots = (csms: StrictCsms, identity: string) =>
    csms.received.filter((r) => r.identity === identity && r.action === 'BootNotification').length;

  for (const version of VERSIONS) {
    test(`${version}: A01 a new Basic auth password is answered Accepted, reported, and used from the next connection`, async () => {
      const identity = `PW-${short(version)}`;
      const id = await deploy(identity, version);
      accepted.get(identity)!.add(NEW(identity));
      const before = boots(sp1, identity);
      const [action, payload] = setPassword(version, NEW(identity));
      assert.equal(statusOf(version, await sp1.call(identity, action, payload)), 'Accepted');
      const event = await sp1.waitFor(() =>
        sp1.received.find((r) => r.identity === identity && r.action === 'SecurityEventNotification'),
      );
      assert.equal(event.params.type, 'ReconfigurationOfSecurityParameters');
      await sp1.waitFor(() => boots(sp1, identity) > before, 15_000);
      assert.equal(shown.get(identity)!.at(-1), NEW(identity));

      // Sealed at rest, never in the message log or a read.
      const { rows } = await svc.service.platform.db.query<{ security_sealed: string }>(
        'SELECT security_sealed FROM evc_deployments WHERE id = $1',
        [id],
      );
      assert.ok(!rows[0].security_sealed.includes(NEW(identity)));
      const log = await as('GET', `/evcharger/deployments/${id}/ocpp-log?limit=500`);
      assert.equal(log.status, 200, log.text);
      assert.ok(log.body.items.some((i: any) => i.action === action && i.direction === 'in'));
      assert.ok(!log.text.includes(NEW(identity)), 'the message log masks the password');
      const detail = await as('GET', `/evcharger/deployments/${id}`);
      assert.ok(!detail.text.includes(NEW(identity)));
      assert.deepEqual(detail.body.security, { profile: 1, has_password: true, has_client_cert: false });
      assert.deepEqual(
        sp1.schemaErrors.filter((e) => e.identity === identity),
        [],
      );
    });

    test(`${version}: A01 a password the central system then refuses: the charger goes back to the previous one`, async () => {
      const identity = `PW-BACK-${short(version)}`;
      await deploy(identity, version);
      const before = boots(sp1, identity);
      const [action, payload] = setPassword(version, REFUSED(identity));
      assert.equal(statusOf(version, await sp1.call(identity, action, payload)), 'Accepted');
      await sp1.waitFor(() => boots(sp1, identity) > before, 20_000);
      const tried = shown.get(identity)!;
      assert.ok(tried.includes(REFUSED(identity)), 'the new password was tried');
      assert.equal(tried.at(-1), OLD(identity), 'then the previous one');
      const events = await eventsOf(as, identity);
      assert.ok(events.some((e) => e.code === 'HTTP_401'));
      // A04: the refusal is reported once the charger is online again.
      const reported = await sp1.waitFor(() =>
        sp1.received.find(
          (r) =>
            r.identity === identity &&
            r.action === 'SecurityEventNotification' &&
            r.params.type === 'FailedToAuthenticateAtCsms',
        ),
      );
      assert.ok(!JSON.stringify(reported.params).includes(REFUSED(identity)));
    });

    test(`${version}: a password outside OCPP's passwordString (or shorter than 16) is Rejected and changes nothing`, async () => {
      const identity = `PW-BAD-${short(version)}`;
      await deploy(identity, version);
      for (const bad of ['short-pw', 'has spaces in it, 20+ chars']) {
        const [action, payload] = setPassword(version, bad);
        assert.equal(statusOf(version, await sp1.call(identity, action, payload)), 'Rejected');
      }
      assert.equal(boots(sp1, identity), 1);
    });
  }

  test('ocpp1.6: SecurityProfile may only be raised; 1 -> 2 to a central system without TLS fails and the charger goes back to profile 1', async () => {
    const identity = 'SP-UP-16';
    await deploy(identity, 'ocpp1.6');
    assert.equal(
      (await sp1.call(identity, 'ChangeConfiguration', { key: 'SecurityProfile', value: '0' })).status,
      'Rejected',
    );
    assert.equal(
      (await sp1.call(identity, 'ChangeConfiguration', { key: 'SecurityProfile', value: '3' })).status,
      'Rejected',
      'profile 3 needs a client certificate',
    );
    const before = boots(sp1, identity);
    assert.equal(
      (await sp1.call(identity, 'ChangeConfiguration', { key: 'SecurityProfile', value: '2' })).status,
      'Accepted',
    );
    await sp1.waitFor(() => boots(sp1, identity) > before, 20_000);
    const events = await eventsOf(as, identity);
    assert.ok(
      events.some((e) => e.code === 'TLS_ERROR' || e.code === 'WS_ERROR'),
      JSON.stringify(events),
    );
    const answer = await sp1.call(identity, 'GetConfiguration', { key: ['SecurityProfile'] });
    assert.equal(answer.configurationKey[0].value, '1');
  });

  const networkProfile = (slot: number, url: string, securityProfile: number) => ({
    configurationSlot: slot,
    connectionData: {
      ocppVersion: 'OCPP20',
      ocppTransport: 'JSON',
      ocppCsmsUrl: url,
      messageTimeout: 30,
      securityProfile,
      ocppInterface: 'Wired0',
    },
  });
  const priority = (value: string) => ({
    setVariableData: [
      {
        component: { name: 'OCPPCommCtrlr' },
        variable: { name: 'NetworkConfigurationPriority' },
        attributeValue: value,
      },
    ],
  });

  test('ocpp2.0.1: B09 SetNetworkProfile + NetworkConfigurationPriority move the charger to another TLS central system (profile 2)', async () => {
    const identity = 'NP-201';
    const other = await startStrictCsms({ auth, tls: { cert: certs.serverCert, key: certs.serverKey } });
    try {
      accepted.set(identity, new Set([OLD(identity)]));
      const res = await as('POST', '/evcharger/deployment', {
        body: {
          identity,
          model: DUAL_MODEL,
          ocpp_version: 'ocpp2.0.1',
          ws_url: sp2.url,
          security: { profile: 2, password: OLD(identity), ca_pem: certs.ca },
        },
      });
      assert.equal(res.status, 201, res.text);
      await sp2.waitFor(() =>
        sp2.received.find((r) => r.identity === identity && r.action === 'StatusNotification'),
      );
      const lower = await sp2.call(identity, 'SetNetworkProfile', networkProfile(1, sp1.url, 1));
      assert.equal(lower.status, 'Rejected', 'a lower security profile is refused');
      const set = await sp2.call(identity, 'SetNetworkProfile', networkProfile(1, other.url, 2));
      assert.equal(set.status, 'Accepted');
      const answer = await sp2.call(identity, 'SetVariables', priority('1,0'));
      assert.equal(answer.setVariableResult[0].attributeStatus, 'Accepted');
      await other.waitFor(() => boots(other, identity) > 0, 15_000);
      assert.equal(shown.get(identity)!.at(-1), OLD(identity));
      assert.deepEqual(other.schemaErrors, []);
      const detail = await as('GET', `/evcharger/deployments/${res.body.deployment_id}`);
      assert.deepEqual(detail.body.security, { profile: 2, has_password: true, has_client_cert: false });
    } finally {
      await other.close();
    }
  });

  test('ocpp2.0.1: B10 a network profile whose connection fails (server not trusted): back to the previous one', async () => {
    const identity = 'NP-BACK-201';
    await deploy(identity, 'ocpp2.0.1');
    assert.equal(
      (await sp1.call(identity, 'SetNetworkProfile', networkProfile(1, sp2.url, 2))).status,
      'Accepted',
    );
    const before = boots(sp1, identity);
    const answer = await sp1.call(identity, 'SetVariables', priority('1,0'));
    assert.equal(answer.setVariableResult[0].attributeStatus, 'Accepted');
    await sp1.waitFor(() => boots(sp1, identity) > before, 20_000);
    const events = await eventsOf(as, identity);
    assert.ok(
      events.some((e) => e.code === 'TLS_ERROR'),
      JSON.stringify(events),
    );
    assert.equal(boots(sp2, identity), 0);
    const get = await sp1.call(identity, 'GetVariables', {
      getVariableData: [
        { component: { name: 'SecurityCtrlr' }, variable: { name: 'SecurityProfile' } },
        { component: { name: 'SecurityCtrlr' }, variable: { name: 'BasicAuthPassword' } },
      ],
    });
    assert.equal(get.getVariableResult[0].attributeValue, '1');
    assert.equal(get.getVariableResult[1].attributeStatus, 'Rejected', 'the password is write-only');
  });

  test('a restart of the service keeps the passwords the central system set (sealed in the database)', async () => {
    const ids = ['PW-16', 'PW-201'];
    const before = new Map(ids.map((id) => [id, boots(sp1, id)]));
    await svc.close();
    svc = await start();
    as = svc.as('org-changes');
    for (const id of ids) {
      await sp1.waitFor(() => boots(sp1, id) > before.get(id)!, 20_000);
      assert.equal(shown.get(id)!.at(-1), NEW(id));
      accepted.get(id)!.delete(OLD(id));
    }
    await eventually(
      () => eventsOf(as, 'PW-16'),
      (ev) => ev[0]?.stage === 'online',
    );
  });
});
