// Every OCPP 1.6 call a central system makes to a charger, answered end to end (e2e-calls.ts).
import assert from 'node:assert/strict';
import { callSuite, triggered, type Case } from './e2e-calls.ts';
import { MODEL } from './e2e-suite.ts';
import { createCertificateAuthority } from '../../engine/platform/certificates/x509.ts';

const TX_DEFAULT_6KW_16 = {
  connectorId: 1,
  csChargingProfiles: {
    chargingProfileId: 1,
    stackLevel: 0,
    chargingProfilePurpose: 'TxDefaultProfile',
    chargingProfileKind: 'Relative',
    chargingSchedule: { chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 6000 }] },
  },
};

const OCPP16: Case[] = [
  [
    'M05/M03 InstallCertificate CentralSystemRootCertificate Accepted, then GetInstalledCertificateIds lists it',
    async (e, id) => {
      const root = await createCertificateAuthority('CSMS Root 1.6');
      const certificateType = 'CentralSystemRootCertificate';
      assert.deepEqual(
        await e.call(id, 'InstallCertificate', { certificateType, certificate: root.certPem }),
        {
          status: 'Accepted',
        },
      );
      const listed = await e.call(id, 'GetInstalledCertificateIds', { certificateType });
      assert.equal(listed.status, 'Accepted');
      assert.equal(listed.certificateHashData.length, 1);
    },
  ],
  [
    'Reset Hard: SecurityEventNotification ResetOrReboot and StartupOfTheDevice once booted again',
    async (e, id, c) => {
      const boots = e.received(id, 'BootNotification').length;
      assert.deepEqual(await e.call(id, 'Reset', { type: 'Hard' }), { status: 'Accepted' });
      await e.waitReceived(id, 'BootNotification', boots + 1);
      await e.online(c);
      const events = await e.waitReceived(id, 'SecurityEventNotification', 2);
      assert.deepEqual(
        events.map((r) => r.params.type),
        ['ResetOrReboot', 'StartupOfTheDevice'],
      );
    },
  ],
  [
    'GetConfiguration answers the keys asked and names the unknown ones',
    async (e, id) => {
      assert.deepEqual(
        await e.call(id, 'GetConfiguration', {
          key: ['HeartbeatInterval', 'NumberOfConnectors', 'NoSuchKey'],
        }),
        {
          configurationKey: [
            { key: 'HeartbeatInterval', readonly: false, value: '300' },
            { key: 'NumberOfConnectors', readonly: true, value: '2' },
          ],
          unknownKey: ['NoSuchKey'],
        },
      );
    },
  ],
  [
    'ChangeConfiguration of a writable key is Accepted and GetConfiguration reads it back',
    async (e, id) => {
      assert.deepEqual(
        await e.call(id, 'ChangeConfiguration', { key: 'MeterValueSampleInterval', value: '30' }),
        {
          status: 'Accepted',
        },
      );
      const after = await e.call(id, 'GetConfiguration', { key: ['MeterValueSampleInterval'] });
      assert.equal(after.configurationKey[0].value, '30');
    },
  ],
  [
    'ChangeConfiguration of a read-only key is Rejected, of an unknown one NotSupported',
    async (e, id) => {
      assert.deepEqual(await e.call(id, 'ChangeConfiguration', { key: 'NumberOfConnectors', value: '5' }), {
        status: 'Rejected',
      });
      assert.deepEqual(await e.call(id, 'ChangeConfiguration', { key: 'Nope', value: '1' }), {
        status: 'NotSupported',
      });
    },
  ],
  [
    'C11 ClearCache is Accepted',
    async (e, id) => assert.deepEqual(await e.call(id, 'ClearCache', {}), { status: 'Accepted' }),
  ],
  [
    'D01/D02 SendLocalList Full is Accepted; GetLocalListVersion answers its version',
    async (e, id) => {
      assert.deepEqual(
        await e.call(id, 'SendLocalList', {
          listVersion: 4,
          updateType: 'Full',
          localAuthorizationList: [{ idTag: 'LOCAL-1', idTagInfo: { status: 'Accepted' } }],
        }),
        { status: 'Accepted' },
      );
      assert.deepEqual(await e.call(id, 'GetLocalListVersion', {}), { listVersion: 4 });
    },
  ],
  [
    'F06 TriggerMessage StatusNotification for connector 2: Accepted, then that StatusNotification',
    async (e, id, c) => {
      await e.quiet(c);
      assert.deepEqual(
        await e.call(id, 'TriggerMessage', { requestedMessage: 'StatusNotification', connectorId: 2 }),
        {
          status: 'Accepted',
        },
      );
      assert.equal((await triggered(e, id))[3].connectorId, 2);
    },
  ],
  [
    'F06 TriggerMessage Heartbeat: Accepted, then a Heartbeat',
    async (e, id) => {
      const beats = e.received(id, 'Heartbeat').length;
      assert.deepEqual(await e.call(id, 'TriggerMessage', { requestedMessage: 'Heartbeat' }), {
        status: 'Accepted',
      });
      await e.waitReceived(id, 'Heartbeat', beats + 1);
    },
  ],
  [
    'G03 ChangeAvailability Inoperative, then Operative: the connector says Unavailable, then Available',
    async (e, id) => {
      assert.deepEqual(await e.call(id, 'ChangeAvailability', { connectorId: 2, type: 'Inoperative' }), {
        status: 'Accepted',
      });
      await e.csms().waitFor(() => e.connectorStatuses(id, 2).at(-1) === 'Unavailable');
      assert.deepEqual(await e.call(id, 'ChangeAvailability', { connectorId: 2, type: 'Operative' }), {
        status: 'Accepted',
      });
      await e.csms().waitFor(() => e.connectorStatuses(id, 2).at(-1) === 'Available');
    },
  ],
  [
    'F05 UnlockConnector is Unlocked',
    async (e, id) =>
      assert.deepEqual(await e.call(id, 'UnlockConnector', { connectorId: 1 }), { status: 'Unlocked' }),
  ],
  [
    'K01/K08/K10 SetChargingProfile, GetCompositeSchedule with its limit, ClearChargingProfile',
    async (e, id) => {
      assert.deepEqual(await e.call(id, 'SetChargingProfile', TX_DEFAULT_6KW_16), { status: 'Accepted' });
      const composite = await e.call(id, 'GetCompositeSchedule', {
        connectorId: 1,
        duration: 3600,
        chargingRateUnit: 'W',
      });
      assert.equal(composite.status, 'Accepted');
      assert.deepEqual(composite.chargingSchedule.chargingSchedulePeriod, [{ startPeriod: 0, limit: 6000 }]);
      assert.deepEqual(await e.call(id, 'ClearChargingProfile', { id: 1 }), { status: 'Accepted' });
    },
  ],
  [
    "P01 DataTransfer for the charger's own vendor is Accepted and its data echoed",
    async (e, id) =>
      assert.deepEqual(
        await e.call(id, 'DataTransfer', { vendorId: MODEL.boot_vendor, messageId: 'echo', data: 'hi' }),
        {
          status: 'Accepted',
          data: 'hi',
        },
      ),
  ],
  [
    'P01 DataTransfer for a vendor the charger does not know is UnknownVendorId',
    async (e, id) =>
      assert.deepEqual(
        await e.call(id, 'DataTransfer', { vendorId: 'acme', messageId: 'echo', data: 'hi' }),
        {
          status: 'UnknownVendorId',
        },
      ),
  ],
  [
    'UpdateFirmware is answered with its empty confirmation (the update itself: charger-e2e-firmware)',
    async (e, id) =>
      assert.deepEqual(
        await e.call(id, 'UpdateFirmware', {
          location: 'http://127.0.0.1:9/fw/unreachable-1.0.0.bin',
          retrieveDate: new Date().toISOString(),
        }),
        {},
      ),
  ],
  [
    'B12 Reset Soft: Accepted, then the charger boots again and is online',
    async (e, id, c) => {
      const boots = e.received(id, 'BootNotification').length;
      assert.deepEqual(await e.call(id, 'Reset', { type: 'Soft' }), { status: 'Accepted' });
      await e.waitReceived(id, 'BootNotification', boots + 1);
      await e.online(c);
      assert.deepEqual(c.stageLog().slice(-2), ['registering:in_progress', 'online:succeeded']);
    },
  ],
];

callSuite('ocpp1.6', OCPP16);
