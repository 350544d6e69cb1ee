// E22 charge point registration, credentials, and the read endpoints, with isolation between organizations.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { aChargePointId, aLocation } from './builders.ts';

describe('CPO charge points (E22)', () => {
  let svc: TestService;
  let a: ReturnType<TestService['as']>;
  let b: ReturnType<TestService['as']>;

  before(async () => {
    svc = await startTestService();
    a = svc.as('org-a');
    b = svc.as('org-b');
  });
  after(() => svc.close());

  test('E22 answers 201 with every field; the charge point starts offline', async () => {
    const location = (await a('POST', '/cpo/locations', { body: aLocation() })).body;
    const id = aChargePointId();
    const res = await a('POST', '/cpo/charge-points', {
      body: {
        charge_point_id: id,
        ocpp_version: 'ocpp1.6',
        charge_point_vendor: 'Acme',
        charge_point_model: 'Fast 50',
        location_id: location.id,
        coordinates: '52.3789,4.9004',
        floor_level: '-1',
        parking_restrictions: ['EV_ONLY'],
        capabilities: ['RFID_READER', 'REMOTE_START_STOP_CAPABLE'],
        max_power_kw: 50.5,
        connector_type: 'IEC_62196_T2_COMBO',
        connector_count: 2,
        accessibility: 'Public',
        image_url: 'https://img.example/cp.png',
      },
    });
    assert.equal(res.status, 201, res.text);
    const cp = res.body;
    assert.match(cp.id, /^[0-9a-f-]{36}$/);
    assert.equal(cp.organization_id, 'org-a');
    assert.equal(cp.charge_point_id, id);
    assert.equal(cp.is_online, false);
    assert.equal(cp.is_roaming, false);
    assert.equal(cp.use_status_notification_0, true);
    assert.equal(cp.revision, 1);
    assert.equal(cp.location_id, location.id);
    assert.equal(cp.max_power_kw, 50.5);
    assert.equal(cp.connector_count, 2);
    assert.deepEqual(cp.capabilities, ['RFID_READER', 'REMOTE_START_STOP_CAPABLE']);
    assert.deepEqual(cp.parking_restrictions, ['EV_ONLY']);
    for (const k of [
      'firmware_version',
      'last_heartbeat',
      'iccid',
      'imsi',
      'meter_type',
      'responded_at',
      'proxy_urls',
    ])
      assert.equal(cp[k], null, k);
    assert.equal(cp.has_credentials, false);
    const read = await a('GET', `/cpo/charge-points/${id}`);
    assert.deepEqual(read.body, cp);
  });

  test('E22 answers 409 when the OCPP identity is taken, in any organization', async () => {
    const id = aChargePointId();
    assert.equal((await a('POST', '/cpo/charge-points', { body: { charge_point_id: id } })).status, 201);
    for (const as of [a, b]) {
      const res = await as('POST', '/cpo/charge-points', { body: { charge_point_id: id } });
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, { detail: `Charge point identity '${id}' is already registered` });
    }
  });

  test('E22 answers 404 for a location of another organization', async () => {
    const location = (await b('POST', '/cpo/locations', { body: aLocation() })).body;
    const res = await a('POST', '/cpo/charge-points', {
      body: { charge_point_id: aChargePointId(), location_id: location.id },
    });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { detail: `Location ${location.id} not found` });
  });

  test('E22 answers 422 for a missing identity, a bad version, an identity with a slash', async () => {
    const missing = await a('POST', '/cpo/charge-points', { body: {} });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.detail[0].loc, ['body', 'charge_point_id']);
    assert.equal(missing.body.detail[0].type, 'missing');
    const version = await a('POST', '/cpo/charge-points', {
      body: { charge_point_id: aChargePointId(), ocpp_version: 'ocpp1.5' },
    });
    assert.equal(version.status, 422);
    assert.deepEqual(version.body.detail[0].loc, ['body', 'ocpp_version']);
    const slash = await a('POST', '/cpo/charge-points', { body: { charge_point_id: 'a/b' } });
    assert.equal(slash.status, 422);
  });

  test('E22 answers 401 without a bearer token', async () => {
    const res = await svc.request('POST', '/cpo/charge-points', {
      body: { charge_point_id: aChargePointId() },
    });
    assert.equal(res.status, 401);
    assert.equal(typeof res.body.detail, 'string');
  });

  test('credentials: 201 {username, password}; another organization gets 404 on every charge point route', async () => {
    const id = aChargePointId();
    await a('POST', '/cpo/charge-points', { body: { charge_point_id: id } });
    const creds = await a('POST', `/cpo/charge-points/${id}/credentials`);
    assert.equal(creds.status, 201);
    assert.equal(creds.body.username, id);
    assert.ok(creds.body.password.length >= 16 && creds.body.password.length <= 40);
    assert.equal((await a('GET', `/cpo/charge-points/${id}`)).body.has_credentials, true);
    const detail = { detail: `Charge point '${id}' not found` };
    for (const [method, path] of [
      ['GET', `/cpo/charge-points/${id}`],
      ['POST', `/cpo/charge-points/${id}/credentials`],
      ['POST', `/cpo/charge-points/${id}/reboot`],
      ['GET', `/cpo/charge-points/${id}/connectors`],
      ['GET', `/cpo/charge-points/${id}/sessions`],
    ]) {
      const res = await b(method, path);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.deepEqual(res.body, detail);
    }
  });

  test('connectors and sessions of a charge point that never connected are empty lists', async () => {
    const id = aChargePointId();
    await a('POST', '/cpo/charge-points', { body: { charge_point_id: id } });
    assert.deepEqual((await a('GET', `/cpo/charge-points/${id}/connectors`)).body, { items: [] });
    assert.deepEqual((await a('GET', `/cpo/charge-points/${id}/sessions`)).body, { items: [] });
  });

  test('E23 answers 409 when the charge point is not connected, 404 when unknown', async () => {
    const id = aChargePointId();
    await a('POST', '/cpo/charge-points', { body: { charge_point_id: id } });
    const res = await a('POST', `/cpo/charge-points/${id}/reboot`);
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { detail: `Charge point '${id}' is not connected to the central system` });
    const unknown = await a('POST', '/cpo/charge-points/NOPE-1/reboot');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { detail: "Charge point 'NOPE-1' not found" });
  });

  test('GET /cpo/operations/{tracking_id} answers 404 for an unknown id and 422 for a malformed one', async () => {
    const unknown = await a('GET', '/cpo/operations/5b0c1b7e-8d7e-4f43-9b8e-0d6f3d1c2a11');
    assert.equal(unknown.status, 404);
    assert.equal((await a('GET', '/cpo/operations/not-a-uuid')).status, 422);
  });
});
