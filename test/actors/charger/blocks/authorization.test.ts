// Authorization (blocks/authorization.ts): tokens presented at a connector, the cache, the list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, online } from '../charger-harness.ts';
import { anAuthorizeAnswer } from '../builders.ts';

for (const version of VERSIONS) {
  /** Online, LocalPreAuthorize on (the cache answers before the CSMS). */
  const charger = () =>
    online(version, {
      answers: { Authorize: () => anAuthorizeAnswer(version, 'Accepted') },
      input: { config: { LocalPreAuthorize: 'true' } },
    });

  test(`${version}: C01 a token the CSMS accepts arms the connector: Preparing until the cable comes`, () => {
    const h = charger();
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-1', commandId: 'a' });
    assert.equal(h.callsOf('Authorize').length, 1);
    assert.equal(h.connector(1).status, 'Preparing');
    assert.equal(h.results.at(-1)!.commandId, 'a');
    assert.equal(h.results.at(-1)!.ok, true);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    assert.equal(h.connector(1).status, 'Charging');
    h.finish();
  });

  test(`${version}: E07 the same token presented again stops its transaction`, () => {
    const h = charger();
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-1' });
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-1' });
    assert.equal(h.connector(1).status, 'Finishing');
    h.finish();
  });

  test(`${version}: C10/C12 a token the CSMS accepted once starts from the cache without asking again`, () => {
    const h = charger();
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-1' });
    h.send({ type: 'PLUG_IN', connectorId: 2 });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'CARD-1', commandId: 'b' });
    assert.equal(h.callsOf('Authorize').length, 1);
    assert.equal(h.connector(2).status, 'Charging');
    assert.deepEqual(h.results.at(-1)!.payload, { status: 'Accepted', source: 'cache' });
    h.finish();
  });

  test(`${version}: C14 a token Blocked in the local list is refused without asking the CSMS`, () => {
    const h = charger();
    const list = {
      version: 3,
      updateType: 'Full' as const,
      entries: [{ idTag: 'CARD-2', status: 'Blocked' }],
    };
    h.send({ type: 'SEND_LOCAL_LIST', list, commandId: 'c' });
    assert.equal(h.results.at(-1)!.ok, true);
    h.send({ type: 'PLUG_IN', connectorId: 1 });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-2', commandId: 'd' });
    assert.equal(h.callsOf('Authorize').length, 0);
    assert.equal(h.results.at(-1)!.ok, false);
    assert.equal(h.results.at(-1)!.error!.code, 'NOT_AUTHORIZED');
    assert.equal(h.connector(1).status, 'Preparing');
    h.finish();
  });

  test(`${version}: C11 CLEAR_CACHE empties the authorization cache`, () => {
    const h = charger();
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'CARD-1' });
    assert.notDeepEqual(h.ctx().authCache, {});
    h.send({ type: 'CLEAR_CACHE', commandId: 'e' });
    assert.deepEqual(h.ctx().authCache, {});
    assert.deepEqual(h.results.at(-1)!.payload, { status: 'Accepted' });
    h.finish();
  });

  test(`${version}: C11 ClearCache from the CSMS is Accepted`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall('ClearCache', {}), { status: 'Accepted' });
    h.finish();
  });

  test(`${version}: C01 a token the CSMS refuses is reported NOT_AUTHORIZED and arms nothing`, () => {
    const h = online(version, { answers: { Authorize: () => anAuthorizeAnswer(version, 'Invalid') } });
    h.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'NOPE', commandId: 'x' });
    assert.equal(h.results.at(-1)!.ok, false);
    assert.equal(h.results.at(-1)!.error!.code, 'NOT_AUTHORIZED');
    assert.equal(h.connector(1).status, 'Available');
    h.finish();
  });
}
