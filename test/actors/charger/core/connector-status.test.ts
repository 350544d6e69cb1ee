// The connector status table (core/connector-status.ts): status x event -> status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONNECTOR_TRANSITIONS,
  nextStatus,
  pending,
  type ConnectorEvent,
} from '../../../../actors/charger/core/connector-status.ts';
import type { ConnectorStatus } from '../../../../actors/charger/core/context.ts';
import { newConnector } from '../../../../actors/charger/lifecycle.ts';

// [from, events, to]: the story of a connector, one line each.
const CASES: Array<[ConnectorStatus, ConnectorEvent[], ConnectorStatus]> = [
  ['Available', ['cable_in'], 'Preparing'],
  ['Available', ['token_ok'], 'Preparing'],
  ['Preparing', ['charging'], 'Charging'],
  ['Preparing', ['suspended_evse'], 'SuspendedEVSE'],
  ['Preparing', ['cable_out'], 'Available'],
  ['Charging', ['suspended_ev'], 'SuspendedEV'],
  ['SuspendedEV', ['charging'], 'Charging'],
  ['Charging', ['tx_ended', 'cable_in'], 'Finishing'],
  ['Charging', ['tx_ended', 'cable_out'], 'Available'],
  ['Charging', ['tx_ended', 'cable_in', 'disable'], 'Unavailable'],
  ['Finishing', ['cable_out'], 'Available'],
  ['Finishing', ['charging'], 'Charging'],
  ['Charging', ['disable'], 'Charging'], // Scheduled: waits for the transaction to end
  ['Available', ['disable'], 'Unavailable'],
  ['Unavailable', ['enable', 'cable_out'], 'Available'],
  ['Unavailable', ['enable', 'cable_in'], 'Preparing'],
  ['Unavailable', ['cable_in'], 'Unavailable'],
  ['Charging', ['fault'], 'Faulted'],
  ['Unavailable', ['fault'], 'Faulted'],
  ['Faulted', ['cable_out', 'disable', 'token_ok', 'enable'], 'Faulted'],
  ['Faulted', ['clear', 'cable_in'], 'Preparing'],
  ['Faulted', ['clear', 'cable_out', 'token_ok'], 'Preparing'],
  ['Faulted', ['clear', 'cable_out', 'disable'], 'Unavailable'],
];

for (const [from, events, to] of CASES)
  test(`${from} x ${events.join(', ')} -> ${to}`, () => {
    assert.equal(nextStatus(from, ...events), to);
  });

test('every status has a row, and a fault reaches Faulted from every one', () => {
  const statuses = Object.keys(CONNECTOR_TRANSITIONS) as ConnectorStatus[];
  assert.equal(statuses.length, 9);
  for (const s of statuses) assert.equal(nextStatus(s, 'fault'), 'Faulted');
});

test('pending: a connector at rest as events (cable, token, availability)', () => {
  assert.deepEqual(pending(newConnector(1)), ['cable_out']);
  assert.deepEqual(pending({ ...newConnector(1), plugged: true, authorized: 'T', inoperative: true }), [
    'cable_in',
    'token_ok',
    'disable',
  ]);
});
