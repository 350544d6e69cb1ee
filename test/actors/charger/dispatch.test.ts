// What reaches a charger and who handles it (dispatch.ts, the adapters' CSMS calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_AC, VERSIONS, harness, online } from './charger-harness.ts';
import { COMMANDS, isCommand } from '../../../actors/charger/dispatch.ts';
import type { CommandType } from '../../../actors/charger/charger-ports.ts';

const ALL: CommandType[] = [
  'PLUG_IN',
  'PRESENT_TOKEN',
  'UNPLUG',
  'EV_STOPS_ENERGY',
  'FAULT',
  'CLEAR_FAULT',
  'EXTERNAL_LIMIT',
  'GRID_FREQUENCY',
  'GRID_EVENT',
  'DISCONNECT',
  'CHANGE_CONFIGURATION',
  'SET_VARIABLE',
  'CLEAR_CACHE',
  'SEND_LOCAL_LIST',
  'PROXY_CALL',
];

test('every command has a handler, and nothing else counts as a command', () => {
  assert.deepEqual(Object.keys(COMMANDS).sort(), [...ALL].sort());
  assert.ok(ALL.every(isCommand));
  for (const other of ['DEPLOY', 'RESUME', 'ocpp.result', 'toString', 'constructor'])
    assert.equal(isCommand(other), false);
});

for (const version of VERSIONS) {
  test(`${version}: PROXY_CALL sends the CALL as written; the central system's answer is the result`, () => {
    const h = online(version);
    h.send({
      type: 'PROXY_CALL',
      action: 'DataTransfer',
      payload: { vendorId: 'evsim', messageId: 'hello' },
      commandId: 'p1',
    });
    assert.deepEqual(h.results.at(-1), {
      type: 'command.result',
      commandId: 'p1',
      identity: 'CP-TEST-1',
      command: 'PROXY_CALL',
      ok: true,
      action: 'DataTransfer',
      payload: { status: 'Accepted' },
    });
    h.finish();
  });

  test(`${version}: a command to a stopped charger fails NOT_RUNNING`, () => {
    const h = online(version);
    h.send({ type: 'STOP' });
    h.send({ type: 'PLUG_IN', connectorId: 1, commandId: 'p2' });
    assert.equal(h.results.at(-1)!.ok, false);
    assert.equal(h.results.at(-1)!.error!.code, 'NOT_RUNNING');
    h.stop();
  });

  test(`${version}: every command to a charger never deployed fails NOT_RUNNING, once each`, () => {
    const h = harness(version);
    for (const type of ALL) h.send({ type, commandId: type } as never);
    assert.deepEqual(
      h.results.map((r) => [r.commandId, r.error?.code]),
      ALL.map((type) => [type, 'NOT_RUNNING']),
    );
    h.stop();
  });

  test(`${version}: P01 DataTransfer for the charger's own vendor is Accepted and its data echoed`, async () => {
    const h = online(version);
    const vendorId = MODEL_AC.boot_vendor;
    assert.deepEqual(await h.csmsCall('DataTransfer', { vendorId, messageId: 'x', data: 'hi' }), {
      status: 'Accepted',
      data: 'hi',
    });
    assert.deepEqual(await h.csmsCall('DataTransfer', { vendorId }), { status: 'Accepted' });
    h.finish();
  });

  test(`${version}: P01 DataTransfer for a vendor the charger does not know is UnknownVendorId`, async () => {
    const h = online(version);
    assert.deepEqual(await h.csmsCall('DataTransfer', { vendorId: 'acme', messageId: 'x', data: 'hi' }), {
      status: 'UnknownVendorId',
    });
    h.finish();
  });

  test(`${version}: P01 a vendor listed in DataTransferVendorIds (deployment config) is known`, async () => {
    const h = online(version, { input: { config: { DataTransferVendorIds: 'acme,org.example' } } });
    assert.deepEqual(await h.csmsCall('DataTransfer', { vendorId: 'org.example', data: 'hi' }), {
      status: 'Accepted',
      data: 'hi',
    });
    assert.deepEqual(await h.csmsCall('DataTransfer', { vendorId: 'other' }), { status: 'UnknownVendorId' });
    h.finish();
  });
}

test('ocpp1.6: a CSMS call the charger has no block for is answered NotImplemented (CostUpdated, not a 1.6 call)', async () => {
  const h = online('ocpp1.6');
  await assert.rejects(h.csmsCall('CostUpdated', { totalCost: 1, transactionId: '1' }), /NotImplemented/);
  h.finish();
});

test('ocpp2.0.1: a CSMS call the charger has no block for is answered NotImplemented (GetTariffs, a 2.1 call)', async () => {
  const h = online('ocpp2.0.1');
  await assert.rejects(h.csmsCall('GetTariffs', { evseId: 1 }), /NotImplemented/);
  h.finish();
});

test('ocpp2.0.1: L03/L04 PublishFirmware and UnpublishFirmware are NotSupported (a charging station is not a local controller)', async () => {
  const h = online('ocpp2.0.1');
  await assert.rejects(
    h.csmsCall('PublishFirmware', { location: 'http://x/fw.bin', checksum: 'abc', requestId: 1 }),
    /NotSupported/,
  );
  await assert.rejects(h.csmsCall('UnpublishFirmware', { checksum: 'abc' }), /NotSupported/);
  h.finish();
});

test('ocpp1.6: PROXY_CALL while offline fails OFFLINE', () => {
  const h = harness('ocpp1.6', { connect: 'manual' });
  h.deploy();
  h.send({ type: 'PROXY_CALL', action: 'Heartbeat', commandId: 'p' });
  assert.equal(h.results.at(-1)!.error!.code, 'OFFLINE');
  h.stop();
});
