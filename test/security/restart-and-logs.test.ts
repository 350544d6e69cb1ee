// The service as a user runs it (a child process, LOG_LEVEL=trace): chargers with profiles 1, 2
// and 3 and one of the built-in central system come online, the process is killed with SIGKILL,
// and at the next start every one connects again with its sealed credentials. Nothing the
// process printed in either run (every log line, failures and refusals included) holds a secret.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startChildService, type ChildService } from '../support/child-service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { makeTestCertificates, type TestCertificates } from '../protocols/test-certificates.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from '../deployments/deployment-helpers.ts';

const PASSWORD_1 = 'Restart-Sp1-Passw0rd';
const PASSWORD_2 = 'Restart-Sp2-Passw0rd';
const WRONG = 'Wrong-Passw0rd-Logged';
let svc: ChildService;
let as: As;
let certs: TestCertificates;
let client: { cert: string; key: string };
let sp1: StrictCsms;
let sp2: StrictCsms;
let sp3: StrictCsms;

before(async () => {
  certs = await makeTestCertificates('RS-SP3');
  client = await certs.issueClient('RS-SP3');
  [sp1, sp2, sp3] = await Promise.all([
    startStrictCsms({ auth: (id, password) => id === 'RS-SP1' && password === PASSWORD_1 }),
    startStrictCsms({
      auth: (id, password) => id === 'RS-SP2' && password === PASSWORD_2,
      tls: { cert: certs.serverCert, key: certs.serverKey },
    }),
    startStrictCsms({
      tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true },
    }),
  ]);
  // Dev mode, as a user first runs it: the token is signed with the secret kept in DATA_DIR.
  svc = await startChildService({ LOG_LEVEL: 'trace' }, { devAuth: true });
  as = svc.as('org-rs');
});

after(async () => {
  await svc.close();
  await Promise.all([sp1.close(), sp2.close(), sp3.close()]);
});

const boots = (csms: StrictCsms, identity: string) =>
  csms.received.filter((r) => r.identity === identity && r.action === 'BootNotification').length;
const onlineAt = (attempt: number) => (events: Array<{ stage: string; attempt: number }>) =>
  events.some((e) => e.stage === 'online' && e.attempt === attempt);

test('credentials survive a SIGKILL: profiles 1, 2, 3 and the built-in central system connect again; no log line holds a secret', async () => {
  const deploy = async (body: Record<string, unknown>) => {
    const res = await as('POST', '/evcharger/deployment', { body: { model: DUAL_MODEL, ...body } });
    assert.equal(res.status, 201, res.text);
  };
  await deploy({ identity: 'RS-SP1', ws_url: sp1.url, security: { profile: 1, password: PASSWORD_1 } });
  await deploy({
    identity: 'RS-SP3',
    ocpp_version: 'ocpp2.0.1',
    ws_url: sp3.url,
    security: { profile: 3, ca_pem: certs.ca, client_cert_pem: client.cert, client_key_pem: client.key },
  });
  await deploy({ identity: 'RS-BUILTIN' });
  await deploy({ identity: 'RS-WRONG', ws_url: sp1.url, security: { profile: 1, password: WRONG } });
  const location = await as('POST', '/evcharger/location', {
    body: {
      name: 'restart site',
      chargers: [
        {
          identity: 'RS-SP2',
          model: DUAL_MODEL,
          ws_url: sp2.url,
          security: { profile: 2, password: PASSWORD_2, ca_pem: certs.ca },
        },
      ],
    },
  });
  assert.equal(location.status, 202, location.text);
  // A refused request carrying secrets is logged too.
  const refused = await as('POST', '/evcharger/deployment', {
    body: {
      identity: 'RS-BAD',
      model: DUAL_MODEL,
      ws_url: sp1.url,
      security: { profile: 2, password: WRONG },
    },
  });
  assert.equal(refused.status, 422);

  const csmsOf: Array<[StrictCsms, string]> = [
    [sp1, 'RS-SP1'],
    [sp2, 'RS-SP2'],
    [sp3, 'RS-SP3'],
  ];
  for (const [csms, identity] of csmsOf) await csms.waitFor(() => boots(csms, identity) > 0, 15_000);
  await eventually(() => eventsOf(as, 'RS-BUILTIN'), onlineAt(1));
  await eventually(
    () => eventsOf(as, 'RS-WRONG'),
    (ev) => ev.some((e) => e.code === 'HTTP_401'),
  );
  const before = new Map(csmsOf.map(([csms, id]) => [id, boots(csms, id)]));

  await svc.kill9();
  for (const [csms, identity] of csmsOf) await csms.waitFor(() => !csms.clients.has(identity), 10_000);
  await svc.restart();

  for (const [csms, identity] of csmsOf)
    await csms.waitFor(
      () => boots(csms, identity) > before.get(identity)! && csms.clients.has(identity),
      30_000,
    );
  await eventually(() => eventsOf(as, 'RS-BUILTIN'), onlineAt(2), 30_000);
  await svc.terminate();
  const output = svc.output();

  assert.match(output, /"level":10|"level":20/, 'trace and debug lines were printed');
  assert.match(output, /HTTP_401/, 'the refused connection was logged');
  const secrets = [
    PASSWORD_1,
    PASSWORD_2,
    WRONG,
    ...client.key
      .split('\n')
      .filter((l) => l && !l.startsWith('-----'))
      .map((l) => l.slice(0, 32)),
  ];
  for (const secret of secrets)
    assert.ok(!output.includes(secret), `the output holds a secret (${secret.slice(0, 6)}...)`);
  assert.ok(!/"password"\s*:\s*"(?!\[redacted\])/.test(output), 'a password field was logged');
});
