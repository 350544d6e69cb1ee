// Local authorization list (blocks/local-list.ts): SendLocalList and GetLocalListVersion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VERSIONS, online } from '../charger-harness.ts';
import { aLocalList } from '../builders.ts';

for (const version of VERSIONS) {
  test(`${version}: D01 SendLocalList Full is Accepted`, async () => {
    const h = online(version);
    const answer = await h.csmsCall(
      ...aLocalList(version, { listVersion: 4, entries: [{ idTag: 'A', status: 'Accepted' }] }),
    );
    assert.deepEqual(answer, { status: 'Accepted' });
    assert.deepEqual(h.ctx().localList, { version: 4, tags: { A: 'Accepted' } });
    h.finish();
  });

  test(`${version}: D01 a Differential update must carry a newer version: VersionMismatch`, async () => {
    const h = online(version);
    await h.csmsCall(
      ...aLocalList(version, { listVersion: 4, entries: [{ idTag: 'A', status: 'Accepted' }] }),
    );
    const answer = await h.csmsCall(...aLocalList(version, { listVersion: 4, updateType: 'Differential' }));
    assert.deepEqual(answer, { status: 'VersionMismatch' });
    h.finish();
  });

  test(`${version}: D01 a Differential update adds and removes entries`, async () => {
    const h = online(version);
    await h.csmsCall(
      ...aLocalList(version, { listVersion: 1, entries: [{ idTag: 'A', status: 'Accepted' }] }),
    );
    const answer = await h.csmsCall(
      ...aLocalList(version, {
        listVersion: 2,
        updateType: 'Differential',
        entries: [{ idTag: 'A' }, { idTag: 'B', status: 'Blocked' }],
      }),
    );
    assert.deepEqual(answer, { status: 'Accepted' });
    assert.deepEqual(h.ctx().localList, { version: 2, tags: { B: 'Blocked' } });
    h.finish();
  });
}

test('ocpp1.6: D02 GetLocalListVersion answers the list version', async () => {
  const h = online('ocpp1.6');
  await h.csmsCall(
    ...aLocalList('ocpp1.6', { listVersion: 4, entries: [{ idTag: 'A', status: 'Accepted' }] }),
  );
  assert.deepEqual(await h.csmsCall('GetLocalListVersion', {}), { listVersion: 4 });
  h.finish();
});

test('ocpp2.0.1: D02 GetLocalListVersion answers the version number', async () => {
  const h = online('ocpp2.0.1');
  await h.csmsCall(
    ...aLocalList('ocpp2.0.1', { listVersion: 2, entries: [{ idTag: 'A', status: 'Accepted' }] }),
  );
  assert.deepEqual(await h.csmsCall('GetLocalListVersion', {}), { versionNumber: 2 });
  h.finish();
});

test('ocpp1.6: D02 with the local list disabled, GetLocalListVersion answers -1 and SendLocalList NotSupported', async () => {
  const h = online('ocpp1.6', { input: { config: { LocalAuthListEnabled: 'false' } } });
  assert.deepEqual(await h.csmsCall('GetLocalListVersion', {}), { listVersion: -1 });
  assert.deepEqual(await h.csmsCall(...aLocalList('ocpp1.6')), { status: 'NotSupported' });
  h.finish();
});

test('ocpp2.0.1: D01 with the local list disabled, SendLocalList is Failed', async () => {
  const h = online('ocpp2.0.1', { input: { config: { LocalAuthListEnabled: 'false' } } });
  assert.deepEqual(await h.csmsCall(...aLocalList('ocpp2.0.1')), { status: 'Failed' });
  h.finish();
});
