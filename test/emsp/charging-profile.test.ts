// E26 PUT /ocpi/cpo/{version}/sessions/{session_id}/charging-profile: the ActiveChargingProfile
// callback to an eMSP partner and the outcome of that call.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startFakeOcpiPartner, type FakeOcpiPartner } from '../support/fake-ocpi-partner.ts';
import { EMSP_TEST_ENV, registerPartner, type Api } from './emsp-fixtures.ts';

const PROFILE = {
  start_date_time: '2026-05-01T10:00:00Z',
  charging_profile: {
    charging_rate_unit: 'W',
    start_date_time: '2026-05-01T10:00:00Z',
    duration: 3600,
    min_charging_rate: 1000.5,
    charging_profile_period: [
      { start_period: 0, limit: 11000 },
      { start_period: 1800, limit: 7400.5 },
    ],
  },
};

describe(`E26 ActiveChargingProfile callback (${MODE})`, () => {
  let svc: TestService;
  let emsp: FakeOcpiPartner;
  let api: Api;
  let partner: any;

  before(async () => {
    svc = await startTestService({ env: EMSP_TEST_ENV });
    emsp = await startFakeOcpiPartner();
    api = svc.as('e26-a');
    partner = await registerPartner(api, emsp, 'EMSP', { token: 'emsp-credentials' });
  });
  after(async () => {
    await emsp.close();
    await svc.close();
  });

  const send = (
    version: string,
    sessionId: string,
    partnerId: unknown,
    body: unknown = PROFILE,
    as: Api = api,
  ) =>
    as('PUT', `/ocpi/cpo/${version}/sessions/${sessionId}/charging-profile?partner_id=${partnerId}`, {
      body,
    });

  test('E26 sends the ActiveChargingProfile to the partner and answers 200 with the outcome', async () => {
    emsp.mode = 'accept';
    const before = emsp.received.length;
    const res = await send('221', 'sess-1', partner.id);
    assert.equal(res.status, 200, res.text);
    const { duration_ms, ...rest } = res.body;
    assert.equal(typeof duration_ms, 'number');
    assert.deepEqual(rest, {
      partner_id: partner.id,
      operation: 'ActiveChargingProfile',
      session_id: 'sess-1',
      result: 'ACCEPTED',
      response_result: 'Success',
      timeout: 300,
      http_status: 200,
      ocpi_status_code: 1000,
      error: null,
    });
    assert.equal(emsp.received.length, before + 1);
    const got = emsp.received.at(-1)!;
    assert.equal(got.method, 'PUT');
    assert.equal(got.path, '/ocpi/2.2.1/chargingprofiles/sess-1');
    assert.equal(got.headers.authorization, 'Token emsp-credentials');
    assert.equal(got.headers['x-correlation-id'], res.headers.get('x-request-id'));
    assert.ok(got.headers['x-request-id']);
    assert.deepEqual(got.body, PROFILE);
  });

  test('E26 answers 400 with the outcome when the partner answers OCPI status 2001', async () => {
    emsp.mode = 'ocpi2001';
    const res = await send('221', 'sess-2', partner.id);
    assert.equal(res.status, 400);
    assert.equal(
      res.body.detail,
      `partner '${partner.name}' (id ${partner.id}) rejected the charging profile of session sess-2: answered HTTP 200 with OCPI status 2001 'Invalid or missing parameters'`,
    );
  });

  test('E26 answers 502 when the partner answers HTTP 500', async () => {
    emsp.mode = 'http500';
    const res = await send('221', 'sess-3', partner.id);
    assert.equal(res.status, 502);
    assert.equal(
      res.body.detail,
      `Sending the charging profile of session sess-3 failed: partner '${partner.name}' (id ${partner.id}) answered HTTP 500 with OCPI status 3000 'Generic server error'`,
    );
  });

  test('E26 answers 504 when the partner does not answer in time', async () => {
    emsp.mode = 'hang';
    const res = await send('221', 'sess-4', partner.id);
    assert.equal(res.status, 504);
    assert.match(res.body.detail, /did not answer within 300 ms$/);
    emsp.mode = 'accept';
  });

  test('E26 answers 502 when the partner is unreachable', async () => {
    const gone = await startFakeOcpiPartner();
    const closed = await registerPartner(api, gone, 'EMSP');
    await gone.close();
    const res = await send('221', 'sess-5', closed.id);
    assert.equal(res.status, 502);
    assert.match(res.body.detail, /could not be reached \(ECONNREFUSED\)$/);
  });

  test("E26 answers 404 for an unknown partner, a CPO partner and another organization's partner", async () => {
    const unknown = await send('221', 'sess-6', 999999);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.detail, 'EMSP roaming partner 999999 not found for the organization');
    const cpo = await registerPartner(api, emsp, 'CPO');
    assert.equal((await send('221', 'sess-6', cpo.id)).status, 404);
    const other = svc.as('e26-b');
    const before = emsp.received.length;
    assert.equal((await send('221', 'sess-6', partner.id, PROFILE, other)).status, 404);
    assert.equal(emsp.received.length, before);
  });

  test("E26 answers 400 when the version differs from the partner's OCPI version", async () => {
    const res = await send('230', 'sess-7', partner.id);
    assert.equal(res.status, 400);
    assert.equal(
      res.body.detail,
      `partner '${partner.name}' (id ${partner.id}) speaks OCPI 2.2.1, not 2.3.0`,
    );
    const v230 = await registerPartner(api, emsp, 'EMSP', {
      ocpi_version: '2.3.0',
      endpoints: { chargingprofiles: `${emsp.url}/ocpi/2.3.0/chargingprofiles` },
    });
    const ok = await send('230', 'sess-7', v230.id);
    assert.equal(ok.status, 200);
    assert.equal(emsp.received.at(-1)!.path, '/ocpi/2.3.0/chargingprofiles/sess-7');
  });

  test('E26 answers 400 naming the missing endpoint for an EMSP partner registered without chargingprofiles', async () => {
    const bare = await registerPartner(api, emsp, 'EMSP', {
      endpoints: { tariffs: `${emsp.url}/ocpi/2.2.1/tariffs` },
    });
    const before = emsp.received.length;
    const res = await send('221', 'sess-9', bare.id);
    assert.equal(res.status, 400, res.text);
    assert.equal(
      res.body.detail,
      `partner '${bare.name}' (id ${bare.id}) has no chargingprofiles endpoint: register the partner ` +
        'with endpoints.chargingprofiles to send it charging profiles',
    );
    assert.equal(emsp.received.length, before, 'nothing was sent');
  });

  test('E26 answers 422 for a version other than 221 or 230, naming the allowed values', async () => {
    const res = await send('211', 'sess-8', partner.id);
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail, [
      {
        loc: ['path', 'version'],
        msg: "Input should be '221' or '230'",
        type: 'enum',
        input: '211',
        ctx: { expected: "'221' or '230'" },
      },
    ]);
  });

  test('E26 answers 422 for a missing partner_id and an invalid body, listed together', async () => {
    const res = await api('PUT', '/ocpi/cpo/221/sessions/sess-9/charging-profile', {
      body: {
        charging_profile: {
          charging_rate_unit: 'kW',
          duration: 1.5,
          charging_profile_period: [{ start_period: 0.5, limit: 'high' }, { limit: 10 }],
        },
      },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.detail.map((d: any) => [d.loc.join('.'), d.type]),
      [
        ['query.partner_id', 'missing'],
        ['body.start_date_time', 'missing'],
        ['body.charging_profile.charging_rate_unit', 'enum'],
        ['body.charging_profile.duration', 'int_type'],
        ['body.charging_profile.charging_profile_period.0.start_period', 'int_type'],
        ['body.charging_profile.charging_profile_period.0.limit', 'float_type'],
        ['body.charging_profile.charging_profile_period.1.start_period', 'missing'],
      ],
    );
    const notInt = await send('221', 'sess-9', 'abc');
    assert.deepEqual(notInt.body.detail[0].loc, ['query', 'partner_id']);
    assert.equal(notInt.body.detail[0].type, 'int_parsing');
    const badTime = await send('221', 'sess-9', partner.id, { ...PROFILE, start_date_time: 'tomorrow' });
    assert.deepEqual(badTime.body.detail[0].loc, ['body', 'start_date_time']);
    assert.equal(badTime.body.detail[0].type, 'datetime_parsing');
    const noBody = await api('PUT', `/ocpi/cpo/221/sessions/s/charging-profile?partner_id=${partner.id}`);
    assert.equal(noBody.status, 422);
  });
});
