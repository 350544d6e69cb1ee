// Issue 36 across nodes: two engine nodes share one fleet (child processes on one database and
// one broker); each measures the central system for the chargers it holds and writes its figures
// to its row. /metrics and csms-latency, asked of either node, equal the sum of the two nodes'
// rows: Authorize answers (300 ms) and BootNotification answers by status.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deploymentsOf, eventually, locationBody, type As } from '../deployments/deployment-helpers.ts';
import { histogramQuantile, parsePrometheus } from '../support/prometheus-text.ts';
import { startFleet, type Fleet } from './fleet.ts';

const CHARGERS = 20;
const PENDING = 5; // the first boot of MN-001 .. MN-005
const ORG = 'org-metrics';
const now = () => new Date().toISOString();

/** A node's row as written (engine/metrics/csms-measurements.ts NodeFigures), read by hand here. */
interface Row {
  node_id: string;
  figures: {
    series: Array<{ org: string; version: string; action: string; all: number[] }>;
    boots: Array<{ version: string; status: string; n: number }>;
  };
}

const answered = (row: Row, action: string) =>
  row.figures.series.filter((s) => s.action === action).reduce((sum, s) => sum + s.all[0], 0);
const boots = (row: Row, status: string) =>
  row.figures.boots.filter((b) => b.status === status).reduce((sum, b) => sum + b.n, 0);

describe(`two engine nodes measure one fleet (${MODE})`, () => {
  let csms: StrictCsms;
  let fleet: Fleet;
  let as: As;
  let locationId: string;
  const booted = new Set<string>();

  before(async () => {
    csms = await startStrictCsms({
      protocols: ['ocpp1.6'],
      handlers: {
        BootNotification: (_p, client) => {
          const id = client.identity ?? '';
          const first = !booted.has(id);
          booted.add(id);
          return first && Number(id.slice(3)) <= PENDING
            ? { status: 'Pending', currentTime: now(), interval: 1 }
            : { status: 'Accepted', currentTime: now(), interval: 300 };
        },
        Authorize: async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { idTagInfo: { status: 'Accepted' } };
        },
      },
    });
    fleet = await startFleet(['node-a', 'node-b']);
    as = fleet.nodes[0].as(ORG);
    const res = await as('POST', '/evcharger/location', { body: locationBody('MN', CHARGERS, csms.url) });
    assert.equal(res.status, 202, res.text);
    locationId = res.body.location_id;
    await eventually(
      () => deploymentsOf(as, locationId),
      (list) => list.length === CHARGERS && list.every((d) => d.stage === 'online'),
      120_000,
    );
    const sent = await as('POST', '/evcharger/commands/present-token', {
      body: { target: { location_id: locationId }, payload: { id_tag: 'TAG-N', connector_id: 1 } },
    });
    assert.equal(sent.status, 202, sent.text);
    await csms.waitFor(
      () => csms.received.filter((r) => r.action === 'Authorize').length >= CHARGERS,
      30_000,
    );
  });

  after(async () => {
    await fleet?.close();
    await csms?.close();
  });

  /** The nodes' rows once both hold every answer (a row is rewritten every 5 s). */
  const settledRows = () =>
    eventually(
      () => fleet.query<Row>('SELECT node_id, figures FROM evc_node_figures ORDER BY node_id'),
      (rows) =>
        rows.reduce((sum, r) => sum + answered(r, 'Authorize'), 0) === CHARGERS &&
        rows.reduce((sum, r) => sum + boots(r, 'Accepted'), 0) === CHARGERS,
      30_000,
    );

  test('each node measured its own chargers; /metrics of either node is the sum of the two rows', async () => {
    const rows = await settledRows();
    assert.deepEqual(
      rows.map((r) => r.node_id),
      ['node-a', 'node-b'],
    );
    for (const r of rows) assert.ok(answered(r, 'BootNotification') > 0, `${r.node_id} measured nothing`);
    const sum = (f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);
    assert.equal(
      sum((r) => boots(r, 'Pending')),
      PENDING,
    );
    for (const node of fleet.nodes) {
      const res = await node.as(ORG)('GET', '/metrics');
      assert.equal(res.status, 200, res.text);
      const m = parsePrometheus(res.text);
      const labels = { version: 'ocpp1.6', action: 'Authorize' };
      assert.equal(
        m.value('evsim_csms_answer_seconds_count', labels),
        sum((r) => answered(r, 'Authorize')),
      );
      assert.equal(
        m.value('evsim_csms_answer_seconds_count', { version: 'ocpp1.6', action: 'BootNotification' }),
        sum((r) => answered(r, 'BootNotification')),
      );
      assert.equal(
        m.value('evsim_csms_boot_answers_total', { version: 'ocpp1.6', status: 'Pending' }),
        PENDING,
      );
      assert.equal(
        m.value('evsim_csms_boot_answers_total', { version: 'ocpp1.6', status: 'Accepted' }),
        sum((r) => boots(r, 'Accepted')),
      );
      assert.equal(m.value('evsim_engine_nodes'), 2);
      const p50 = histogramQuantile(0.5, m.buckets('evsim_csms_answer_seconds', labels));
      // Not within 10 % here: this process also runs the embedded database both nodes write to,
      // so the central system's 300 ms answers really do leave it later (~345 ms measured).
      assert.ok(p50 >= 0.29 && p50 < 0.5, `${node.name}: p50 ${p50}`);
    }
  });

  test('csms-latency of either node counts every charger of the location', async () => {
    await settledRows();
    for (const node of fleet.nodes) {
      const res = await node.as(ORG)(
        'GET',
        `/evcharger/fleet/csms-latency?location_id=${locationId}&window=15m`,
      );
      assert.equal(res.status, 200, res.text);
      const authorize = res.body.items.find((i: { action: string }) => i.action === 'Authorize');
      assert.equal(authorize.count, CHARGERS, res.text);
      assert.ok(authorize.p50_ms >= 290 && authorize.p50_ms < 500, res.text);
      const boot = res.body.items.find((i: { action: string }) => i.action === 'BootNotification');
      assert.equal(boot.count, CHARGERS + PENDING, res.text);
    }
  });
});
