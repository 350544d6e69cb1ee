// The node's measurements of the central system, the sum over nodes and /metrics' text, without
// a service: answers told to meters as the link tells them, a clock moved by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUCKET_BOUNDS_MS,
  bucketOf,
  newCell,
  percentile,
  recordAnswer,
} from '../../../engine/metrics/answer-cells.ts';
import { CsmsMeasurements, MAX_LABELS, type NodeFigures } from '../../../engine/metrics/csms-measurements.ts';
import { latencyItems, sumFleet } from '../../../engine/metrics/fleet-figures.ts';
import { histogramQuantile, parsePrometheus } from '../../support/prometheus-text.ts';
import { Exposition } from '../../../engine/metrics/prometheus-text.ts';

test('buckets run from 5 ms to 60 s, each at most 19 % wider than the one before', () => {
  assert.equal(BUCKET_BOUNDS_MS[0], 5);
  assert.equal(BUCKET_BOUNDS_MS.at(-1), 60_000);
  for (let i = 1; i < BUCKET_BOUNDS_MS.length - 1; i++)
    assert.ok(BUCKET_BOUNDS_MS[i] / BUCKET_BOUNDS_MS[i - 1] <= 1.2, `${BUCKET_BOUNDS_MS[i]}`);
  for (let i = 0; i < 10_000; i++) {
    const ms = Math.random() * 70_000;
    const b = bucketOf(ms);
    if (ms > 60_000) assert.equal(b, BUCKET_BOUNDS_MS.length);
    else {
      assert.ok(BUCKET_BOUNDS_MS[b] >= ms);
      assert.ok(b === 0 || BUCKET_BOUNDS_MS[b - 1] < ms);
    }
  }
});

test('percentiles from the buckets are within 10 % of the true ones', () => {
  const cell = newCell();
  const times = Array.from({ length: 1000 }, () => 50 + Math.random() * 2000).sort((a, b) => a - b);
  for (const t of times) recordAnswer(cell, t);
  for (const q of [0.5, 0.95, 0.99]) {
    const truth = times[Math.ceil(q * times.length) - 1];
    const p = percentile(cell, q)!;
    assert.ok(Math.abs(p - truth) / truth < 0.1, `p${q * 100} ${p} vs ${truth}`);
  }
});

const at = (s: string) => Date.parse(s);

test('a meter counts answers, CALLERRORs by code, timeouts, boot statuses and the CSMS calls by answer status', () => {
  let now = at('2026-12-01T10:00:00Z');
  const m = new CsmsMeasurements({ clock: () => now });
  const meter = m.meter('org-a', 'loc-1', 'ocpp1.6');
  assert.equal(
    m.meter('org-a', 'loc-1', 'ocpp1.6'),
    meter,
    'one meter per organization, location and version',
  );
  meter.onCallAnswered!('BootNotification', 40, 'result', { status: 'Pending', interval: 1 });
  meter.onCallAnswered!('BootNotification', 20, 'result', { status: 'Accepted', interval: 300 });
  meter.onCallAnswered!('Authorize', 300, 'result', { idTagInfo: { status: 'Accepted' } });
  meter.onCallAnswered!('Authorize', 310, 'error', 'InternalError');
  meter.onCallAnswered!('Authorize', 30_000, 'timeout', undefined);
  meter.onCallReplied!('ChangeAvailability', { status: 'Accepted' }, null);
  meter.onCallReplied!('GetConfiguration', { configurationKey: [] }, null);
  meter.onCallReplied!('Reset', undefined, 'NotSupported');
  const fleet = sumFleet([m.figures({ Available: 2 })]);
  assert.deepEqual(Object.fromEntries(fleet.boots), { 'ocpp1.6\nPending': 1, 'ocpp1.6\nAccepted': 1 });
  assert.deepEqual(Object.fromEntries(fleet.calls), {
    'ocpp1.6\nChangeAvailability\nAccepted': 1,
    'ocpp1.6\nGetConfiguration\nanswered': 1,
    'ocpp1.6\nReset\nerror': 1,
  });
  assert.deepEqual(Object.fromEntries(fleet.connectors), { Available: 2 });
  const items = latencyItems([m.figures()], 'all', (org) => org === 'org-a');
  assert.deepEqual(
    items.map((i) => [i.action, i.count, i.callerrors, i.timeouts, i.max_ms]),
    [
      ['Authorize', 2, 1, 1, 310],
      ['BootNotification', 2, 0, 0, 40],
    ],
  );
  assert.deepEqual(Object.fromEntries(fleet.actions[0].codes), { InternalError: 1 });
  assert.deepEqual(
    latencyItems([m.figures()], 'all', (org) => org === 'org-b'),
    [],
  );

  // The windows: a minute later the 1 min window is empty, the 15 min one still holds them.
  now += 61_000;
  meter.onCallAnswered!('Authorize', 100, 'result', {});
  const m1 = latencyItems([m.figures()], '1m', () => true);
  assert.deepEqual(
    m1.map((i) => [i.action, i.count]),
    [['Authorize', 1]],
  );
  const m15 = latencyItems([m.figures()], '15m', () => true);
  assert.deepEqual(
    m15.map((i) => [i.action, i.count, i.timeouts]),
    [
      ['Authorize', 3, 1],
      ['BootNotification', 2, 0],
    ],
  );
  now += 15 * 60_000;
  assert.deepEqual(
    latencyItems([m.figures()], '15m', () => true),
    [],
  );
  assert.equal(latencyItems([m.figures()], 'all', () => true)[0].count, 3);
});

