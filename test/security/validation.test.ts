// E5 / E7 `security`: every rule answers 422 naming the field, and no 422 echoes a secret.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService, type TestResponse } from '../support/service.ts';
import { makeTestCertificates, type TestCertificates } from '../protocols/test-certificates.ts';
import { DUAL_MODEL, type As } from '../deployments/deployment-helpers.ts';
import {
  createCertificateAuthority,
  createCertificateRequest,
} from '../../engine/platform/certificates/x509.ts';
import { makeCrl } from '../support/test-crl.ts';

const PASSWORD = 'Sup3r-Secret-Passw0rd';
const WS = 'ws://127.0.0.1:9/ocpp';
const WSS = 'wss://127.0.0.1:9/ocpp';

interface Issue {
  loc: Array<string | number>;
  msg: string;
  type: string;
  input?: unknown;
}

describe(`E5 / E7 security validation (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let certs: TestCertificates;
  let client: { cert: string; key: string };
  /** Every secret a test sent: none may appear in any answer. */
  let secrets: string[];

  before(async () => {
    [svc, certs] = await Promise.all([startTestService(), makeTestCertificates('VAL-1')]);
    client = await certs.issueClient('VAL-1');
    as = svc.as('org-val');
    secrets = [PASSWORD, client.key, certs.otherClientKey, pemBody(client.key)];
  });
  after(() => svc.close());

  /** The base64 body of a PEM (what a partial echo would show). */
  function pemBody(pem: string): string {
    return pem.split('\n').slice(1, -2).join('').slice(0, 40);
  }

  async function deploy(security: unknown, extra: Record<string, unknown> = {}): Promise<TestResponse> {
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity: 'VAL-1', model: DUAL_MODEL, ws_url: WS, ...extra, security },
    });
    for (const s of secrets) assert.ok(!res.text.includes(s), `the answer echoes a secret: ${res.text}`);
    return res;
  }

  function issueAt(res: TestResponse, ...loc: Array<string | number>): Issue {
    assert.equal(res.status, 422, res.text);
    const issue = (res.body.detail as Issue[]).find((i) => i.loc.join('.') === ['body', ...loc].join('.'));
    assert.ok(issue, `no issue at ${loc.join('.')}: ${res.text}`);
    return issue;
  }

  test('profile must be 0, 1, 2 or 3', async () => {
    const issue = issueAt(await deploy({ profile: 4 }), 'security', 'profile');
    assert.equal(issue.input, 4);
    issueAt(await deploy({}), 'security', 'profile');
  });

  test('profiles 1 and 2 need a password', async () => {
    assert.equal(issueAt(await deploy({ profile: 1 }), 'security', 'password').type, 'missing');
    const p2 = await deploy({ profile: 2, ca_pem: certs.ca }, { ws_url: WSS });
    assert.equal(issueAt(p2, 'security', 'password').type, 'missing');
  });

  test('profile 3 needs both PEMs and takes no password', async () => {
    const res = await deploy(
      { profile: 3, password: PASSWORD, client_cert_pem: client.cert },
      { ws_url: WSS },
    );
    assert.equal(issueAt(res, 'security', 'client_key_pem').type, 'missing');
    const password = issueAt(res, 'security', 'password');
    assert.equal(password.type, 'extra_forbidden');
    assert.match(password.msg, /client certificate/);
  });

  test('profile 0 takes no secret', async () => {
    assert.equal(
      issueAt(await deploy({ profile: 0, password: PASSWORD }), 'security', 'password').type,
      'extra_forbidden',
    );
  });

  test('client certificates are profile 3 only', async () => {
    const res = await deploy(
      { profile: 2, password: PASSWORD, client_cert_pem: client.cert, client_key_pem: client.key },
      { ws_url: WSS },
    );
    issueAt(res, 'security', 'client_cert_pem');
    issueAt(res, 'security', 'client_key_pem');
  });

  test('the password follows OCPP: 16 to 40 characters of passwordString, never echoed', async () => {
    for (const [password, type] of [
      ['short-password1', 'string_too_short'],
      ['x'.repeat(41), 'string_too_long'],
      ['has spaces and ! marks', 'string_pattern_mismatch'],
      [1234567890123456, 'string_type'],
    ] as const) {
      secrets.push(String(password));
      const issue = issueAt(await deploy({ profile: 1, password }), 'security', 'password');
      assert.equal(issue.type, type);
      assert.equal(issue.input, '[redacted]');
    }
    // The bounds themselves pass.
    for (const password of ['a'.repeat(16), 'A1*-_=:+|@.'.padEnd(40, 'z')]) {
      const res = await deploy({ profile: 1, password }, { identity: `VAL-OK-${password.length}` });
      assert.equal(res.status, 201, res.text);
    }
  });

  test('profiles 2 and 3 need a wss:// ws_url, 0 and 1 a ws:// one', async () => {
    const p2 = issueAt(await deploy({ profile: 2, password: PASSWORD }), 'security', 'profile');
    assert.match(p2.msg, /wss:\/\//);
    assert.equal(p2.input, 2);
    const p3 = await deploy({ profile: 3, client_cert_pem: client.cert, client_key_pem: client.key });
    assert.match(issueAt(p3, 'security', 'profile').msg, /wss:\/\//);
    const p1 = issueAt(
      await deploy({ profile: 1, password: PASSWORD }, { ws_url: WSS }),
      'security',
      'profile',
    );
    assert.match(p1.msg, /ws:\/\//);
  });

  test('without ws_url (the built-in central system issues the credentials) no security is taken', async () => {
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity: 'VAL-BUILTIN', model: DUAL_MODEL, security: { profile: 1, password: PASSWORD } },
    });
    const issue = issueAt(res, 'security');
    assert.match(issue.msg, /built-in central system/);
    assert.deepEqual(issue.input, { profile: 1, has_password: true, has_client_cert: false });
    assert.ok(!res.text.includes(PASSWORD));
  });

  test('PEM must parse: CA, client certificate and key', async () => {
    const bad = await deploy(
      {
        profile: 3,
        ca_pem: 'not a certificate',
        client_cert_pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        client_key_pem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
      },
      { ws_url: WSS },
    );
    assert.match(issueAt(bad, 'security', 'ca_pem').msg, /no PEM certificate/);
    assert.match(issueAt(bad, 'security', 'client_cert_pem').msg, /does not parse/);
    assert.match(issueAt(bad, 'security', 'client_key_pem').msg, /does not parse/);
    assert.equal(issueAt(bad, 'security', 'client_key_pem').input, '[redacted]');
  });

  test('crl_pem must hold certificate revocation lists that parse; the input is not echoed', async () => {
    const notACrl = 'not-a-crl-but-a-Secret-7Qz';
    const garbage = '-----BEGIN X509 CRL-----\nQUFBQUFBQUFBQUFB\n-----END X509 CRL-----';
    secrets.push(notACrl, 'QUFBQUFBQUFBQUFB', pemBody(certs.ca));
    for (const [crl_pem, msg] of [
      [notACrl, /no PEM certificate revocation list \(-----BEGIN X509 CRL-----\)/],
      [certs.ca, /no PEM certificate revocation list/],
      [garbage, /certificate revocation list 1 of the PEM does not parse/],
    ] as const) {
      const issue = issueAt(await deploy({ profile: 1, password: PASSWORD, crl_pem }), 'security', 'crl_pem');
      assert.match(issue.msg, msg);
      assert.equal(issue.input, '[redacted]');
    }
    const bad = await deploy({ profile: 2, password: PASSWORD, crl_pem: garbage }, { ws_url: WSS });
    issueAt(bad, 'security', 'crl_pem');
  });

  test('crl_pem is taken at any profile, and reads do not show it', async () => {
    const ca = await createCertificateAuthority('validation CRL issuer');
    const crl = await makeCrl(ca, []);
    const res = await deploy({ profile: 0, crl_pem: `${crl}\n${crl}` }, { identity: 'VAL-CRL-0' });
    assert.equal(res.status, 201, res.text);
    const read = await as('GET', `/evcharger/deployments/${res.body.deployment_id}`);
    assert.deepEqual(read.body.security, { profile: 0, has_password: false, has_client_cert: false });
    assert.ok(!read.text.includes('X509 CRL'));
  });

  test('the key must be the private key of the certificate', async () => {
    const res = await deploy(
      { profile: 3, client_cert_pem: client.cert, client_key_pem: certs.otherClientKey },
      { ws_url: WSS },
    );
    const issue = issueAt(res, 'security', 'client_key_pem');
    assert.match(issue.msg, /not the private key of client_cert_pem/);
  });

  test('an encrypted private key is refused with a reason', async () => {
    const encrypted = (await import('node:crypto'))
      .createPrivateKey(client.key)
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass-phrase' })
      .toString();
    secrets.push(pemBody(encrypted));
    const res = await deploy(
      { profile: 3, client_cert_pem: client.cert, client_key_pem: encrypted },
      { ws_url: WSS },
    );
    assert.match(issueAt(res, 'security', 'client_key_pem').msg, /encrypted private keys are not supported/);
  });

  test('a certificate request is not a certificate', async () => {
    const { csrPem, keyPem } = await createCertificateRequest('VAL-1');
    secrets.push(pemBody(keyPem));
    const res = await deploy(
      { profile: 3, client_cert_pem: csrPem, client_key_pem: keyPem },
      { ws_url: WSS },
    );
    assert.match(issueAt(res, 'security', 'client_cert_pem').msg, /no PEM certificate/);
  });

  test('PEM fields are bounded, and an oversized key is not echoed', async () => {
    const huge = '-----BEGIN PRIVATE KEY-----\n' + 'A'.repeat(20_000) + '\n-----END PRIVATE KEY-----';
    secrets.push('A'.repeat(100));
    const res = await deploy(
      { profile: 3, ca_pem: 'C'.repeat(70_000), client_cert_pem: client.cert, client_key_pem: huge },
      { ws_url: WSS },
    );
    assert.equal(issueAt(res, 'security', 'ca_pem').type, 'string_too_long');
    const key = issueAt(res, 'security', 'client_key_pem');
    assert.equal(key.type, 'string_too_long');
    assert.equal(key.input, '[redacted]');
  });

  test('a secret under a misspelt field name is not echoed either', async () => {
    const res = await deploy({ profile: 1, password: PASSWORD, pasword: `${PASSWORD}-typo` });
    const issue = issueAt(res, 'security', 'pasword');
    assert.equal(issue.type, 'extra_forbidden');
    assert.equal(issue.input, '[redacted]');
    assert.ok(!res.text.includes('-typo'));
  });

  test('security that is not an object is not echoed', async () => {
    const res = await deploy(PASSWORD);
    assert.equal(issueAt(res, 'security').input, '[redacted]');
  });

  test('E7: the issue names the charger of the location, and echoes no secret', async () => {
    const res = await as('POST', '/evcharger/location', {
      body: {
        name: 'validation site',
        chargers: [
          {
            identity: 'VAL-L-1',
            model: DUAL_MODEL,
            ws_url: WS,
            security: { profile: 1, password: PASSWORD },
          },
          {
            identity: 'VAL-L-2',
            model: DUAL_MODEL,
            ws_url: WS,
            security: { profile: 2, password: PASSWORD },
          },
        ],
      },
    });
    const issue = issueAt(res, 'chargers', 1, 'security', 'profile');
    assert.match(issue.msg, /wss:\/\//);
    assert.ok(!res.text.includes(PASSWORD));
  });

  test('a malformed JSON body holding a secret is not echoed in the decode error', async () => {
    const res = await as('POST', '/evcharger/deployment', {
      raw: `{"identity": "VAL-1", "security": {"profile": 1, "password": ${PASSWORD}}}`,
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.detail[0].type, 'json_invalid');
    assert.ok(!res.text.includes(PASSWORD.slice(0, 6)), res.text);
  });
});
