// Charger secrets are sealed at rest: no table of the database (deployment rows, their snapshots,
// stored location bodies and jobs, stage events) holds one in clear, no read answers one, and
// reads of a row's security say only what was given.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { makeTestCertificates, type TestCertificates } from '../protocols/test-certificates.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from '../deployments/deployment-helpers.ts';
import {
  SECURITY_COLUMNS,
  securityView,
  type SecurityColumns,
} from '../../engine/deployments/charger-security.ts';

const PASSWORD = 'At-Rest-Passw0rd-1234';

describe(`charger secrets at rest (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let certs: TestCertificates;
  let client: { cert: string; key: string };
  let sp1: StrictCsms;
  let sp3: StrictCsms;
  /** What must appear nowhere: the password, and pieces of the private key. */
  let secrets: string[];

  before(async () => {
    certs = await makeTestCertificates('REST-SP3');
    client = await certs.issueClient('REST-SP3');
    const keyLines = client.key.split('\n').filter((l) => l && !l.startsWith('-----'));
    secrets = [PASSWORD, ...keyLines.map((l) => l.slice(0, 32))];
    [svc, sp1, sp3] = await Promise.all([
      startTestService(),
      startStrictCsms({ auth: (_id, password) => password === PASSWORD }),
      startStrictCsms({
        tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true },
      }),
    ]);
    as = svc.as('org-rest');
    const e5 = await as('POST', '/evcharger/deployment', {
      body: {
        identity: 'REST-SP1',
        model: DUAL_MODEL,
        ws_url: sp1.url,
        security: { profile: 1, password: PASSWORD },
      },
    });
    assert.equal(e5.status, 201, e5.text);
    const e7 = await as('POST', '/evcharger/location', {
      body: {
        name: 'at rest',
        chargers: [
          {
            identity: 'REST-SP3',
            model: DUAL_MODEL,
            ws_url: sp3.url,
            security: {
              profile: 3,
              ca_pem: certs.ca,
              client_cert_pem: client.cert,
              client_key_pem: client.key,
            },
          },
          { identity: 'REST-PLAIN', model: DUAL_MODEL, ws_url: sp1.url.replace('127.0.0.1', 'localhost') },
          { identity: 'REST-BUILTIN', model: DUAL_MODEL },
        ],
      },
    });
    assert.equal(e7.status, 202, e7.text);
    for (const identity of ['REST-SP1', 'REST-SP3', 'REST-BUILTIN'])
      await eventually(
        () => eventsOf(as, identity),
        (ev) => ev.some((e) => e.stage === 'online'),
      );
    // Snapshots are written behind: wait until every charger's is stored.
    await eventually(
      async () =>
        (
          await svc.service.platform.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM evc_deployments WHERE organization_id = 'org-rest' AND snapshot IS NOT NULL`,
          )
        ).rows[0].n,
      (n) => n === 4,
    );
  });
  after(async () => {
    await svc.close();
    await Promise.all([sp1.close(), sp3.close()]);
  });

  test('no table holds a secret in clear (rows, snapshots, location bodies, jobs, events)', async () => {
    const db = svc.service.platform.db;
    const { rows: tables } = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    assert.ok(tables.some((t) => t.table_name === 'evc_deployments'));
    for (const { table_name } of tables) {
      const { rows } = await db.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${table_name}" t`,
      );
      for (const { row } of rows)
        for (const secret of secrets)
          assert.ok(!row.includes(secret), `${table_name} holds a secret: ${row.slice(0, 300)}`);
    }
  });

  test('the stored location body keeps only the public view of each security', async () => {
    const { rows } = await svc.service.platform.db.query<{
      body: { chargers: Array<{ security?: unknown }> };
    }>(`SELECT body FROM evc_locations WHERE organization_id = 'org-rest'`);
    assert.deepEqual(rows[0].body.chargers[0].security, {
      profile: 3,
      has_password: false,
      has_client_cert: true,
    });
  });

  test("a row's security reads as {profile, has_password, has_client_cert}", async () => {
    const { rows } = await svc.service.platform.db.query<SecurityColumns & { identity: string }>(
      `SELECT identity, ${SECURITY_COLUMNS} FROM evc_deployments WHERE organization_id = 'org-rest' ORDER BY identity`,
    );
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.identity, securityView(r)])), {
      'REST-BUILTIN': { profile: 1, has_password: true, has_client_cert: false },
      'REST-PLAIN': { profile: 0, has_password: false, has_client_cert: false },
      'REST-SP1': { profile: 1, has_password: true, has_client_cert: false },
      'REST-SP3': { profile: 3, has_password: false, has_client_cert: true },
    });
  });

  test('no read answers a secret: deployments list, stage events, charge points', async () => {
    const reads = [
      await as('GET', '/evcharger/deployments?limit=500'),
      await as('GET', '/evcharger/deployment-runtime-ops/events?limit=500'),
      await as('GET', '/cpo/charge-points/REST-BUILTIN'),
    ];
    for (const deployment of reads[0].body.items)
      reads.push(await as('GET', `/evcharger/deployments/${deployment.deployment_id}`));
    for (const res of reads) {
      assert.ok(res.status === 200 || res.status === 404, res.text);
      for (const secret of secrets) assert.ok(!res.text.includes(secret), res.text.slice(0, 300));
      assert.ok(!/password"\s*:\s*"/.test(res.text), 'a read answers a password field');
    }
  });
});
