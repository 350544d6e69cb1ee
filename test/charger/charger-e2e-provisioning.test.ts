// Provisioning end to end: stages, BootNotification answers, heartbeat (see e2e-suite.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ONLINE, VERSIONS, e2eSuite } from './e2e-suite.ts';

for (const version of VERSIONS)
  e2eSuite(version, 'provisioning', (e) => {
    test('B01 deploy walks every stage to online and reports each in order', async () => {
      const id = `${e.tag}-STAGES`;
      const c = e.deploy(id);
      await e.online(c);
      assert.deepEqual(c.stageLog(), ONLINE);
      assert.ok(
        c.stages.every((s) => s.identity === id && s.attempt === 1 && !Number.isNaN(Date.parse(s.at))),
      );
    });

    test('B01 the BootNotification carries the model, serial number and firmware', async () => {
      const id = `${e.tag}-BOOT`;
      await e.online(e.deploy(id));
      const [boot] = await e.waitReceived(id, 'BootNotification');
      if (e.v16)
        assert.deepEqual(boot.params, {
          chargePointVendor: 'EVSim',
          chargePointModel: 'AC-22-Twin',
          chargePointSerialNumber: `SN-${id}`,
          chargeBoxSerialNumber: `SN-${id}`,
          firmwareVersion: '1.2.3',
        });
      else
        assert.deepEqual(boot.params.chargingStation, {
          vendorName: 'EVSim',
          model: 'AC-22-Twin',
          serialNumber: `SN-${id}`,
          firmwareVersion: '1.2.3',
        });
    });

    test('G01 StatusNotification for every connector after boot (1.6: connector 0 is the charger)', async () => {
      const id = `${e.tag}-STATUS`;
      await e.online(e.deploy(id));
      const statuses = await e.waitReceived(id, 'StatusNotification', e.v16 ? 3 : 2);
      assert.deepEqual(
        statuses.map((s) =>
          e.v16 ? [s.params.connectorId, s.params.status] : [s.params.evseId, s.params.connectorStatus],
        ),
        e.v16
          ? [
              [0, 'Available'],
              [1, 'Available'],
              [2, 'Available'],
            ]
          : [
              [1, 'Available'],
              [2, 'Available'],
            ],
      );
    });

    test('B02 BootNotification Pending, then Accepted: nothing else is sent while pending', async () => {
      const id = `${e.tag}-PENDING`;
      e.bootPlan.set(id, ['Pending']);
      const c = e.deploy(id);
      await e.online(c);
      assert.deepEqual(c.stageLog(), [
        ...ONLINE.slice(0, 6),
        'registering:in_progress:BOOT_PENDING',
        'online:succeeded',
      ]);
      const actions = e.received(id).map((r) => r.action);
      assert.deepEqual(actions.slice(0, 2), ['BootNotification', 'BootNotification']);
    });

    test('B03 BootNotification Rejected is a failed registering stage, retried until Accepted', async () => {
      const id = `${e.tag}-REJECTED`;
      e.bootPlan.set(id, ['Rejected', 'Rejected']);
      const c = e.deploy(id);
      await e.online(c);
      assert.deepEqual(c.stageLog().slice(5), [
        'registering:in_progress',
        'registering:failed:BOOT_REJECTED',
        'registering:failed:BOOT_REJECTED',
        'online:succeeded',
      ]);
      assert.match(c.stages[6].hint!, /rejected/);
      assert.equal(e.received(id, 'BootNotification').length, 3);
    });

    test('G02 heartbeat at the interval the BootNotification answer gave', async () => {
      const id = `${e.tag}-HEARTBEAT`;
      e.intervals.set(id, 1);
      await e.online(e.deploy(id));
      const beats = await e.waitReceived(id, 'Heartbeat', 2, 5000);
      assert.deepEqual(beats[0].params, {});
      assert.ok(beats[1].at > beats[0].at);
    });
  });
