// Security profiles 1-3 end to end: Basic auth, TLS server certificates, client certificates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startStrictCsms } from '../support/strict-csms.ts';
import { makeTestCertificates } from '../protocols/test-certificates.ts';
import { VERSIONS, e2eSuite } from './e2e-suite.ts';

for (const version of VERSIONS)
  e2eSuite(version, 'security profiles', (e) => {
    test('security profile 1: Basic auth with the password from connectionSettings', async () => {
      const id = `${e.tag}-AUTH`;
      e.passwords.set(id, 's3cret-password-1');
      e.settings.set(id, { password: 's3cret-password-1' });
      const c = e.deploy(id);
      await e.online(c);
      assert.ok(
        !JSON.stringify(c.actor.getPersistedSnapshot()).includes('s3cret'),
        'no secret in the snapshot',
      );
    });

    test('security profile 1: a wrong password is a failed connecting stage, HTTP_401', async () => {
      const wrong = `${e.tag}-AUTH-WRONG`;
      e.passwords.set(wrong, 'right-password-00');
      e.settings.set(wrong, { password: 'wrong-password-00' });
      const w = e.deploy(wrong);
      const failed = await w.until(() => w.stages.find((s) => s.outcome === 'failed'));
      assert.equal(failed.stage, 'connecting');
      assert.equal(failed.code, 'HTTP_401');
      assert.match(failed.hint!, /password/);
      w.stop();
    });

    test('security profile 2: Basic auth over wss:// with the server certificate checked', async () => {
      const id = `${e.tag}-TLS-BASIC`;
      const certs = await makeTestCertificates(id);
      const tls = await startStrictCsms({
        protocols: [version],
        tls: { cert: certs.serverCert, key: certs.serverKey },
        auth: (identity, password) => identity === id && password === 'profile-2-password',
      });
      try {
        e.settings.set(id, { password: 'profile-2-password', tls: { ca: certs.ca } });
        const c = e.deploy(id, { url: tls.url });
        await e.online(c);
        c.stop();
        // Without the CA the charger refuses the server's certificate.
        const untrusted = `${e.tag}-TLS-UNTRUSTED`;
        e.settings.set(untrusted, { password: 'profile-2-password' });
        const u = e.deploy(untrusted, { url: tls.url });
        const failed = await u.until(() => u.stages.find((s) => s.outcome === 'failed'));
        assert.equal(failed.code, 'TLS_ERROR');
        u.stop();
        assert.deepEqual(tls.schemaErrors, []);
      } finally {
        await tls.close();
      }
    });

    test('security profile 3: TLS client certificate over wss://', async () => {
      const id = `${e.tag}-TLS`;
      const certs = await makeTestCertificates(id);
      const tls = await startStrictCsms({
        protocols: [version],
        tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true },
      });
      try {
        e.settings.set(id, { tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } });
        const c = e.deploy(id, { url: tls.url });
        await e.online(c);
        await tls.waitFor(() =>
          tls.received.find((r) => r.identity === id && r.action === 'StatusNotification'),
        );
        c.stop();
        assert.deepEqual(tls.schemaErrors, []);
      } finally {
        await tls.close();
      }
    });
  });
