// The virtual charger end to end: chargers made by the engine runtime (real WebSocket, real RPC
// endpoint) against ocpp-rpc's RPCServer in strict mode, an implementation independent of ours
// that checks every message both ways against the official schemas.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { createChargerRuntime, type ChargerRuntime } from '../../engine/charger/charger-runtime.ts';
import type { ChargerConnectionSettings } from '../../engine/charger/charger-link.ts';
import type { ChargerInput, ChargerOcppVersion } from '../../actors/charger/charger-ports.ts';
import { startStrictCsms, type SchemaFailure, type StrictCsms } from '../support/strict-csms.ts';
import { makeTestCertificates } from '../protocols/test-certificates.ts';
import { track, type TrackedCharger } from './tracked-charger.ts';

const MODEL = {
  boot_vendor: 'EVSim',
  boot_model: 'AC-22-Twin',
  firmware_version: '1.2.3',
  connector_count: 2,
  max_power_kw: 22,
  current_type: 'AC' as const,
  connector_types: ['Type2', 'Type2'],
};

// Short enough for a fast suite, long enough that nothing races on a loaded machine.
const TIMINGS = { reconnectBaseMs: 100, reconnectMaxMs: 400, bootRetryDefaultSec: 0.2, rebootDelayMs: 50 };

const ONLINE = [
  'queued:in_progress',
  'scheduling:in_progress',
  'pulling:in_progress',
  'starting:in_progress',
  'connecting:in_progress',
  'registering:in_progress',
  'online:succeeded',
];

type Json = any;

/** The RPC error code of an ocpp-rpc rejection. */
const rpcCode = (e: Json): string => e?.rpcErrorCode ?? String(e);

