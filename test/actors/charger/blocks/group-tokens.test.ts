// Group tokens (blocks/authorization.ts, blocks/local-list.ts): 1.6 parentIdTag / 2.0.1 C09
// groupIdToken in the local list and the authorization cache; a token of the starter's group stops
// a transaction, offline too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, harness, online, type Harness } from '../charger-harness.ts';
import { aLocalList, anAuthorizeAnswer } from '../builders.ts';
import type { OcppVersion } from '../../../../actors/charger/charger-ports.ts';

/** PRESENT_TOKEN; returns the command's result. */
function present(h: Harness, connectorId: number, idTag: string) {
  const commandId = `present-${h.results.length}-${idTag}`;
  h.send({ type: 'PRESENT_TOKEN', connectorId, idTag, commandId });
  return h.results.find((r) => r.commandId === commandId);
}

/** The queued end message's token (1.6 StopTransaction idTag, 2.0.1 TransactionEvent Ended idToken). */
function endToken(h: Harness): string | undefined {
  const end = h
    .ctx()
    .outbox.find(
      (o) =>
        o.action === 'StopTransaction' ||
        (o.action === 'TransactionEvent' && o.payload.eventType === 'Ended'),
    );
  return h.version === 'ocpp1.6' ? (end?.payload.idTag as string) : (end?.payload.idToken as any)?.idToken;
}

/** Online with a local list of FLEET cards and one OTHER card; a session of CARD-A on connector 1; then offline. */
async function offlineSession(version: OcppVersion): Promise<Harness> {
  const h = harness(version, { connect: 'manual' });
  h.deploy();
  h.link.sendBack!({ type: 'link.open' });
  await h.csmsCall(
    ...aLocalList(version, {
      entries: [
        { idTag: 'CARD-A', status: 'Accepted', group: 'FLEET' },
        { idTag: 'CARD-B', status: 'Accepted', group: 'FLEET' },
        { idTag: 'CARD-C', status: 'Accepted', group: 'OTHER' },
        { idTag: 'CARD-D', status: 'Blocked', group: 'FLEET' },
      ],
    }),
  );
  h.send({ type: 'PLUG_IN', connectorId: 1 });
  h.send({ type: 'DISCONNECT' });
  assert.equal(present(h, 1, 'CARD-A')?.ok, true);
  assert.equal(h.connector(1).status, 'Charging');
  return h;
}

for (const version of VERSIONS) {
  test(`${version}: C09 offline: a token of the starter's group in the local list stops the transaction, and the end message names it`, async () => {
    const h = await offlineSession(version);
    const r = present(h, 1, 'CARD-B');
    assert.deepEqual(r?.payload, { status: 'Accepted', stopped: true });
    assert.equal(h.connector(1).tx, undefined);
    assert.equal(endToken(h), 'CARD-B');
    assert.equal(h.callsOf('Authorize').length, 0);
    h.finish();
  });

  test(`${version}: C09 offline: a token of another group does not stop the transaction`, async () => {
    const h = await offlineSession(version);
    assert.equal(present(h, 1, 'CARD-C')?.error?.code, 'INVALID_STATE');
    assert.ok(h.connector(1).tx);
    h.finish();
  });

  test(`${version}: C09 offline: a Blocked token of the starter's group does not stop the transaction`, async () => {
    const h = await offlineSession(version);
    assert.equal(present(h, 1, 'CARD-D')?.error?.code, 'INVALID_STATE');
    assert.ok(h.connector(1).tx);
    h.finish();
  });

  test(`${version}: C09 offline: a token the charger knows nothing of does not stop the transaction`, async () => {
    const h = await offlineSession(version);
    assert.equal(present(h, 1, 'STRANGER')?.error?.code, 'INVALID_STATE');
    assert.ok(h.connector(1).tx);
    h.finish();
  });

  test(`${version}: C09 the groups the CSMS gives in Authorize answers are cached and used offline`, () => {
    const h = harness(version, {
      connect: 'manual',
      answers: { Authorize: () => anAuthorizeAnswer(version, 'Accepted', 'FLEET') },
    });
    h.deploy();
    h.link.sendBack!({ type: 'link.open' });
    present(h, 2, 'CARD-B'); // CARD-B is authorized (and cached with its group) at connector 2
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    present(h, 1, 'CARD-A');
    assert.ok(h.connector(1).tx);
    assert.deepEqual(h.ctx().authCacheGroups, { 'CARD-B': 'FLEET', 'CARD-A': 'FLEET' });
    h.send({ type: 'DISCONNECT' });
    assert.deepEqual(present(h, 1, 'CARD-B')?.payload, { status: 'Accepted', stopped: true });
    assert.equal(endToken(h), 'CARD-B');
    h.finish();
  });

  test(`${version}: C09 online: a token the charger does not know is asked about, and the CSMS's group decides`, () => {
    const groups: Record<string, string> = { 'CARD-A': 'FLEET', 'CARD-B': 'FLEET', 'CARD-C': 'OTHER' };
    const h = online(version, {
      answers: {
        Authorize: (p) => anAuthorizeAnswer(version, 'Accepted', groups[p.idTag ?? p.idToken.idToken]),
      },
    });
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    present(h, 1, 'CARD-A');
    assert.equal(present(h, 1, 'CARD-C')?.error?.code, 'INVALID_STATE');
    assert.ok(h.connector(1).tx);
    assert.deepEqual(present(h, 1, 'CARD-B')?.payload, { status: 'Accepted', stopped: true });
    assert.equal(h.callsOf('Authorize').length, 3);
    assert.equal(h.connector(1).tx, undefined);
    const end =
      version === 'ocpp1.6'
        ? h.callsOf('StopTransaction')[0].payload.idTag
        : h.callsOf('TransactionEvent').find((c) => c.payload.eventType === 'Ended')!.payload.idToken.idToken;
    assert.equal(end, 'CARD-B');
    h.finish();
  });

  test(`${version}: C11 ClearCache forgets the cached groups too`, async () => {
    const h = online(version, {
      answers: { Authorize: () => anAuthorizeAnswer(version, 'Accepted', 'FLEET') },
    });
    present(h, 1, 'CARD-A');
    assert.deepEqual(h.ctx().authCacheGroups, { 'CARD-A': 'FLEET' });
    await h.csmsCall('ClearCache', {});
    assert.equal(h.ctx().authCacheGroups, undefined);
    h.finish();
  });
}
