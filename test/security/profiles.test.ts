// Security profiles 1-3 through the API (E5 and E7 `security`), against independent central
// systems: ocpp-rpc in strict mode requiring Basic auth (SP1), the same behind Node's TLS server
// with a CA made in the test (SP2), and requiring a client certificate of that CA (SP3).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { makeTestCertificates, type TestCertificates } from '../protocols/test-certificates.ts';
import {
  DUAL_MODEL,
  eventsOf,
  eventually,
  type As,
  type StageEventBody,
} from '../deployments/deployment-helpers.ts';

const VERSIONS = ['ocpp1.6', 'ocpp2.0.1'] as const;
type Version = (typeof VERSIONS)[number];
const short = (v: Version) => (v === 'ocpp1.6' ? '16' : '201');

/** One password per identity, 24 characters of OCPP's passwordString set. */
const passwordOf = (identity: string) => `pw-${identity}-0123456789abcdef`.slice(0, 24).padEnd(16, 'x');

const online = (events: StageEventBody[]) =>
  events.some((e) => e.stage === 'online' && e.outcome === 'succeeded');
const failureWith = (code: string) => (events: StageEventBody[]) =>
  events.find((e) => e.outcome === 'failed' && e.code === code);

describe(`security profiles through the API (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let certs: TestCertificates;
  let sp1: StrictCsms;
  let sp2: StrictCsms;
  let sp3: StrictCsms;
  /** Every password a central system was shown, per identity (what the charger sent). */
  const shown = new Map<string, Array<string | undefined>>();
  const checkPassword = (identity: string, password: string | undefined) => {
    shown.set(identity, [...(shown.get(identity) ?? []), password]);
    return password === passwordOf(identity);
  };

  before(async () => {
    certs = await makeTestCertificates('unused');
    [svc, sp1, sp2, sp3] = await Promise.all([
      startTestService(),
      startStrictCsms({ auth: checkPassword }),
      startStrictCsms({ auth: checkPassword, tls: { cert: certs.serverCert, key: certs.serverKey } }),
      startStrictCsms({
        tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true },
      }),
    ]);
    as = svc.as('org-sec');
  });
  after(async () => {
    await svc.close();
    await Promise.all([sp1.close(), sp2.close(), sp3.close()]);
  });

  /** A charger's E5/E7 fields for a profile, with its own password or client certificate. */
  async function chargerFor(profile: 1 | 2 | 3, identity: string, version: Version) {
    const base = { identity, model: DUAL_MODEL, ocpp_version: version };
    if (profile === 1)
      return { ...base, ws_url: sp1.url, security: { profile, password: passwordOf(identity) } };
    if (profile === 2)
      return {
        ...base,
        ws_url: sp2.url,
        security: { profile, password: passwordOf(identity), ca_pem: certs.ca },
      };
    const client = await certs.issueClient(identity);
    return {
      ...base,
      ws_url: sp3.url,
      security: { profile, ca_pem: certs.ca, client_cert_pem: client.cert, client_key_pem: client.key },
    };
  }

  const csmsOf = (profile: 1 | 2 | 3) => [sp1, sp2, sp3][profile - 1];

  async function assertBooted(profile: 1 | 2 | 3, identity: string, version: Version): Promise<void> {
    await eventually(() => eventsOf(as, identity), online);
    const csms = csmsOf(profile);
    const boot = await csms.waitFor(() =>
      csms.received.find((r) => r.identity === identity && r.action === 'BootNotification'),
    );
    assert.equal(boot.protocol, version);
    if (profile < 3) assert.equal(shown.get(identity)?.at(-1), passwordOf(identity));
    else assert.equal(shown.get(identity), undefined, 'profile 3 sends no Basic auth');
    assert.deepEqual(
      csms.schemaErrors.filter((e) => e.identity === identity),
      [],
    );
  }

  for (const version of VERSIONS)
    for (const profile of [1, 2, 3] as const)
      test(`E5 security profile ${profile} (${version}): the charger connects to a central system requiring it and boots`, async () => {
        const identity = `E5-SP${profile}-${short(version)}`;
        const res = await as('POST', '/evcharger/deployment', {
          body: await chargerFor(profile, identity, version),
        });
        assert.equal(res.status, 201, res.text);
        await assertBooted(profile, identity, version);
      });

  test('E7 a location whose chargers use profiles 1, 2 and 3 in both versions: every charger boots', async () => {
    const chargers = [];
    for (const version of VERSIONS)
      for (const profile of [1, 2, 3] as const)
        chargers.push(await chargerFor(profile, `E7-SP${profile}-${short(version)}`, version));
    const res = await as('POST', '/evcharger/location', {
      body: { name: 'secure site', chargers: chargers.map((c) => ({ ...c, brand_slug: 'abb' })) },
    });
    assert.equal(res.status, 202, res.text);
    for (const c of chargers) await assertBooted(c.security.profile as 1 | 2 | 3, c.identity, c.ocpp_version);
  });

  test('SP2 with a CA that did not sign the server certificate: TLS_ERROR in the stage events, hint naming ca_pem', async () => {
    const identity = 'SP2-WRONG-CA';
    const res = await as('POST', '/evcharger/deployment', {
      body: {
        identity,
        model: DUAL_MODEL,
        ws_url: sp2.url,
        security: { profile: 2, password: passwordOf(identity), ca_pem: certs.otherCa },
      },
    });
    assert.equal(res.status, 201, res.text);
    const failure = failureWith('TLS_ERROR')(
      await eventually(
        () => eventsOf(as, identity),
        (events) => !!failureWith('TLS_ERROR')(events),
      ),
    );
    assert.match(failure!.hint!, /security\.ca_pem/);
    assert.equal(shown.get(identity), undefined, 'no password was sent to an untrusted server');
  });

  test('SP3 with a client certificate of an unrelated CA: TLS_ERROR, hint naming client_cert_pem', async () => {
    const identity = 'SP3-OTHER-CA';
    const res = await as('POST', '/evcharger/deployment', {
      body: {
        identity,
        model: DUAL_MODEL,
        ocpp_version: 'ocpp2.0.1',
        ws_url: sp3.url,
        security: {
          profile: 3,
          ca_pem: certs.ca,
          client_cert_pem: certs.otherClientCert,
          client_key_pem: certs.otherClientKey,
        },
      },
    });
    assert.equal(res.status, 201, res.text);
    const failure = failureWith('TLS_ERROR')(
      await eventually(
        () => eventsOf(as, identity),
        (events) => !!failureWith('TLS_ERROR')(events),
      ),
    );
    assert.match(failure!.hint!, /client_cert_pem/);
    assert.equal(
      sp3.received.find((r) => r.identity === identity),
      undefined,
    );
  });

  test('a charger without security at a central system requiring a client certificate: TLS_ERROR, hint naming profile 3', async () => {
    const identity = 'SP3-NO-CERT';
    // No security at all: wss:// with the system's CAs, which do not include the test CA either.
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity, model: DUAL_MODEL, ws_url: sp3.url },
    });
    assert.equal(res.status, 201, res.text);
    const failure = failureWith('TLS_ERROR')(
      await eventually(
        () => eventsOf(as, identity),
        (events) => !!failureWith('TLS_ERROR')(events),
      ),
    );
    assert.match(failure!.hint!, /ca_pem|profile 3/);
  });

  test('SP1 with a wrong password: HTTP_401, hint saying how to give the right one', async () => {
    const identity = 'SP1-WRONG';
    const res = await as('POST', '/evcharger/deployment', {
      body: {
        identity,
        model: DUAL_MODEL,
        ws_url: sp1.url,
        security: { profile: 1, password: 'not-the-right-password' },
      },
    });
    assert.equal(res.status, 201, res.text);
    const failure = failureWith('HTTP_401')(
      await eventually(
        () => eventsOf(as, identity),
        (events) => !!failureWith('HTTP_401')(events),
      ),
    );
    assert.match(failure!.hint!, /refused the password/);
    assert.match(failure!.hint!, /security\.password/);
    assert.equal(shown.get(identity)?.[0], 'not-the-right-password');
  });

  test('no security at a central system requiring Basic auth: HTTP_401, hint naming the security object', async () => {
    const identity = 'SP1-NONE';
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity, model: DUAL_MODEL, ws_url: sp1.url },
    });
    assert.equal(res.status, 201, res.text);
    const failure = failureWith('HTTP_401')(
      await eventually(
        () => eventsOf(as, identity),
        (events) => !!failureWith('HTTP_401')(events),
      ),
    );
    assert.match(failure!.hint!, /has none/);
    assert.match(failure!.hint!, /security \{profile: 1, password\}/);
    assert.ok(
      shown.get(identity)?.every((p) => p === undefined),
      'it sent no password',
    );
  });
});