for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const satisfies readonly ChargerOcppVersion[]) {
  const v16 = version === 'ocpp1.6';
  const tag = v16 ? 'V16' : 'V201';

  describe(`charger ${version} against a strict central system`, () => {
    let csms: StrictCsms;
    let runtime: ChargerRuntime;
    const schemaErrors: SchemaFailure[] = [];
    const chargers: TrackedCharger[] = [];
    /** BootNotification answers to give before Accepted, by identity. */
    const bootPlan = new Map<string, string[]>();
    /** BootNotification interval (= heartbeat) by identity; default 300. */
    const intervals = new Map<string, number>();
    /** Identities refused at the WebSocket upgrade (HTTP 401) for now. */
    const blocked = new Set<string>();
    const passwords = new Map<string, string>();
    const settings = new Map<string, ChargerConnectionSettings>();

    const startCsms = (port?: number) =>
      startStrictCsms({
        protocols: [version],
        ...(port ? { port } : {}),
        auth: (identity, password) =>
          !blocked.has(identity) && (!passwords.has(identity) || passwords.get(identity) === password),
        handlers: {
          BootNotification: (_params, client) => {
            const status = bootPlan.get(client.identity ?? '')?.shift() ?? 'Accepted';
            const interval = status === 'Accepted' ? (intervals.get(client.identity ?? '') ?? 300) : 0;
            return { status, currentTime: new Date().toISOString(), interval };
          },
        },
      });

    before(async () => {
      csms = await startCsms();
      runtime = createChargerRuntime({
        log: pino({ level: 'silent' }),
        defaultCsmsUrl: () => csms.url,
        connectionSettings: (identity) => settings.get(identity),
        callTimeoutMs: 3000,
        timings: TIMINGS,
      });
    });

    after(async () => {
      for (const c of chargers) c.stop();
      await csms.close();
    });

    /** Creates, starts and deploys a charger; it is stopped when the suite ends. */
    function deploy(identity: string, input: Partial<ChargerInput> = {}): TrackedCharger {
      const charger = track(
        runtime.create({ identity, version, model: MODEL, serialNumber: `SN-${identity}`, ...input }),
      );
      chargers.push(charger);
      charger.actor.start();
      charger.actor.send({ type: 'DEPLOY' });
      return charger;
    }

    /** The charger waits for no answer: whatever it sends next was caused by what comes next. */
    const quiet = (c: TrackedCharger) => c.until(() => Object.keys(c.ctx().calls).length === 0);
    const online = (c: TrackedCharger) => c.until(() => c.ctx().stage === 'online', 8000);
    const received = (identity: string, action?: string) =>
      csms.received.filter((r) => r.identity === identity && (!action || r.action === action));
    const waitReceived = (identity: string, action: string, count = 1, timeoutMs = 5000) =>
      csms.waitFor(() => {
        const calls = received(identity, action);
        return calls.length >= count ? calls : undefined;
      }, timeoutMs);

    /** Frames from the charger, parsed, in arrival order. */
    const fromCharger = (identity: string): Json[] =>
      csms.frames.filter((f) => f.identity === identity && !f.outbound).map((f) => JSON.parse(f.text));

    /**
     * The charger's frames around its answer to the CSMS's last CALL of `action`: `before` were
     * sent while the CALL waited for its answer, `later` after it (both in arrival order).
     */
    function answerAndAfter(
      identity: string,
      action: string,
    ): { before: Json[]; answer: Json; later: Json[] } {
      const frames = csms.frames
        .filter((f) => f.identity === identity)
        .map((f) => ({ outbound: f.outbound, frame: JSON.parse(f.text) }));
      const c = frames.findLastIndex((f) => f.outbound && f.frame[0] === 2 && f.frame[2] === action);
      const a = frames.findIndex(
        (f, i) => i > c && !f.outbound && f.frame[0] !== 2 && f.frame[1] === frames[c].frame[1],
      );
      const fromCharger = (list: typeof frames) => list.filter((f) => !f.outbound).map((f) => f.frame);
      return {
        before: fromCharger(frames.slice(c + 1, a)),
        answer: frames[a]?.frame,
        later: a < 0 ? [] : fromCharger(frames.slice(a + 1)),
      };
    }

    /** What the CSMS answered to the charger's last CALL of `action`. */
    const csmsAnswer = (identity: string, action: string) =>
      csms.waitFor(() => {
        const call = fromCharger(identity)
          .filter((f) => f[0] === 2 && f[2] === action)
          .at(-1);
        if (!call) return undefined;
        return csms.frames
          .filter((f) => f.identity === identity && f.outbound)
          .map((f) => JSON.parse(f.text))
          .find((f) => f[0] === 3 && f[1] === call[1])?.[2];
      });

    const connectorStatuses = (identity: string, connectorId: number) =>
      received(identity, 'StatusNotification')
        .filter((r) => (v16 ? r.params.connectorId : r.params.evseId) === connectorId)
        .map((r) => (v16 ? r.params.status : r.params.connectorStatus));

    test('deploy walks every stage to online and reports each in order', async () => {
      const id = `${tag}-STAGES`;
      const c = deploy(id);
      await online(c);
      assert.deepEqual(c.stageLog(), ONLINE);
      assert.ok(
        c.stages.every((s) => s.identity === id && s.attempt === 1 && !Number.isNaN(Date.parse(s.at))),
      );
      const [boot] = await waitReceived(id, 'BootNotification');
      if (v16)
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
      // StatusNotification for every connector after boot (1.6: connector 0 is the charger itself).
      const statuses = await waitReceived(id, 'StatusNotification', v16 ? 3 : 2);
      assert.deepEqual(
        statuses.map((s) =>
          v16 ? [s.params.connectorId, s.params.status] : [s.params.evseId, s.params.connectorStatus],
        ),
        v16
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

    test('BootNotification Pending, then Accepted: nothing else is sent while pending', async () => {
      const id = `${tag}-PENDING`;
      bootPlan.set(id, ['Pending']);
      const c = deploy(id);
      await online(c);
      assert.deepEqual(c.stageLog(), [
        ...ONLINE.slice(0, 6),
        'registering:in_progress:BOOT_PENDING',
        'online:succeeded',
      ]);
      const actions = received(id).map((r) => r.action);
      assert.deepEqual(actions.slice(0, 2), ['BootNotification', 'BootNotification']);
    });

    test('BootNotification Rejected is a failed registering stage, retried until Accepted', async () => {
      const id = `${tag}-REJECTED`;
      bootPlan.set(id, ['Rejected', 'Rejected']);
      const c = deploy(id);
      await online(c);
      assert.deepEqual(c.stageLog().slice(5), [
        'registering:in_progress',
        'registering:failed:BOOT_REJECTED',
        'registering:failed:BOOT_REJECTED',
        'online:succeeded',
      ]);
      assert.match(c.stages[6].hint!, /rejected/);
      assert.equal(received(id, 'BootNotification').length, 3);
    });

    test('heartbeat at the interval the BootNotification answer gave', async () => {
      const id = `${tag}-HEARTBEAT`;
      intervals.set(id, 1);
      const c = deploy(id);
      await online(c);
      const beats = await waitReceived(id, 'Heartbeat', 2, 5000);
      assert.deepEqual(beats[0].params, {});
      assert.ok(beats[1].at > beats[0].at);
    });

    test('a charging session: remote start, growing meter values, remote stop, Finishing until unplugged', async () => {
      const id = `${tag}-SESSION`;
      const c = deploy(id, { config: { MeterValueSampleInterval: '1' } });
      await online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'plug' });
      await quiet(c);
      const start = v16
        ? await csms.call(id, 'RemoteStartTransaction', { connectorId: 1, idTag: 'REMOTE-1' })
        : await csms.call(id, 'RequestStartTransaction', {
            evseId: 1,
            remoteStartId: 7,
            idToken: { idToken: 'REMOTE-1', type: 'Central' },
          });
      assert.equal(start.status, 'Accepted');
      // The answer leaves before the transaction message it causes.
      await waitReceived(id, v16 ? 'StartTransaction' : 'TransactionEvent');
      const around = answerAndAfter(id, v16 ? 'RemoteStartTransaction' : 'RequestStartTransaction');
      assert.deepEqual(around.before, []);
      assert.ok(
        around.later.some((f) => f[0] === 2 && f[2] === (v16 ? 'StartTransaction' : 'TransactionEvent')),
      );

      let transactionId: string | number;
      if (v16) {
        const [started] = await waitReceived(id, 'StartTransaction');
        assert.equal(started.params.connectorId, 1);
        assert.equal(started.params.idTag, 'REMOTE-1');
        assert.equal(started.params.meterStart, 0);
        transactionId = (await csmsAnswer(id, 'StartTransaction')).transactionId as number;
        const meter = await waitReceived(id, 'MeterValues', 3, 6000);
        assert.ok(meter.every((m) => m.params.transactionId === transactionId));
        const energy = meter.map((m) => Number(m.params.meterValue[0].sampledValue[0].value));
        assert.ok(energy[0] > 0 && energy[1] > energy[0] && energy[2] > energy[1], `energy grows: ${energy}`);
        assert.deepEqual(await csms.call(id, 'RemoteStopTransaction', { transactionId }), {
          status: 'Accepted',
        });
        const [stopped] = await waitReceived(id, 'StopTransaction');
        assert.equal(stopped.params.transactionId, transactionId);
        assert.equal(stopped.params.reason, 'Remote');
        assert.ok(stopped.params.meterStop >= energy[2]);
      } else {
        const [started] = await waitReceived(id, 'TransactionEvent');
        assert.equal(started.params.eventType, 'Started');
        assert.equal(started.params.triggerReason, 'RemoteStart');
        assert.equal(started.params.transactionInfo.remoteStartId, 7);
        transactionId = started.params.transactionInfo.transactionId;
        assert.equal(start.transactionId, transactionId);
        const updates = () =>
          received(id, 'TransactionEvent').filter((r) => r.params.triggerReason === 'MeterValuePeriodic');
        const meter = await csms.waitFor(() => (updates().length >= 3 ? updates() : undefined), 6000);
        const energy = meter.map((m) => {
          const sv = m.params.meterValue[0].sampledValue.find(
            (s: Json) => s.measurand === 'Energy.Active.Import.Register',
          );
          return Number(sv.value);
        });
        assert.ok(energy[0] > 0 && energy[1] > energy[0] && energy[2] > energy[1], `energy grows: ${energy}`);
        assert.deepEqual(await csms.call(id, 'RequestStopTransaction', { transactionId }), {
          status: 'Accepted',
        });
        const ended = await csms.waitFor(() =>
          received(id, 'TransactionEvent').find((r) => r.params.eventType === 'Ended'),
        );
        assert.equal(ended.params.triggerReason, 'RemoteStop');
        assert.equal(ended.params.transactionInfo.stoppedReason, 'Remote');
        const seqNos = received(id, 'TransactionEvent').map((r) => r.params.seqNo);
        assert.deepEqual(
          seqNos,
          seqNos.map((_s, i) => i),
        );
      }
      // After a remote stop the EV is still plugged in: the connector waits in Finishing.
      assert.equal(c.ctx().connectors[0].status, 'Finishing');
      c.actor.send({ type: 'UNPLUG', connectorId: 1 });
      await csms.waitFor(
        () => connectorStatuses(id, 1).at(-1) === 'Available' && connectorStatuses(id, 1).length > 2,
      );
      assert.deepEqual(
        connectorStatuses(id, 1),
        v16
          ? ['Available', 'Preparing', 'Charging', 'Finishing', 'Available']
          : ['Available', 'Occupied', 'Available'],
      );
      assert.equal(c.results.find((r) => r.commandId === 'plug')?.ok, true);
    });

    test('every CSMS call of the spec is answered', async () => {
      const id = `${tag}-CALLS`;
      const c = deploy(id);
      await online(c);
      const call = (action: string, params: Json) => csms.call(id, action, params);
      if (v16) {
        const cfg = await call('GetConfiguration', {
          key: ['HeartbeatInterval', 'NumberOfConnectors', 'NoSuchKey'],
        });
        assert.deepEqual(cfg, {
          configurationKey: [
            { key: 'HeartbeatInterval', readonly: false, value: '300' },
            { key: 'NumberOfConnectors', readonly: true, value: '2' },
          ],
          unknownKey: ['NoSuchKey'],
        });
        assert.deepEqual(
          await call('ChangeConfiguration', { key: 'MeterValueSampleInterval', value: '30' }),
          {
            status: 'Accepted',
          },
        );
        assert.deepEqual(await call('ChangeConfiguration', { key: 'NumberOfConnectors', value: '5' }), {
          status: 'Rejected',
        });
        assert.deepEqual(await call('ChangeConfiguration', { key: 'Nope', value: '1' }), {
          status: 'NotSupported',
        });
        const after = await call('GetConfiguration', { key: ['MeterValueSampleInterval'] });
        assert.equal(after.configurationKey[0].value, '30');
        assert.deepEqual(await call('ClearCache', {}), { status: 'Accepted' });
        assert.deepEqual(
          await call('SendLocalList', {
            listVersion: 4,
            updateType: 'Full',
            localAuthorizationList: [{ idTag: 'LOCAL-1', idTagInfo: { status: 'Accepted' } }],
          }),
          { status: 'Accepted' },
        );
        assert.deepEqual(await call('GetLocalListVersion', {}), { listVersion: 4 });
        assert.deepEqual(
          await call('TriggerMessage', { requestedMessage: 'StatusNotification', connectorId: 2 }),
          {
            status: 'Accepted',
          },
        );
        const triggered = await csms.waitFor(() =>
          answerAndAfter(id, 'TriggerMessage').later.find((f) => f[2] === 'StatusNotification'),
        );
        assert.equal(triggered[3].connectorId, 2);
        const beats = received(id, 'Heartbeat').length;
        assert.deepEqual(await call('TriggerMessage', { requestedMessage: 'Heartbeat' }), {
          status: 'Accepted',
        });
        await waitReceived(id, 'Heartbeat', beats + 1);
        assert.deepEqual(await call('ChangeAvailability', { connectorId: 2, type: 'Inoperative' }), {
          status: 'Accepted',
        });
        await csms.waitFor(() => connectorStatuses(id, 2).at(-1) === 'Unavailable');
        assert.deepEqual(await call('ChangeAvailability', { connectorId: 2, type: 'Operative' }), {
          status: 'Accepted',
        });
        await csms.waitFor(() => connectorStatuses(id, 2).at(-1) === 'Available');
        assert.deepEqual(await call('UnlockConnector', { connectorId: 1 }), { status: 'Unlocked' });
        assert.deepEqual(
          await call('SetChargingProfile', {
            connectorId: 1,
            csChargingProfiles: {
              chargingProfileId: 1,
              stackLevel: 0,
              chargingProfilePurpose: 'TxDefaultProfile',
              chargingProfileKind: 'Relative',
              chargingSchedule: {
                chargingRateUnit: 'W',
                chargingSchedulePeriod: [{ startPeriod: 0, limit: 6000 }],
              },
            },
          }),
          { status: 'Accepted' },
        );
        const composite = await call('GetCompositeSchedule', {
          connectorId: 1,
          duration: 3600,
          chargingRateUnit: 'W',
        });
        assert.equal(composite.status, 'Accepted');
        assert.deepEqual(composite.chargingSchedule.chargingSchedulePeriod, [
          { startPeriod: 0, limit: 6000 },
        ]);
        assert.deepEqual(await call('ClearChargingProfile', { id: 1 }), { status: 'Accepted' });
        assert.deepEqual(await call('DataTransfer', { vendorId: 'acme', messageId: 'echo', data: 'hi' }), {
          status: 'Accepted',
          data: 'hi',
        });
        await assert.rejects(
          call('UpdateFirmware', {
            location: 'http://example.com/fw',
            retrieveDate: new Date().toISOString(),
          }),
          (e) => rpcCode(e) === 'NotImplemented',
        );
        const boots = received(id, 'BootNotification').length;
        assert.deepEqual(await call('Reset', { type: 'Soft' }), { status: 'Accepted' });
        await waitReceived(id, 'BootNotification', boots + 1);
      } else {
        const got = await call('GetVariables', {
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
        const set = await call('SetVariables', {
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
        await quiet(c);
        assert.deepEqual(await call('GetBaseReport', { requestId: 5, reportBase: 'FullInventory' }), {
          status: 'Accepted',
        });
        // NotifyReport follows the CALLRESULT, never the other way round.
        const reports = await csms.waitFor(() => {
          const r = received(id, 'NotifyReport').filter((x) => x.params.requestId === 5);
          return r.at(-1)?.params.tbc === false ? r : undefined;
        });
        assert.deepEqual(answerAndAfter(id, 'GetBaseReport').before, []);
        assert.ok(answerAndAfter(id, 'GetBaseReport').later.some((f) => f[2] === 'NotifyReport'));
        const data = reports.flatMap((r) => r.params.reportData);
        assert.ok(
          data.some(
            (d: Json) => d.component.name === 'SampledDataCtrlr' && d.variableAttribute[0].value === '30',
          ),
        );
        assert.deepEqual(
          await call('GetReport', {
            requestId: 6,
            componentVariable: [{ component: { name: 'AuthCacheCtrlr' } }],
          }),
          { status: 'Accepted' },
        );
        await csms.waitFor(() => received(id, 'NotifyReport').find((x) => x.params.requestId === 6));
        assert.deepEqual(await call('ClearCache', {}), { status: 'Accepted' });
        assert.deepEqual(
          await call('SendLocalList', {
            versionNumber: 2,
            updateType: 'Full',
            localAuthorizationList: [
              { idToken: { idToken: 'LOCAL-1', type: 'ISO14443' }, idTokenInfo: { status: 'Accepted' } },
            ],
          }),
          { status: 'Accepted' },
        );
        assert.deepEqual(await call('GetLocalListVersion', {}), { versionNumber: 2 });
        assert.deepEqual(
          await call('TriggerMessage', {
            requestedMessage: 'StatusNotification',
            evse: { id: 2, connectorId: 1 },
          }),
          { status: 'Accepted' },
        );
        const triggered = await csms.waitFor(() =>
          answerAndAfter(id, 'TriggerMessage').later.find((f) => f[2] === 'StatusNotification'),
        );
        assert.equal(triggered[3].evseId, 2);
        const beats = received(id, 'Heartbeat').length;
        assert.deepEqual(await call('TriggerMessage', { requestedMessage: 'Heartbeat' }), {
          status: 'Accepted',
        });
        await waitReceived(id, 'Heartbeat', beats + 1);
        assert.deepEqual(
          await call('ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 2 } }),
          {
            status: 'Accepted',
          },
        );
        await csms.waitFor(() => connectorStatuses(id, 2).at(-1) === 'Unavailable');
        assert.deepEqual(
          await call('ChangeAvailability', { operationalStatus: 'Operative', evse: { id: 2 } }),
          {
            status: 'Accepted',
          },
        );
        await csms.waitFor(() => connectorStatuses(id, 2).at(-1) === 'Available');
        assert.deepEqual(await call('UnlockConnector', { evseId: 1, connectorId: 1 }), {
          status: 'Unlocked',
        });
        assert.deepEqual(await call('UnlockConnector', { evseId: 7, connectorId: 1 }), {
          status: 'UnknownConnector',
        });
        assert.deepEqual(
          await call('SetChargingProfile', {
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
          }),
          { status: 'Accepted' },
        );
        const composite = await call('GetCompositeSchedule', {
          evseId: 1,
          duration: 3600,
          chargingRateUnit: 'W',
        });
        assert.equal(composite.status, 'Accepted');
        assert.deepEqual(composite.schedule.chargingSchedulePeriod, [{ startPeriod: 0, limit: 6000 }]);
        assert.deepEqual(await call('ClearChargingProfile', { chargingProfileId: 1 }), {
          status: 'Accepted',
        });
        assert.deepEqual(await call('DataTransfer', { vendorId: 'acme', messageId: 'echo', data: 'hi' }), {
          status: 'Accepted',
          data: 'hi',
        });
        await assert.rejects(
          call('CostUpdated', { totalCost: 1, transactionId: 'x' }),
          (e) => rpcCode(e) === 'NotImplemented',
        );
        const boots = received(id, 'BootNotification').length;
        assert.deepEqual(await call('Reset', { type: 'Immediate' }), { status: 'Accepted' });
        await waitReceived(id, 'BootNotification', boots + 1);
      }
      await online(c);
      assert.deepEqual(c.stageLog().slice(-2), ['registering:in_progress', 'online:succeeded']);
    });

    test('an invalid CSMS message is answered with the CALLERROR its version names', async () => {
      const id = `${tag}-INVALID`;
      const c = deploy(id);
      await online(c);
      const cases: Array<[string, string]> = [
        ['[2,"bad-1","Reset",{}]', v16 ? 'OccurenceConstraintViolation' : 'OccurrenceConstraintViolation'],
        ['[2,"bad-2","Reset",{"type":"Sideways"}]', 'PropertyConstraintViolation'],
        [
          v16
            ? '[2,"bad-3","UnlockConnector",{"connectorId":"1"}]'
            : '[2,"bad-3","UnlockConnector",{"evseId":"1","connectorId":1}]',
          'TypeConstraintViolation',
        ],
        ['[2,"bad-4","Frobnicate",{}]', 'NotImplemented'],
        ['[2,"bad-5","Reset"]', v16 ? 'FormationViolation' : 'FormatViolation'],
      ];
      for (const [text] of cases) csms.sendRaw(id, text);
      const answers = await csms.waitFor(() => {
        const errors = fromCharger(id).filter((f) => f[0] === 4 && String(f[1]).startsWith('bad-'));
        return errors.length === cases.length ? errors : undefined;
      });
      assert.deepEqual(
        answers.map((f) => [f[1], f[2]]),
        cases.map(([, code], i) => [`bad-${i + 1}`, code]),
      );
      // Nothing of it changed the charger: it is still online and answers real calls.
      assert.equal(c.ctx().stage, 'online');
      assert.deepEqual(await csms.call(id, 'ClearCache', {}), { status: 'Accepted' });
    });

    test('socket drop: offline, transaction messages queued, delivered in order on reconnect, then recovered', async () => {
      const id = `${tag}-DROP`;
      const c = deploy(id, { config: { MeterValueSampleInterval: '1' } });
      await online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 1 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 1, idTag: 'TAG-1' });
      await c.until(() => c.ctx().connectors[0].status === 'Charging' && c.ctx().outbox.length === 0);
      // The network goes; the central system also refuses the charger for a while.
      blocked.add(id);
      c.actor.send({ type: 'DISCONNECT', commandId: 'drop' });
      await c.until(() => c.stageLog().includes('offline:failed:CONNECTION_LOST'));
      const before = received(id).length;
      // The session goes on offline: meter samples queue up, then the EV leaves.
      await c.until(() => c.ctx().outbox.length >= 2, 5000);
      c.actor.send({ type: 'UNPLUG', connectorId: 1 });
      const queued = await c.until(() => {
        const box = c.ctx().outbox;
        const last = box.at(-1);
        return last && (v16 ? last.action === 'StopTransaction' : last.payload.eventType === 'Ended')
          ? box.map((o) => o.action)
          : undefined;
      });
      assert.ok(
        c.stageLog().some((s) => s === `connecting:failed:HTTP_401`),
        'refused while blocked',
      );
      blocked.delete(id);
      await c.until(() => c.stageLog().at(-1) === 'online:recovered', 8000);
      const delivered = received(id)
        .slice(before)
        .filter((r) =>
          ['StartTransaction', 'MeterValues', 'StopTransaction', 'TransactionEvent'].includes(r.action),
        );
      assert.deepEqual(
        delivered.map((r) => r.action),
        queued,
      );
      if (v16) {
        assert.ok(delivered.every((r) => r.params.transactionId === delivered.at(-1)!.params.transactionId));
        const times = delivered.slice(0, -1).map((r) => Date.parse(r.params.meterValue[0].timestamp));
        assert.deepEqual(
          times,
          [...times].sort((a, b) => a - b),
        );
      } else {
        const all = received(id, 'TransactionEvent').map((r) => r.params.seqNo);
        assert.deepEqual(
          all,
          all.map((_s, i) => i),
        );
        assert.ok(delivered.every((r) => r.params.offline === true));
        assert.equal(delivered.at(-1)!.params.eventType, 'Ended');
      }
      assert.equal(c.results.find((r) => r.commandId === 'drop')?.ok, true);
    });

    test('survives a central system restart on the same port', async () => {
      const id = `${tag}-RESTART`;
      const c = deploy(id);
      await online(c);
      const port = Number(new URL(csms.url).port);
      schemaErrors.push(...csms.schemaErrors);
      await csms.close();
      await c.until(() => c.ctx().stage === 'offline' || c.ctx().stage === 'connecting');
      await c.until(() => c.stageLog().includes('connecting:failed:WS_CONNECT_REFUSED'));
      csms = await startCsms(port);
      await c.until(() => c.stageLog().at(-1) === 'online:recovered', 8000);
      assert.equal(received(id, 'BootNotification').length, 1, 'booted again at the new server');
    });

    test('security profile 1: Basic auth with the password from connectionSettings', async () => {
      const id = `${tag}-AUTH`;
      passwords.set(id, 's3cret-password-1');
      settings.set(id, { password: 's3cret-password-1' });
      const c = deploy(id);
      await online(c);
      assert.ok(
        !JSON.stringify(c.actor.getPersistedSnapshot()).includes('s3cret'),
        'no secret in the snapshot',
      );

      const wrong = `${tag}-AUTH-WRONG`;
      passwords.set(wrong, 'right-password-00');
      settings.set(wrong, { password: 'wrong-password-00' });
      const w = deploy(wrong);
      const failed = await w.until(() => w.stages.find((s) => s.outcome === 'failed'));
      assert.equal(failed.stage, 'connecting');
      assert.equal(failed.code, 'HTTP_401');
      assert.match(failed.hint!, /password/);
      w.stop();
    });

    test('security profile 2: Basic auth over wss:// with the server certificate checked', async () => {
      const id = `${tag}-TLS-BASIC`;
      const certs = await makeTestCertificates(id);
      const tls = await startStrictCsms({
        protocols: [version],
        tls: { cert: certs.serverCert, key: certs.serverKey },
        auth: (identity, password) => identity === id && password === 'profile-2-password',
      });
      try {
        settings.set(id, { password: 'profile-2-password', tls: { ca: certs.ca } });
        const c = deploy(id, { url: tls.url });
        await online(c);
        c.stop();
        // Without the CA the charger refuses the server's certificate.
        const untrusted = `${tag}-TLS-UNTRUSTED`;
        settings.set(untrusted, { password: 'profile-2-password' });
        const u = deploy(untrusted, { url: tls.url });
        const failed = await u.until(() => u.stages.find((s) => s.outcome === 'failed'));
        assert.equal(failed.code, 'TLS_ERROR');
        u.stop();
        assert.deepEqual(tls.schemaErrors, []);
      } finally {
        await tls.close();
      }
    });

    test('security profile 3: TLS client certificate over wss://', async () => {
      const id = `${tag}-TLS`;
      const certs = await makeTestCertificates(id);
      const tls = await startStrictCsms({
        protocols: [version],
        tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true },
      });
      try {
        settings.set(id, { tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } });
        const c = deploy(id, { url: tls.url });
        await online(c);
        await tls.waitFor(() =>
          tls.received.find((r) => r.identity === id && r.action === 'StatusNotification'),
        );
        c.stop();
        assert.deepEqual(tls.schemaErrors, []);
      } finally {
        await tls.close();
      }
    });

    test('persisted snapshot -> restore -> RESUME: online again with the session still running', async () => {
      const id = `${tag}-SNAPSHOT`;
      const c = deploy(id, { config: { MeterValueSampleInterval: '1' } });
      await online(c);
      c.actor.send({ type: 'PLUG_IN', connectorId: 2 });
      c.actor.send({ type: 'PRESENT_TOKEN', connectorId: 2, idTag: 'TAG-2' });
      await c.until(() => c.ctx().connectors[1].status === 'Charging' && c.ctx().outbox.length === 0);
      const saved = JSON.stringify(c.actor.getPersistedSnapshot());
      c.stop(); // the old process goes away
      const boots = received(id, 'BootNotification').length;
      const r = track(runtime.restore(JSON.parse(saved)));
      chargers.push(r);
      r.actor.start();
      r.actor.send({ type: 'RESUME' });
      await r.until(() => r.stageLog().at(-1) === 'online:recovered', 8000);
      assert.deepEqual(r.stageLog(), [
        'connecting:in_progress',
        'registering:in_progress',
        'online:recovered',
      ]);
      assert.equal(received(id, 'BootNotification').length, boots + 1);
      assert.equal(r.ctx().connectors[1].status, 'Charging');
      // Meter values of the same transaction keep coming from the restored charger.
      const mark = csms.received.length;
      const sample = await csms.waitFor(() =>
        csms.received
          .slice(mark)
          .find(
            (x) => x.identity === id && (v16 ? x.action === 'MeterValues' : x.action === 'TransactionEvent'),
          ),
      );
      if (v16)
        assert.equal(sample.params.transactionId, (await csmsAnswer(id, 'StartTransaction')).transactionId);
      else
        assert.equal(
          sample.params.transactionInfo.transactionId,
          received(id, 'TransactionEvent')[0].params.transactionInfo.transactionId,
        );
      assert.throws(() => runtime.restore({ context: { snapshotVersion: -1 } }), /snapshot/);
    });

    test('the strict central system saw no invalid message from any charger', () => {
      assert.deepEqual([...schemaErrors, ...csms.schemaErrors], []);
    });
  });
}
