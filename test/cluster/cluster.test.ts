// Several nodes sharing one fleet (issue 15, docs/operations.md "Several nodes"): three nodes as
// child processes on one database and one broker, 300 chargers deployed through one node's API
// against the strict central system of this process, which counts every proxied DataTransfer by
// charger and messageId. A node killed with SIGKILL loses its leases after the TTL (3 s here) and
// the others claim its chargers, which come back online from their snapshots with no API call;
// the commands in flight at the kill end final, none run twice. A node stopped with SIGTERM hands
// its chargers over. A charge point connected to a killed node's built-in central system is
// shown offline.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { MODE } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { deploymentsOf, eventually, locationBody, type As } from '../deployments/deployment-helpers.ts';
import { FINAL, type CommandRecord } from '../commands/command-helpers.ts';
import { startFleet, type Fleet } from './fleet.ts';

const CHARGERS = 300;
const ORG = 'org-fleet';

interface Sent {
  id: string;
  identity: string;
  messageId: string;
}

describe(`three nodes sharing one fleet (${MODE})`, () => {
  let csms: StrictCsms;
  let fleet: Fleet;
  /** The API of node-a, which is never stopped. */
  let as: As;
  let locationId: string;
  const arrivals = new Map<string, number>();
  /** The transaction id the central system gave each charger's StartTransaction. */
  const started = new Map<string, number>();
  /** A charger of node-b with a session running at the kill. */
  let sessionOf = '';
  /** Chargers whose 'hold' DataTransfers get no answer (their commands stay sent). */
  let holdFrom = new Set<string>();
  /** A charge point connected to node-b's built-in central system from outside. */
  let outside: { close(opts?: { force?: boolean }): Promise<unknown> } | undefined;
  const OUTSIDE_ID = 'FLEET-OUTSIDE-1';

  before(async () => {
    csms = await startStrictCsms({
      handlers: {
        StartTransaction: (_p, client) => {
          const transactionId = 900_000 + started.size;
          started.set(client.identity ?? '', transactionId);
          return { transactionId, idTagInfo: { status: 'Accepted' } };
        },
        DataTransfer: (p, client) => {
          const key = `${client.identity} ${p.messageId}`;
          arrivals.set(key, (arrivals.get(key) ?? 0) + 1);
          if (p.messageId === 'hold' && holdFrom.has(client.identity ?? ''))
            return new Promise(() => undefined);
          return { status: 'Accepted' };
        },
      },
    });
    fleet = await startFleet(['node-a', 'node-b', 'node-c']);
    as = fleet.nodes[0].as(ORG);
    const res = await as('POST', '/evcharger/location', { body: locationBody('FLEET', CHARGERS, csms.url) });
    assert.equal(res.status, 202, res.text);
    locationId = res.body.location_id;
    await eventually(
      () => deploymentsOf(as, locationId),
      (list) => list.length === CHARGERS && list.every((d) => d.stage === 'online'),
      180_000,
    );
  });

  after(async () => {
    await outside?.close({ force: true }).catch(() => undefined);
    await fleet?.close();
    await csms?.close();
  });

  const leases = async () =>
    new Map(
      (
        await fleet.query<{ node_id: string; n: number }>(
          'SELECT node_id, count(*)::int AS n FROM evc_charger_leases GROUP BY node_id',
        )
      ).map((r) => [r.node_id, r.n]),
    );

  /** All chargers online again, as the API and the central system see them. */
  const allOnline = () =>
    eventually(
      async () => ({ list: await deploymentsOf(as, locationId), connected: csms.clients.size }),
      ({ list, connected }) =>
        list.length === CHARGERS && list.every((d) => d.stage === 'online') && connected >= CHARGERS,
      60_000,
    );

  test('300 chargers deployed through one node run across the three nodes, one lease each', async () => {
    const byNode = await leases();
    assert.deepEqual([...byNode.keys()].sort(), ['node-a', 'node-b', 'node-c']);
    assert.equal(
      [...byNode.values()].reduce((a, b) => a + b, 0),
      CHARGERS,
    );
    for (const [node, n] of byNode) assert.ok(n >= 50, `${node} holds ${n} chargers`);
    assert.equal(csms.clients.size, CHARGERS);
  });

  test('a charge point connected to the built-in central system of node-b shows online', async () => {
    const cp = await as('POST', '/cpo/charge-points', { body: { charge_point_id: OUTSIDE_ID } });
    assert.equal(cp.status, 201, cp.text);
    const { password } = (await as('POST', `/cpo/charge-points/${OUTSIDE_ID}/credentials`)).body;
    const client = new RPCClient({
      endpoint: fleet.nodes[1].url.replace(/^http/, 'ws') + '/ocpp',
      identity: OUTSIDE_ID,
      password,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
    } as unknown as ConstructorParameters<typeof RPCClient>[0]) as unknown as {
      connect(): Promise<unknown>;
      close(opts?: { force?: boolean }): Promise<unknown>;
    };
    await client.connect();
    outside = client;
    await eventually(
      async () => (await as('GET', `/cpo/charge-points/${OUTSIDE_ID}`)).body.is_online,
      (online) => online === true,
    );
  });

  test('a session starts on a charger held by node-b', async () => {
    const [row] = await fleet.query<{ identity: string }>(
      `SELECT d.identity FROM evc_charger_leases l JOIN evc_deployments d ON d.id = l.deployment_id
       WHERE l.node_id = 'node-b' ORDER BY d.identity LIMIT 1`,
    );
    sessionOf = row.identity;
    for (const [kind, payload] of [
      ['plug-in', undefined],
      ['present-token', { id_tag: 'FLEET-TAG' }],
    ] as const) {
      const res = await as('POST', `/evcharger/commands/${kind}`, {
        body: { target: { identity: sessionOf }, ...(payload ? { payload } : {}) },
      });
      assert.equal(res.status, 202, res.text);
    }
    await csms.waitFor(() => started.has(sessionOf), 30_000);
    // Its snapshot with the session is written (behind, in batches) before the kill.
    await eventually(
      () =>
        fleet.query<{ has: boolean }>(
          `SELECT snapshot::text LIKE '%' || $2 || '%' AS has FROM evc_deployments WHERE identity = $1`,
          [sessionOf, String(started.get(sessionOf))],
        ),
      (rows) => rows[0]?.has === true,
    );
  });

  /** One proxied DataTransfer per charger of the location, through node-a's API. */
  async function queue(messageId: string): Promise<Sent[]> {
    const res = await as('POST', '/evcharger/commands/proxy-message', {
      body: {
        target: { location_id: locationId },
        payload: { action: 'DataTransfer', payload: { vendorId: 'evsim', messageId } },
      },
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.queued_count, CHARGERS, res.text);
    return res.body.results.map((r: any) => ({ id: r.command.id, identity: r.identity, messageId }));
  }

  const statuses = async (sent: Sent[]) =>
    new Map(
      (
        await fleet.query<{ id: string; status: string }>(
          'SELECT id::text AS id, status FROM evc_commands WHERE id = ANY($1::uuid[])',
          [sent.map((s) => s.id)],
        )
      ).map((r) => [r.id, r.status]),
    );

  test('SIGKILL of node-b: its chargers are claimed by the others and online again with no API call; commands in flight end final, none runs twice', async (t) => {
    const before = await leases();
    const onB = new Set(
      (
        await fleet.query<{ identity: string }>(
          `SELECT d.identity FROM evc_charger_leases l JOIN evc_deployments d ON d.id = l.deployment_id
           WHERE l.node_id = 'node-b'`,
        )
      ).map((r) => r.identity),
    );
    assert.ok(onB.size > 0);
    // node-b's chargers get no answer to 'hold': their commands stay handed over (sent) at the kill.
    holdFrom = onB;
    const handedOver = await queue('hold');
    const onBHeld = handedOver.filter((s) => onB.has(s.identity));
    await eventually(
      () => statuses(onBHeld),
      (st) => onBHeld.every((s) => st.get(s.id) === 'sent'),
      30_000,
    );
    // Frozen, node-b takes nothing: its chargers' commands of 'queued' stay queued at the kill.
    fleet.nodes[1].freeze();
    const notTaken = await queue('queued');
    await fleet.nodes[1].kill9();
    const atKill = await statuses([...handedOver, ...notTaken]);

    await eventually(
      leases,
      (byNode) =>
        !byNode.has('node-b') && (byNode.get('node-a') ?? 0) + (byNode.get('node-c') ?? 0) === CHARGERS,
      60_000,
    );
    await allOnline();
    const after = await leases();
    assert.ok((after.get('node-a') ?? 0) > (before.get('node-a') ?? 0), 'node-a claimed some');
    assert.ok((after.get('node-c') ?? 0) > (before.get('node-c') ?? 0), 'node-c claimed some');

    const sent = [...handedOver, ...notTaken];
    const records = new Map<string, CommandRecord>();
    await eventually(
      async () => {
        for (const s of sent)
          if (!FINAL.includes(records.get(s.id)?.status ?? '')) {
            const r = await as<CommandRecord>('GET', `/evcharger/commands/${s.id}`);
            if (r.status === 200) records.set(s.id, r.body);
          }
        return sent.filter((s) => !FINAL.includes(records.get(s.id)?.status ?? '')).length;
      },
      (open) => open === 0,
      90_000,
    );
    const tally: Record<string, number> = {};
    for (const s of sent) {
      const record = records.get(s.id)!;
      const seen = arrivals.get(`${s.identity} ${s.messageId}`) ?? 0;
      const was = atKill.get(s.id);
      const key = `${onB.has(s.identity) ? 'node-b' : 'other'} ${s.messageId} ${was} -> ${record.status}`;
      tally[key] = (tally[key] ?? 0) + 1;
      assert.ok(seen <= 1, `${s.identity} ${s.messageId} reached the central system ${seen} times`);
      if (onB.has(s.identity) && was === 'sent') {
        // Handed to a charger of the killed node with no outcome: it may have run, so never again.
        assert.equal(record.status, 'interrupted', JSON.stringify(record));
        assert.equal(record.error?.code, 'INTERRUPTED');
      } else {
        // Never handed over at node-b (or run by a live node): runs exactly once.
        assert.equal(record.status, 'completed', `${key}: ${JSON.stringify(record)}`);
        assert.equal(seen, 1, `${s.identity} ${s.messageId} ran once`);
      }
    }
    assert.ok(
      notTaken.some((s) => onB.has(s.identity) && atKill.get(s.id) === 'queued'),
      'some commands of node-b were not taken at the kill',
    );
    t.diagnostic(`commands (node, command, status at the kill -> final): ${JSON.stringify(tally)}`);
    assert.deepEqual(csms.schemaErrors, []);
  });

  test('the session running on node-b at the kill goes on at the claimer: unplugged there, it stops with the transaction id it started with', async () => {
    const from = csms.received.length;
    const res = await as('POST', '/evcharger/commands/unplug', { body: { target: { identity: sessionOf } } });
    assert.equal(res.status, 202, res.text);
    const stop = await csms.waitFor(
      () => csms.received.slice(from).find((r) => r.identity === sessionOf && r.action === 'StopTransaction'),
      30_000,
    );
    assert.equal((stop.params as { transactionId: number }).transactionId, started.get(sessionOf));
    assert.equal(started.size, 1, 'no new transaction was started');
  });

  test('a charge point connected to the killed node-b is shown offline', async () => {
    await eventually(
      async () => (await as('GET', `/cpo/charge-points/${OUTSIDE_ID}`)).body.is_online,
      (online) => online === false,
      30_000,
    );
  });

  test('SIGTERM of node-c hands its chargers over: none is lost', async () => {
    await fleet.nodes[2].terminate();
    await eventually(leases, (byNode) => byNode.size === 1 && byNode.get('node-a') === CHARGERS, 60_000);
    await allOnline();
    assert.deepEqual(csms.schemaErrors, []);
  });
});
