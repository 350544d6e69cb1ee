// Commands across a crash (issue 13, docs/commands.md), the fixture of the crash-*.test.ts files (one
// test each, so the three run side by side): the service runs as a child process with
// five chargers against the strict central system of this process, which counts every proxied
// DataTransfer by charger and messageId. The service is killed with SIGKILL and started again on
// the same data. What the database said at the moment of the kill decides what each command must
// end as: queued or received (never handed to a charger) -> run after the restart, exactly once;
// sent (handed over, no outcome recorded) -> interrupted, never run again; final -> unchanged.
// The central system can hold its answers (commands stay sent) and its BootNotification answers
// (restarted chargers are not back, so their commands stay received); for messageIds starting with
// `wire` it answers the first ANSWERED of each charger and holds the next one's answer: that
// command is on the wire, and the charger's later ones wait behind it (one per charger at a time).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import type { TestResponse } from '../support/service.ts';
import { deploymentsOf, eventually, locationBody, type As } from '../deployments/deployment-helpers.ts';
import { startChildService, type ChildService } from '../support/child-service.ts';
import { FINAL, type CommandRecord } from './command-helpers.ts';

export const CHARGERS = 5;
/** `wire` messages each charger has answered before the one whose answer is held. */
export const ANSWERED = 10;
const PER_CHARGER = 100;
/** Requests in flight at once while queueing. */
const PARALLEL = 10;

interface CommandPage {
  items: CommandRecord[];
  next_offset: number | null;
}

export interface Sent {
  id: string;
  identity: string;
  messageId: string;
}

/** Registers the describe block's before/after: a child service with CHARGERS chargers online. */
export function crashFixture() {
  let csms: StrictCsms;
  let svc: ChildService;
  let as: As;
  let locationId: string;
  /** DataTransfers the central system received, by `${identity} ${messageId}`, with the service run. */
  const arrivals = new Map<string, number[]>();
  let run = 1;
  /** Answers the central system holds back (messageId starting with `hold`), released at the end. */
  const held: Array<() => void> = [];
  /** While true, BootNotifications are not answered: a charger that reconnects stays registering. */
  let holdBoots = false;
  const heldBoots: Array<() => void> = [];
  /** `wire` DataTransfers by charger, and the ones whose answer is held (`${identity} ${messageId}`). */
  const wireCount = new Map<string, number>();
  const onWire: string[] = [];

  before(async () => {
    csms = await startStrictCsms({
      handlers: {
        BootNotification: () => {
          const accepted = { status: 'Accepted', currentTime: new Date().toISOString(), interval: 300 };
          if (!holdBoots) return accepted;
          return new Promise((resolve) => heldBoots.push(() => resolve(accepted)));
        },
        DataTransfer: (p, client) => {
          const key = `${client.identity} ${p.messageId}`;
          arrivals.set(key, [...(arrivals.get(key) ?? []), run]);
          if (String(p.messageId).startsWith('hold'))
            return new Promise((resolve) => held.push(() => resolve({ status: 'Accepted' })));
          if (String(p.messageId).startsWith('wire')) {
            const n = (wireCount.get(String(client.identity)) ?? 0) + 1;
            wireCount.set(String(client.identity), n);
            if (n === ANSWERED + 1) {
              onWire.push(key);
              return new Promise((resolve) => held.push(() => resolve({ status: 'Accepted' })));
            }
          }
          return { status: 'Accepted' };
        },
      },
    });
    // Deadlines are not what these tests look at: a loaded machine may take a minute to get the
    // chargers back, and a command must not time out meanwhile.
    svc = await startChildService({ COMMAND_TIMEOUT_MS: '600000' });
    as = svc.as('org-crash');
    const res = await as('POST', '/evcharger/location', { body: locationBody('CRASH', CHARGERS, csms.url) });
    assert.equal(res.status, 202, res.text);
    locationId = res.body.location_id;
    await eventually(
      () => deploymentsOf(as, locationId),
      (list) => list.length === CHARGERS && list.every((d) => d.stage === 'online'),
      30_000,
    );
  });

  after(async () => {
    for (const answer of [...held, ...heldBoots]) answer();
    await svc?.close();
    await csms?.close();
  });

  /** `count` location-wide proxy DataTransfers: one command per charger each; all must be 202. */
  async function queue(prefix: string, count = PER_CHARGER): Promise<Sent[]> {
    const sent: Sent[] = [];
    for (let i = 0; i < count; i += PARALLEL) {
      const batch = Array.from({ length: Math.min(PARALLEL, count - i) }, async (_x, j) => {
        const messageId = `${prefix}-${i + j}`;
        const res = await as('POST', '/evcharger/commands/proxy-message', {
          body: {
            target: { location_id: locationId },
            payload: { action: 'DataTransfer', payload: { vendorId: 'evsim', messageId } },
          },
        });
        assert.equal(res.status, 202, res.text);
        assert.equal(res.body.queued_count, CHARGERS, res.text);
        for (const r of res.body.results) sent.push({ id: r.command.id, identity: r.identity, messageId });
      });
      await Promise.all(batch);
    }
    assert.equal(sent.length, CHARGERS * count);
    return sent;
  }

  async function statusesInDatabase(): Promise<Map<string, string>> {
    const rows = await svc.queryWhileDown<{ id: string; status: string }>(
      'SELECT id::text AS id, status FROM evc_commands',
    );
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  /** Polls the command list (every status; a few requests, not one per command) until all are final. */
  async function finalRecords(sent: Sent[]): Promise<Map<string, CommandRecord>> {
    const wanted = new Set(sent.map((s) => s.id));
    const records = new Map<string, CommandRecord>();
    await eventually(
      async () => {
        for (let offset: number | null = 0; offset !== null;) {
          const res: TestResponse<CommandPage> = await as<CommandPage>(
            'GET',
            `/evcharger/commands?limit=500&offset=${offset}`,
          );
          assert.equal(res.status, 200, res.text);
          for (const r of res.body.items) if (wanted.has(r.id)) records.set(r.id, r);
          offset = res.body.next_offset;
        }
        return sent.filter((s) => !FINAL.includes(records.get(s.id)?.status ?? '')).length;
      },
      (open) => open === 0,
      // Commands behind one on the wire run one per charger at a time after the restart.
      60_000,
    );
    return records;
  }

  const arrivalsOf = (s: Sent) => arrivals.get(`${s.identity} ${s.messageId}`) ?? [];

  /** Polls E16 until every command has the status. */
  const allAt = (sent: Sent[], status: string) =>
    eventually(
      async () => {
        const records = await Promise.all(
          sent.map((s) =>
            as<CommandRecord>('GET', `/evcharger/commands/${s.id}`).then((r) => r.body?.status),
          ),
        );
        return records.filter((st) => st === status).length;
      },
      (n) => n === sent.length,
      30_000,
    );

  const bootsIn = (from: number) =>
    new Set(
      csms.received
        .slice(from)
        .filter((r) => r.action === 'BootNotification')
        .map((r) => r.identity),
    ).size;

  return {
    csms: () => csms,
    svc: () => svc,
    as: () => as,
    locationId: () => locationId,
    /** Numbers the service's runs: arrivals record the run they came in. */
    setRun: (n: number) => void (run = n),
    setHoldBoots: (hold: boolean) => void (holdBoots = hold),
    /** The `wire` commands whose answer the central system holds (`${identity} ${messageId}`). */
    onWire: (): readonly string[] => onWire,
    queue,
    statusesInDatabase,
    finalRecords,
    arrivalsOf,
    allAt,
    bootsIn,
  };
}