test('labels stay bounded: actions and codes past the bound count as other', () => {
  const m = new CsmsMeasurements();
  const meter = m.meter('org-a', null, 'ocpp1.6');
  for (let i = 0; i < MAX_LABELS + 10; i++) meter.onCallAnswered!(`Action${i}`, 10, 'error', `Code${i}`);
  const figures = m.figures();
  assert.equal(figures.series.length, MAX_LABELS + 1);
  assert.equal(figures.series.find((s) => s.action === 'other')?.all[0], 10);
});

test('the fleet is the sum of its nodes: counts, buckets, codes, boots, calls and connectors', () => {
  const nodes: NodeFigures[] = [];
  for (let n = 0; n < 3; n++) {
    const m = new CsmsMeasurements();
    const meter = m.meter('org-a', `loc-${n}`, 'ocpp2.0.1');
    for (let i = 0; i <= n; i++) {
      meter.onCallAnswered!('Authorize', 100 * (i + 1), 'result', {});
      meter.onCallAnswered!('BootNotification', 5, 'result', { status: i % 2 ? 'Pending' : 'Accepted' });
      meter.onCallAnswered!('Heartbeat', 5, 'error', 'SecurityError');
      meter.onCallReplied!('Reset', { status: 'Accepted' }, null);
    }
    nodes.push(JSON.parse(JSON.stringify(m.figures({ Charging: n + 1 }))) as NodeFigures);
  }
  const fleet = sumFleet(nodes);
  const authorize = fleet.actions.find((a) => a.action === 'Authorize')!;
  assert.equal(authorize.cell[BUCKET_BOUNDS_MS.length + 1], 6);
  const perNode = nodes.map((n) => sumFleet([n]));
  assert.equal(
    fleet.boots.get('ocpp2.0.1\nAccepted'),
    perNode.reduce((sum, f) => sum + (f.boots.get('ocpp2.0.1\nAccepted') ?? 0), 0),
  );
  assert.equal(fleet.boots.get('ocpp2.0.1\nPending'), 2);
  assert.equal(fleet.calls.get('ocpp2.0.1\nReset\nAccepted'), 6);
  assert.equal(fleet.connectors.get('Charging'), 6);
  assert.equal(fleet.actions.find((a) => a.action === 'Heartbeat')!.codes.get('SecurityError'), 6);
  for (let b = 0; b < BUCKET_BOUNDS_MS.length + 1; b++)
    assert.equal(
      authorize.cell[b],
      perNode.reduce((sum, f) => sum + f.actions.find((a) => a.action === 'Authorize')!.cell[b], 0),
    );
  // One location of the organization: only its node's figures.
  const one = latencyItems(nodes, 'all', (_org, loc) => loc === 'loc-2');
  assert.equal(one.find((i) => i.action === 'Authorize')!.count, 3);
});

test('connections and late answers: counted per version and summed over nodes', () => {
  const nodes = [1, 2].map((k) => {
    const m = new CsmsMeasurements();
    const meter = m.meter('org-a', 'loc-1', 'ocpp1.6');
    for (let i = 0; i < 3 * k; i++) meter.onConnected!();
    meter.onDisconnected!(1006);
    meter.onDisconnected!(null); // the charger stopped: not a close by the central system
    meter.onConnectFailed!('HTTP_401');
    meter.onLateAnswer!('Authorize', 31_000);
    m.meter('org-b', null, 'ocpp2.0.1').onConnected!();
    return m.figures();
  });
  const fleet = sumFleet(nodes);
  assert.deepEqual(Object.fromEntries(fleet.connects), { 'ocpp1.6': 9, 'ocpp2.0.1': 2 });
  assert.deepEqual(Object.fromEntries(fleet.connected), { 'ocpp1.6': 5, 'ocpp2.0.1': 2 });
  assert.deepEqual(Object.fromEntries(fleet.closes), { 'ocpp1.6\n1006': 2 });
  assert.deepEqual(Object.fromEntries(fleet.failures), { 'ocpp1.6\nHTTP_401': 2 });
  assert.deepEqual(Object.fromEntries(fleet.late), { 'ocpp1.6\nAuthorize': 2 });
  // A row written by a node of an earlier version has none of these: it adds nothing.
  const older = { ...nodes[0], late: undefined, links: undefined };
  assert.deepEqual(Object.fromEntries(sumFleet([older]).connects), {});
});

test('the exposition escapes label values and reads back through a strict parser', () => {
  const text = new Exposition()
    .family('evsim_x_total', 'counter', 'A counter\\with a backslash')
    .sample('evsim_x_total', { code: 'a "quoted"\nline\\' }, 3)
    .family('evsim_h', 'histogram', 'A histogram')
    .sample('evsim_h_bucket', { le: '0.1' }, 1)
    .sample('evsim_h_bucket', { le: '0.5' }, 3)
    .sample('evsim_h_bucket', { le: '+Inf' }, 4)
    .sample('evsim_h_sum', {}, 1.2)
    .sample('evsim_h_count', {}, 4)
    .text();
  const parsed = parsePrometheus(text);
  assert.equal(parsed.value('evsim_x_total', { code: 'a "quoted"\nline\\' }), 3);
  assert.ok(Math.abs(histogramQuantile(0.5, parsed.buckets('evsim_h')) - 0.3) < 1e-9);
  assert.throws(() => parsePrometheus('evsim_y 1\n'), /no TYPE/);
  assert.throws(
    () => parsePrometheus('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n'),
    /go down/,
  );
});
