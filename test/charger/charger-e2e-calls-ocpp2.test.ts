// Every OCPP 2.0.1 call a central system makes to a charger, answered end to end (e2e-calls.ts).
import assert from 'node:assert/strict';
import { MODEL, type Json } from './e2e-suite.ts';
import { callSuite, triggered, type Case } from './e2e-calls.ts';
import { createCertificateAuthority } from '../../engine/platform/certificates/x509.ts';

const TX_DEFAULT_6KW_2 = {
  evseId: 1,
  chargingProfile: {
    id: 1,
    stackLevel: 0,
    chargingProfilePurpose: 'TxDefaultProfile',
    chargingProfileKind: 'Relative',
    chargingSchedule: [
      { id: 1, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 6000 }] },
    ],
  },
};

const OCPP2: Case[] = [
  [
    'K11/K13 an external limit set through the API: NotifyChargingLimit; released: ClearedChargingLimit',
    async (e, id, c) => {
      c.actor.send({ type: 'EXTERNAL_LIMIT', connectorId: 1, source: 'EMS', limitW: 7000 });
      const [notify] = await e.waitReceived(id, 'NotifyChargingLimit', 1);
      assert.deepEqual([notify.params.chargingLimit.chargingLimitSource, notify.params.evseId], ['EMS', 1]);
      c.actor.send({ type: 'EXTERNAL_LIMIT', connectorId: 1, source: 'EMS', limitW: null });
      const [cleared] = await e.waitReceived(id, 'ClearedChargingLimit', 1);
      assert.deepEqual(cleared.params, { chargingLimitSource: 'EMS', evseId: 1 });
    },
  ],
  [
    'N04/N07 SetVariableMonitoring on EVSE 1 AvailabilityState: the plug-in raises NotifyEvent; N02 report, N05 level, N03 base, N06 clear',
    async (e, id, c) => {
      const state = { component: { name: 'EVSE', evse: { id: 1 } }, variable: { name: 'AvailabilityState' } };
      const set = await e.call(id, 'SetVariableMonitoring', {
        setMonitoringData: [{ ...state, type: 'Delta', value: 1, severity: 5 }],
      });
      assert.deepEqual(
        set.setMonitoringResult.map((r: Json) => [r.status, r.id]),
        [['Accepted', 1]],
      );
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      const [event] = await e.waitReceived(id, 'NotifyEvent', 1);
      assert.deepEqual(
        [event.params.eventData[0].trigger, event.params.eventData[0].actualValue],
        ['Delta', 'Occupied'],
      );
      await e.quiet(c);
      assert.deepEqual(await e.call(id, 'GetMonitoringReport', { requestId: 6 }), { status: 'Accepted' });
      const [report] = await e.waitReceived(id, 'NotifyMonitoringReport', 1);
      assert.equal(report.params.monitor[0].variableMonitoring[0].id, 1);
      assert.deepEqual(await e.call(id, 'SetMonitoringLevel', { severity: 3 }), { status: 'Accepted' });
      assert.deepEqual(await e.call(id, 'SetMonitoringBase', { monitoringBase: 'All' }), {
        status: 'Accepted',
      });
      assert.deepEqual(await e.call(id, 'ClearVariableMonitoring', { id: [1] }), {
        clearMonitoringResult: [{ id: 1, status: 'Accepted' }],
      });
    },
  ],
  [
    'N09/N10 CustomerInformation report and clear: Accepted, then NotifyCustomerInformation after the answer',
    async (e, id, c) => {
      await e.call(id, 'SendLocalList', {
        versionNumber: 1,
        updateType: 'Full',
        localAuthorizationList: [
          { idToken: { idToken: 'CUST-E2E', type: 'ISO14443' }, idTokenInfo: { status: 'Accepted' } },
        ],
      });
      await e.quiet(c);
      const request = {
        requestId: 12,
        report: true,
        clear: true,
        idToken: { idToken: 'CUST-E2E', type: 'ISO14443' },
      };
      assert.deepEqual(await e.call(id, 'CustomerInformation', request), { status: 'Accepted' });
      const [notify] = await e.waitReceived(id, 'NotifyCustomerInformation', 1);
      assert.deepEqual(
        [notify.params.requestId, notify.params.seqNo, notify.params.data],
        [12, 0, 'idToken CUST-E2E: local list Accepted\nidToken CUST-E2E cleared from: local list'],
      );
      assert.deepEqual(e.answerAndAfter(id, 'CustomerInformation').before, []);
      assert.deepEqual(
        await e.call(id, 'CustomerInformation', { requestId: 13, report: true, clear: false }),
        {
          status: 'Invalid',
        },
      );
    },
  ],
  [
    'E14 GetTransactionStatus: ongoingIndicator for a running transaction, nothing queued online',
    async (e, id, c) => {
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-E14' });
      const [started] = await e.waitReceived(id, 'TransactionEvent', 1);
      await e.quiet(c);
      const transactionId = started.params.transactionInfo.transactionId;
      assert.deepEqual(await e.call(id, 'GetTransactionStatus', { transactionId }), {
        messagesInQueue: false,
        ongoingIndicator: true,
      });
      assert.deepEqual(await e.call(id, 'GetTransactionStatus', {}), { messagesInQueue: false });
    },
  ],
  [
    'K09 GetChargingProfiles: Accepted, then ReportChargingProfiles per EVSE after the answer',
    async (e, id, c) => {
      await e.call(id, 'SetChargingProfile', TX_DEFAULT_6KW_2);
      await e.quiet(c);
      assert.deepEqual(await e.call(id, 'GetChargingProfiles', { requestId: 4, chargingProfile: {} }), {
        status: 'Accepted',
      });
      const [report] = await e.waitReceived(id, 'ReportChargingProfiles', 1);
      assert.deepEqual(
        [report.params.requestId, report.params.evseId, report.params.chargingLimitSource, report.params.tbc],
        [4, 1, 'CSO', undefined],
      );
      assert.equal(report.params.chargingProfile[0].id, 1);
      assert.deepEqual(e.answerAndAfter(id, 'GetChargingProfiles').before, []);
      assert.deepEqual(
        await e.call(id, 'GetChargingProfiles', {
          requestId: 5,
          chargingProfile: { chargingLimitSource: ['EMS'] },
        }),
        { status: 'NoProfiles' },
      );
    },
  ],
  [
    'M05/M03 InstallCertificate CSMSRootCertificate Accepted, then GetInstalledCertificateIds lists it',
    async (e, id) => {
      const root = await createCertificateAuthority('CSMS Root 2.0.1');
      const certificateType = 'CSMSRootCertificate';
      assert.deepEqual(
        await e.call(id, 'InstallCertificate', { certificateType, certificate: root.certPem }),
        {
          status: 'Accepted',
        },
      );
      const listed = await e.call(id, 'GetInstalledCertificateIds', { certificateType: [certificateType] });
      assert.equal(listed.status, 'Accepted');
      assert.equal(listed.certificateHashDataChain[0].certificateType, certificateType);
    },
  ],
  [
    'F06 TriggerMessage MeterValues on an EVSE with a transaction: MeterValues after the answer, no TransactionEvent',
    async (e, id, c) => {
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-F06' });
      await e.waitReceived(id, 'TransactionEvent', 1);
      await e.quiet(c);
      const events = e.received(id, 'TransactionEvent').length;
      assert.deepEqual(
        await e.call(id, 'TriggerMessage', { requestedMessage: 'MeterValues', evse: { id: 1 } }),
        { status: 'Accepted' },
      );
      const [mv] = await e.waitReceived(id, 'MeterValues', 1);
      assert.equal(mv.params.evseId, 1);
      await e.quiet(c);
      assert.equal(e.received(id, 'TransactionEvent').length, events);
    },
  ],
  [
    'B11 Reset Immediate during a transaction: the CALLRESULT, then TransactionEvent Ended, then the boot and the security events',
    async (e, id, c) => {
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-B11' });
      await e.waitReceived(id, 'TransactionEvent', 1);
      await e.quiet(c);
      const boots = e.received(id, 'BootNotification').length;
      assert.deepEqual(await e.call(id, 'Reset', { type: 'Immediate' }), { status: 'Accepted' });
      await e.waitReceived(id, 'BootNotification', boots + 1);
      await e.online(c);
      await e.waitReceived(id, 'SecurityEventNotification', 2);
      const { answer, later } = e.answerAndAfter(id, 'Reset');
      assert.deepEqual(answer?.[2], { status: 'Accepted' });
      const actions = later
        .filter((f) => f[0] === 2)
        .map((f) => (f[2] === 'TransactionEvent' ? `${f[2]} ${f[3].eventType}` : f[2]));
      assert.ok(actions.indexOf('TransactionEvent Ended') < actions.indexOf('BootNotification'));
      assert.deepEqual(actions.filter((a) => a === 'SecurityEventNotification').length, 2);
    },
  ],
  [
    'B06 GetVariables answers each variable, or why not',
    async (e, id) => {
      const got = await e.call(id, 'GetVariables', {
        getVariableData: [
          { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } },
          { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'Nope' } },
          { component: { name: 'NoSuchCtrlr' }, variable: { name: 'X' } },
        ],
      });
      assert.deepEqual(
        got.getVariableResult.map((r: Json) => [r.attributeStatus, r.attributeValue]),
        [
          ['Accepted', '300'],
          ['UnknownVariable', undefined],
          ['UnknownComponent', undefined],
        ],
      );
    },
  ],
  [
    'B05 SetVariables: writable Accepted, read-only Rejected',
    async (e, id) => {
      const set = await e.call(id, 'SetVariables', {
        setVariableData: [
          {
            component: { name: 'SampledDataCtrlr' },
            variable: { name: 'TxUpdatedInterval' },
            attributeValue: '30',
          },
          { component: { name: 'ChargingStation' }, variable: { name: 'Model' }, attributeValue: 'X' },
        ],
      });
      assert.deepEqual(
        set.setVariableResult.map((r: Json) => r.attributeStatus),
        ['Accepted', 'Rejected'],
      );
    },
  ],
  [
    'B07 GetBaseReport: Accepted, then NotifyReport after the answer, with the values set',
    async (e, id, c) => {
      await e.call(id, 'SetVariables', {
        setVariableData: [
          {
            component: { name: 'SampledDataCtrlr' },
            variable: { name: 'TxUpdatedInterval' },
            attributeValue: '30',
          },
        ],
      });
      await e.quiet(c);
      assert.deepEqual(await e.call(id, 'GetBaseReport', { requestId: 5, reportBase: 'FullInventory' }), {
        status: 'Accepted',
      });
      const reports = await e.csms().waitFor(() => {
        const r = e.received(id, 'NotifyReport').filter((x) => x.params.requestId === 5);
        return r.at(-1)?.params.tbc === false ? r : undefined;
      });
      // NotifyReport follows the CALLRESULT, never the other way round.
      assert.deepEqual(e.answerAndAfter(id, 'GetBaseReport').before, []);
      assert.ok(e.answerAndAfter(id, 'GetBaseReport').later.some((f) => f[2] === 'NotifyReport'));
      const data = reports.flatMap((r) => r.params.reportData);
      assert.ok(
        data.some(
          (d: Json) => d.component.name === 'SampledDataCtrlr' && d.variableAttribute[0].value === '30',
        ),
      );
    },
  ],
  [
    'B08 GetReport of a component: Accepted, then its NotifyReport',
    async (e, id) => {
      assert.deepEqual(
        await e.call(id, 'GetReport', {
          requestId: 6,
          componentVariable: [{ component: { name: 'AuthCacheCtrlr' } }],
        }),
        { status: 'Accepted' },
      );
      await e.csms().waitFor(() => e.received(id, 'NotifyReport').find((x) => x.params.requestId === 6));
    },
  ],
  [
    'C11 ClearCache is Accepted',
    async (e, id) => assert.deepEqual(await e.call(id, 'ClearCache', {}), { status: 'Accepted' }),
  ],
  [
    'D01/D02 SendLocalList Full is Accepted; GetLocalListVersion answers its version number',
    async (e, id) => {
      assert.deepEqual(
        await e.call(id, 'SendLocalList', {
          versionNumber: 2,
          updateType: 'Full',
          localAuthorizationList: [
            { idToken: { idToken: 'LOCAL-1', type: 'ISO14443' }, idTokenInfo: { status: 'Accepted' } },
          ],
        }),
        { status: 'Accepted' },
      );
      assert.deepEqual(await e.call(id, 'GetLocalListVersion', {}), { versionNumber: 2 });
    },
  ],
  [
    'F06 TriggerMessage StatusNotification for EVSE 2: Accepted, then that StatusNotification',
    async (e, id, c) => {
      await e.quiet(c);
      assert.deepEqual(
        await e.call(id, 'TriggerMessage', {
          requestedMessage: 'StatusNotification',
          evse: { id: 2, connectorId: 1 },
        }),
        { status: 'Accepted' },
      );
      assert.equal((await triggered(e, id))[3].evseId, 2);
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
    'G03 ChangeAvailability Inoperative, then Operative: the EVSE says Unavailable, then Available',
    async (e, id) => {
      assert.deepEqual(
        await e.call(id, 'ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 2 } }),
        {
          status: 'Accepted',
        },
      );
      await e.csms().waitFor(() => e.connectorStatuses(id, 2).at(-1) === 'Unavailable');
      assert.deepEqual(
        await e.call(id, 'ChangeAvailability', { operationalStatus: 'Operative', evse: { id: 2 } }),
        {
          status: 'Accepted',
        },
      );
      await e.csms().waitFor(() => e.connectorStatuses(id, 2).at(-1) === 'Available');
    },
  ],
  [
    'F05 UnlockConnector: Unlocked; an unknown EVSE is UnknownConnector',
    async (e, id) => {
      assert.deepEqual(await e.call(id, 'UnlockConnector', { evseId: 1, connectorId: 1 }), {
        status: 'Unlocked',
      });
      assert.deepEqual(await e.call(id, 'UnlockConnector', { evseId: 7, connectorId: 1 }), {
        status: 'UnknownConnector',
      });
    },
  ],
  [
    'K01/K08/K10 SetChargingProfile, GetCompositeSchedule with its limit, ClearChargingProfile',
    async (e, id) => {
      assert.deepEqual(await e.call(id, 'SetChargingProfile', TX_DEFAULT_6KW_2), { status: 'Accepted' });
      const composite = await e.call(id, 'GetCompositeSchedule', {
        evseId: 1,
        duration: 3600,
        chargingRateUnit: 'W',
      });
      assert.equal(composite.status, 'Accepted');
      assert.deepEqual(composite.schedule.chargingSchedulePeriod, [{ startPeriod: 0, limit: 6000 }]);
      assert.deepEqual(await e.call(id, 'ClearChargingProfile', { chargingProfileId: 1 }), {
        status: 'Accepted',
      });
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
    'I02 CostUpdated during a transaction is answered, and the charger keeps the total for it',
    async (e, id, c) => {
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-I02' });
      const [started] = await e.waitReceived(id, 'TransactionEvent', 1);
      const transactionId = started.params.transactionInfo.transactionId;
      assert.deepEqual(await e.call(id, 'CostUpdated', { totalCost: 4.2, transactionId }), {});
      assert.equal(c.ctx().costs?.[String(c.ctx().connectors[0].tx!.ref)]?.total, 4.2);
    },
  ],
  [
    'O01/O04/O05 SetDisplayMessage, GetDisplayMessages -> NotifyDisplayMessages after the answer, ClearDisplayMessage',
    async (e, id, c) => {
      const message = { id: 3, priority: 'AlwaysFront', message: { format: 'UTF8', content: 'Hello' } };
      assert.deepEqual(await e.call(id, 'SetDisplayMessage', { message }), { status: 'Accepted' });
      await e.quiet(c);
      assert.deepEqual(await e.call(id, 'GetDisplayMessages', { requestId: 8 }), { status: 'Accepted' });
      const [notify] = await e.waitReceived(id, 'NotifyDisplayMessages', 1);
      assert.deepEqual(notify.params, { requestId: 8, messageInfo: [message] });
      assert.deepEqual(e.answerAndAfter(id, 'GetDisplayMessages').before, []);
      assert.deepEqual(await e.call(id, 'ClearDisplayMessage', { id: 3 }), { status: 'Accepted' });
      assert.deepEqual(await e.call(id, 'GetDisplayMessages', { requestId: 9 }), { status: 'Unknown' });
    },
  ],
  [
    'B11 Reset Immediate: Accepted, then the charger boots again and is online',
    async (e, id, c) => {
      const boots = e.received(id, 'BootNotification').length;
      assert.deepEqual(await e.call(id, 'Reset', { type: 'Immediate' }), { status: 'Accepted' });
      await e.waitReceived(id, 'BootNotification', boots + 1);
      await e.online(c);
      assert.deepEqual(c.stageLog().slice(-2), ['registering:in_progress', 'online:succeeded']);
    },
  ],
];

callSuite('ocpp2.0.1', OCPP2);
