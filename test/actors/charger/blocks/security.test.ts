// Security (blocks/security.ts, blocks/certificates.ts) in the machine alone: what the charger
// answers, what it asks of the engine (`security.request`), when it reconnects and goes back, and
// that no secret enters its context or snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, harness, type Harness } from '../charger-harness.ts';
import { aConfigurationChange } from '../builders.ts';
import type { LinkSecurity } from '../../../../actors/charger/charger-ports.ts';

const PASSWORD = 'A-new-passw0rd-for-CP1';
const AUTH_KEY = { key: 'AuthorizationKey', component: 'SecurityCtrlr', variable: 'BasicAuthPassword' };

/** A charger online over a link that says how it authenticated; its security requests recorded. */
function onlineWith(version: (typeof VERSIONS)[number], security: LinkSecurity, url = 'ws://csms.test/ocpp') {
  const h = harness(version, { connect: 'manual', input: { url } });
  h.deploy();
  h.link.sendBack!({ type: 'link.open', security });
  h.tick(0);
  assert.equal(h.stage(), 'online');
  return { h, requests: h.securityRequests };
}

const statusOf = (answer: any) => answer.status ?? answer.setVariableResult[0].attributeStatus;

function reconnect(h: Harness, outcome: 'open' | 'HTTP_401', security?: LinkSecurity) {
  h.tick(2_000); // the reconnect back-off
  if (outcome === 'open') h.link.sendBack!({ type: 'link.open', ...(security ? { security } : {}) });
  else h.link.sendBack!({ type: 'link.failed', code: outcome, hint: 'refused' });
  h.tick(0);
}

const SP1: LinkSecurity = { profile: 1, password: true, clientCert: false };

for (const version of VERSIONS) {
  test(`${version}: A01 a new password: Accepted, ReconfigurationOfSecurityParameters, the engine seals it, the link drops and the new connection keeps it`, async () => {
    const { h, requests } = onlineWith(version, SP1);
    assert.equal(
      statusOf(await h.csmsCall(...aConfigurationChange(version, AUTH_KEY, PASSWORD))),
      'Accepted',
    );
    h.tick(0);
    assert.deepEqual(
      h.callsOf('SecurityEventNotification').map((c) => c.payload.type),
      ['ReconfigurationOfSecurityParameters'],
    );
    assert.deepEqual(requests, [{ identity: 'CP-TEST-1', op: 'apply', profile: 1, password: PASSWORD }]);
    assert.ok(
      !JSON.stringify(h.actor.getPersistedSnapshot()).includes(PASSWORD),
      'no secret in the snapshot',
    );
    h.tick(500);
    assert.equal(h.stage(), 'offline');
    reconnect(h, 'open', SP1);
    assert.equal(h.stage(), 'online');
    assert.equal(requests.at(-1)!.op, 'confirm');
    h.finish();
  });

  test(`${version}: A01 the first connection with the new password is refused: the change is forgotten (the engine restores the previous password)`, async () => {
    const { h, requests } = onlineWith(version, SP1);
    await h.csmsCall(...aConfigurationChange(version, AUTH_KEY, PASSWORD));
    h.tick(500);
    reconnect(h, 'HTTP_401');
    assert.deepEqual(
      requests.map((r) => r.op),
      ['apply'],
    );
    assert.equal(h.ctx().securityChange, undefined);
    reconnect(h, 'open', SP1);
    assert.deepEqual(
      requests.map((r) => r.op),
      ['apply'],
      'nothing to confirm',
    );
    h.finish();
  });

  test(`${version}: a password shorter than 16 characters or outside passwordString is Rejected`, async () => {
    const { h, requests } = onlineWith(version, SP1);
    for (const bad of ['too-short', 'spaces are not allowed here'])
      assert.equal(statusOf(await h.csmsCall(...aConfigurationChange(version, AUTH_KEY, bad))), 'Rejected');
    assert.deepEqual(requests, []);
    h.finish();
  });
}

test('ocpp1.6: SecurityProfile 2 moves the URL to wss:// and goes back to ws:// when the TLS connection fails', async () => {
  const { h, requests } = onlineWith('ocpp1.6', SP1, 'ws://csms.test:9000/ocpp');
  const change = (value: string) => h.csmsCall('ChangeConfiguration', { key: 'SecurityProfile', value });
  assert.equal((await change('0')).status, 'Rejected', 'never lowered');
  assert.equal((await change('3')).status, 'Rejected', 'no client certificate');
  assert.equal((await change('2')).status, 'Accepted');
  assert.equal(h.ctx().url, 'wss://csms.test:9000/ocpp');
  assert.deepEqual(requests[0], {
    identity: 'CP-TEST-1',
    op: 'apply',
    profile: 2,
    url: 'wss://csms.test:9000/ocpp',
  });
  h.tick(500);
  reconnect(h, 'HTTP_401');
  assert.equal(h.ctx().url, 'ws://csms.test:9000/ocpp');
  h.finish();
});

test('ocpp2.0.1: B09 SetNetworkProfile is Rejected below the current profile or with a scheme that does not match it', async () => {
  const { h } = onlineWith(
    'ocpp2.0.1',
    { profile: 2, password: true, clientCert: false },
    'wss://a.test/ocpp',
  );
  const set = (slot: number, url: string, securityProfile: number) =>
    h.csmsCall('SetNetworkProfile', {
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
  assert.equal((await set(1, 'ws://b.test/ocpp', 1)).status, 'Rejected');
  assert.equal((await set(1, 'ws://b.test/ocpp', 2)).status, 'Rejected');
  assert.equal((await set(1, 'wss://b.test/ocpp', 3)).status, 'Rejected', 'no client certificate');
  assert.equal((await set(1, 'wss://b.test/ocpp', 2)).status, 'Accepted');
  h.finish();
});

for (const version of VERSIONS)
  test(`${version}: A02 a CSR is asked of the engine, SignCertificate carries it; a certificate without a CSR waiting is Rejected`, async () => {
    const { h, requests } = onlineWith(version, SP1);
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    assert.equal((await h.csmsCall('CertificateSigned', { certificateChain: pem })).status, 'Rejected');
    const [action, payload] =
      version === 'ocpp1.6'
        ? ['ExtendedTriggerMessage', { requestedMessage: 'SignChargePointCertificate' }]
        : ['TriggerMessage', { requestedMessage: 'SignChargingStationCertificate' }];
    assert.equal((await h.csmsCall(action, payload)).status, 'Accepted');
    assert.equal(requests.at(-1)!.op, 'csr');
    h.send({
      type: 'security.csr',
      csr: '-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----',
    });
    h.tick(0);
    assert.match(h.callsOf('SignCertificate')[0].payload.csr, /CERTIFICATE REQUEST/);
    h.finish();
  });

for (const version of VERSIONS)
  test(`${version}: A04 a connection refused with HTTP 401 is reported as FailedToAuthenticateAtCsms once online again, with the time it happened`, () => {
    const { h } = onlineWith(version, SP1);
    h.send({ type: 'DISCONNECT' });
    h.tick(0);
    reconnect(h, 'HTTP_401');
    const at = new Date(h.clock.now()).toISOString();
    assert.equal(h.callsOf('SecurityEventNotification').length, 0, 'nothing can be sent while offline');
    reconnect(h, 'open', SP1);
    const events = h.callsOf('SecurityEventNotification');
    assert.deepEqual(
      events.map((c) => [c.payload.type, c.payload.timestamp]),
      [['FailedToAuthenticateAtCsms', at]],
    );
    h.finish();
  });
