// Customer information (blocks/customer-information.ts; OCPP 2.0.1 N09 report, N10 clear).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_AC, T0, online, type Harness } from '../charger-harness.ts';
import { aLocalList, aRemoteStart } from '../builders.ts';

const token = (idToken: string) => ({ idToken, type: 'ISO14443' });

/** CustomerInformation, and the NotifyCustomerInformation parts that followed its answer. */
async function ask(h: Harness, request: object) {
  const before = h.calls.length;
  const answer = await h.csmsCall('CustomerInformation', {
    requestId: 5,
    report: true,
    clear: false,
    ...request,
  });
  const parts = h.callsSince(before).filter((c) => c.action === 'NotifyCustomerInformation');
  return {
    status: answer.status,
    parts: parts.map((c) => c.payload),
    data: parts.map((c) => c.payload.data).join(''),
  };
}

test('ocpp2.0.1: N09 CustomerInformation report by idToken: Accepted, then NotifyCustomerInformation with the local list, cache and running transaction', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall(
    ...aLocalList('ocpp2.0.1', { entries: [{ idTag: 'CUST-1', status: 'Accepted', group: 'FLEET' }] }),
  );
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  await h.csmsCall(...aRemoteStart('ocpp2.0.1', { idTag: 'CUST-1' }));
  const txId = h.connector(1).tx!.id!;
  const got = await ask(h, { idToken: token('CUST-1') });
  assert.equal(got.status, 'Accepted');
  assert.deepEqual(
    got.parts.map((p) => [p.requestId, p.seqNo, p.tbc ?? false, p.generatedAt]),
    [[5, 0, false, new Date(T0).toISOString()]],
  );
  assert.equal(
    got.data,
    [
      'idToken CUST-1: local list Accepted, group FLEET',
      `idToken CUST-1: transaction ${txId} on EVSE 1 since ${new Date(T0).toISOString()}, 0 Wh`,
    ].join('\n'),
  );
  h.finish();
});

test('ocpp2.0.1: N09 a customer the charger holds nothing of is reported as such (token, certificate, customer identifier)', async () => {
  const h = online('ocpp2.0.1');
  assert.equal((await ask(h, { idToken: token('NOBODY') })).data, 'idToken NOBODY: no information held');
  assert.equal(
    (await ask(h, { customerIdentifier: 'C-42' })).data,
    'customerIdentifier C-42: not known to the charger',
  );
  const cert = { hashAlgorithm: 'SHA256', issuerNameHash: 'a', issuerKeyHash: 'b', serialNumber: '1' };
  assert.equal(
    (await ask(h, { customerCertificate: cert })).data,
    'customerCertificate: the charger keeps no customer certificates',
  );
  h.finish();
});

test('ocpp2.0.1: N09 CustomerInformation naming no customer is Invalid and sends nothing', async () => {
  const h = online('ocpp2.0.1');
  assert.deepEqual(await ask(h, {}), { status: 'Invalid', parts: [], data: '' });
  h.finish();
});

test('ocpp2.0.1: N10 CustomerInformation clear forgets the token in the cache and the local list, and says so', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall(...aLocalList('ocpp2.0.1', { entries: [{ idTag: 'CUST-2', status: 'Accepted' }] }));
  h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CUST-3' });
  assert.equal(h.ctx().authCache['CUST-3'], 'Accepted');
  const cleared = await ask(h, { report: false, clear: true, idToken: token('CUST-2') });
  assert.deepEqual([cleared.status, cleared.data], ['Accepted', 'idToken CUST-2 cleared from: local list']);
  assert.equal(h.ctx().localList.tags['CUST-2'], undefined);
  const both = await ask(h, { report: true, clear: true, idToken: token('CUST-3') });
  assert.equal(
    both.data,
    'idToken CUST-3: authorization cache Accepted\nidToken CUST-3 cleared from: authorization cache',
  );
  assert.equal(h.ctx().authCache['CUST-3'], undefined);
  h.finish();
});

test('ocpp2.0.1: N09 a report longer than 512 characters goes in parts, seqNo from 0, tbc until the last', async () => {
  const h = online('ocpp2.0.1', { input: { model: { ...MODEL_AC, connector_count: 10 } } });
  // A reservation of the token on each of ten EVSEs makes a long report.
  for (let id = 1; id <= 10; id++)
    assert.equal(
      (
        await h.csmsCall('ReserveNow', {
          id,
          evseId: id,
          expiryDateTime: new Date(T0 + 3_600_000).toISOString(),
          idToken: token('CUST-LONG'),
        })
      ).status,
      'Accepted',
    );
  const got = await ask(h, { idToken: token('CUST-LONG') });
  assert.ok(got.parts.length >= 2);
  assert.deepEqual(
    got.parts.map((p) => [p.seqNo, p.tbc ?? false]),
    got.parts.map((_p, i) => [i, i < got.parts.length - 1]),
  );
  assert.ok(got.parts.every((p) => p.data.length <= 512));
  h.finish();
});
