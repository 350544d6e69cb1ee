// OCPP 2.1 chargers at the built-in central system: one deployed through E5 (a catalog model that
// speaks 2.1, no ws_url) registers and boots over `ocpp2.1`; the CPO sends it a tariff through
// POST /cpo/charge-points/{id}/calls (I07) and reads it back (I09), and a DER control (R01-R03); a
// 2.1 call the charger has no feature for comes back as its NotSupported CALLERROR; a gallery
// template deploys as 2.1 (E7).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { DUAL_MODEL, eventually, type As } from '../deployments/deployment-helpers.ts';

const TARIFF = {
  tariffId: 'CPO-DEFAULT',
  currency: 'EUR',
  energy: { prices: [{ priceKwh: 0.39 }], taxRates: [{ type: 'VAT', tax: 19 }] },
  idleTime: { prices: [{ priceMinute: 0.1 }] },
};

describe('OCPP 2.1 chargers at the built-in central system', () => {
  let svc: TestService;
  let as: As;
  const identity = 'CP-21-LOOP';
  before(async () => {
    svc = await startTestService();
    as = svc.as('org-21');
    const created = await as('POST', '/evcharger/deployment', {
      body: { identity, model: DUAL_MODEL, ocpp_version: 'ocpp2.1' },
    });
    assert.equal(created.status, 201, created.text);
    await eventually(
      () => as('GET', `/cpo/charge-points/${identity}`),
      (r) => r.status === 200 && r.body.is_online === true && r.body.firmware_version !== null,
    );
  });
  after(() => svc.close());

  const send = (action: string, payload: object) =>
    as('POST', `/cpo/charge-points/${identity}/calls`, { body: { action, payload } });

  test('E5 ocpp2.1: the charger boots at the built-in central system over ocpp2.1', async () => {
    const cp = await as('GET', `/cpo/charge-points/${identity}`);
    assert.equal(cp.body.ocpp_version, 'ocpp2.1');
  });

  test('I07 I09 the CPO sends a default tariff through the calls endpoint and reads it back', async () => {
    const set = await send('SetDefaultTariff', { evseId: 0, tariff: TARIFF });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body, { action: 'SetDefaultTariff', response: { status: 'Accepted' } });
    const got = await send('GetTariffs', { evseId: 1 });
    assert.deepEqual(got.body.response, {
      status: 'Accepted',
      tariffAssignments: [{ tariffId: 'CPO-DEFAULT', tariffKind: 'DefaultTariff', evseIds: [0] }],
    });
    const cleared = await send('ClearTariffs', {});
    assert.deepEqual(cleared.body.response, {
      clearTariffsResult: [{ tariffId: 'CPO-DEFAULT', status: 'Accepted' }],
    });
  });

  test("I12 the built-in central system answers the final TransactionEvent with the charger's own total as totalCost", async () => {
    const set = await send('SetDefaultTariff', { evseId: 0, tariff: { ...TARIFF, tariffId: 'CPO-SESSION' } });
    assert.deepEqual(set.body.response, { status: 'Accepted' });
    const command = (kind: string, payload: object) =>
      as('POST', `/evcharger/commands/${kind}`, { body: { target: { identity }, payload } });
    assert.equal((await command('plug-in', { connector_id: 1 })).status, 202);
    assert.equal((await command('present-token', { id_tag: 'TAG-21', connector_id: 1 })).status, 202);
    await eventually(
      () => as('GET', `/cpo/charge-points/${identity}/ocpp-log`),
      (r) => (r.body.items ?? []).some((i: any) => i.action === 'TransactionEvent'),
    );
    assert.equal((await command('unplug', { connector_id: 1 })).status, 202);
    const items = (
      await eventually(
        () => as('GET', `/cpo/charge-points/${identity}/ocpp-log`),
        (r) =>
          (r.body.items ?? []).some(
            (i: any) =>
              i.type === 'CALL' && i.action === 'TransactionEvent' && i.frame[3].eventType === 'Ended',
          ),
      )
    ).body.items as any[];
    const ended = items.find(
      (i) => i.type === 'CALL' && i.action === 'TransactionEvent' && i.frame[3].eventType === 'Ended',
    );
    const answer = await eventually(
      async () =>
        ((await as('GET', `/cpo/charge-points/${identity}/ocpp-log`)).body.items as any[]).find(
          (i) => i.type === 'CALLRESULT' && i.message_id === ended.message_id,
        ),
      (r) => r !== undefined,
    );
    const total = ended.frame[3].costDetails.totalCost.total.inclTax;
    assert.equal(ended.frame[3].transactionInfo.tariffId, 'CPO-SESSION');
    assert.equal(answer.frame[2].totalCost, total);
  });

  test('K a 2.1 call the charger has no feature for comes back as its NotSupported CALLERROR', async () => {
    const res = await send('UsePriorityCharging', { transactionId: 'none', activate: true });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.error.code, 'NotSupported');
  });

  test('R01 R02 the CPO sets a DER control through the calls endpoint and gets it back', async () => {
    const control = {
      isDefault: true,
      controlId: 'CPO-LMD',
      controlType: 'LimitMaxDischarge',
      limitMaxDischarge: { priority: 1, pctMaxDischargePower: 40 },
    };
    const set = await send('SetDERControl', control);
    assert.deepEqual(set.body, { action: 'SetDERControl', response: { status: 'Accepted' } });
    const got = await send('GetDERControl', { requestId: 7, controlId: 'CPO-LMD' });
    assert.deepEqual(got.body.response, { status: 'Accepted' });
    const cleared = await send('ClearDERControl', { isDefault: true });
    assert.deepEqual(cleared.body.response, { status: 'Accepted' });
    const none = await send('GetDERControl', { requestId: 8 });
    assert.deepEqual(none.body.response, { status: 'NotFound' });
  });

  test('E7 a gallery template deploys as OCPP 2.1 once its ocpp_version says so', async () => {
    const list = await as('GET', '/evcharger/templates/locations?ocpp_version=ocpp2.0.1');
    const template = list.body.templates[0];
    const body = { ...template.body, name: 'Template as 2.1', ocpp_version: 'ocpp2.1' };
    body.charger_groups = body.charger_groups.map((g: any, i: number) => ({
      ...g,
      count: 1,
      identity_prefix: `T21-${i}-`,
    }));
    const res = await as('POST', '/evcharger/location', { body });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.body.failed, []);
    const first = `T21-0-001`;
    const cp = await eventually(
      () => as('GET', `/cpo/charge-points/${first}`),
      (r) => r.status === 200 && r.body.is_online === true,
    );
    assert.equal(cp.body.ocpp_version, 'ocpp2.1');
  });
});
