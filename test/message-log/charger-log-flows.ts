// The message log of a virtual charger against the strict independent central system (ocpp-rpc in
// strict mode), for one OCPP version: a whole life (boot, heartbeats, a charging session) through
// the endpoint and the stream, paging and filters, schema errors, masked secrets, isolation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../deployments/deployment-helpers.ts';
import { run } from '../commands/command-helpers.ts';
import {
  calls,
  indexAfter,
  logUntil,
  openEventStream,
  wholeLog,
  type LogItem,
  type LogPage,
} from './log-helpers.ts';

export function chargerLogFlows(version: 'ocpp1.6' | 'ocpp2.0.1'): void {
  const v16 = version === 'ocpp1.6';
  const ID = v16 ? 'LOG16-1' : 'LOG201-1';

  describe(`OCPP message log of a virtual charger, ${version} (${MODE})`, () => {
    let svc: TestService;
    let csms: StrictCsms;
    let as: As;
    let token: string;
    let deploymentId: string;
    let path: string;
    const setting = (key: string, component: string, variable: string, value: string) =>
      v16 ? { key, value } : { component, variable, value };
    const target = () => ({ deployment_id: deploymentId });

    before(async () => {
      csms = await startStrictCsms();
      svc = await startTestService();
      as = svc.as('org-log');
      token = await svc.token('org-log');
      const res = await as('POST', '/evcharger/deployment', {
        body: { identity: ID, model: DUAL_MODEL, ws_url: csms.url, ocpp_version: version },
      });
      assert.equal(res.status, 201, res.text);
      deploymentId = res.body.deployment_id;
      path = `/evcharger/deployments/${deploymentId}/ocpp-log`;
    });
    after(async () => {
      await svc.close();
      await csms.close();
    });

    test('boot, heartbeats and a whole charging session, in order, through the endpoint and the stream', async () => {
      // Opened right after the deployment: the replay and the live frames together hold everything.
      const stream = await openEventStream(`${svc.url}${path}/stream?replay=500`, token);
      assert.equal(stream.status, 200, stream.text);
      assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
      try {
        await eventually(
          () => eventsOf(as, ID),
          (ev) => ev.some((e) => e.stage === 'online'),
        );
        for (const [key, component, variable] of [
          ['HeartbeatInterval', 'OCPPCommCtrlr', 'HeartbeatInterval'],
          ['MeterValueSampleInterval', 'SampledDataCtrlr', 'TxUpdatedInterval'],
        ]) {
          const r = await run(as, 'configuration', {
            target: target(),
            payload: setting(key, component, variable, '1'),
          });
          assert.equal(r.status, 'completed', JSON.stringify(r));
        }
        await logUntil(as, path, (items) => calls(items).filter((c) => c === 'out:Heartbeat').length >= 2);
        assert.equal(
          (await run(as, 'plug-in', { target: target(), payload: { connector_id: 1 } })).status,
          'completed',
        );
        const presented = await run(as, 'present-token', {
          target: target(),
          payload: { id_tag: 'TAG-LOG', connector_id: 1 },
        });
        assert.equal(presented.status, 'completed', JSON.stringify(presented));
        const meterAction = v16 ? 'out:MeterValues' : 'out:TransactionEvent';
        await logUntil(as, path, (items) => calls(items).filter((c) => c === meterAction).length >= 3);
        assert.equal(
          (await run(as, 'unplug', { target: target(), payload: { connector_id: 1 } })).status,
          'completed',
        );
        const stopAction = v16 ? 'StopTransaction' : 'TransactionEvent';
        const items = await logUntil(as, path, (list) =>
          list.some(
            (i) =>
              i.type === 'CALL' &&
              i.action === stopAction &&
              (v16 || (i.frame as any[])[3].eventType === 'Ended'),
          ),
        );
        for (const [key, component, variable, value] of [
          ['HeartbeatInterval', 'OCPPCommCtrlr', 'HeartbeatInterval', '300'],
          ['MeterValueSampleInterval', 'SampledDataCtrlr', 'TxUpdatedInterval', '60'],
        ])
          await run(as, 'configuration', {
            target: target(),
            payload: setting(key, component, variable, value),
          });

        // Ids are strings increasing per charger; the log is oldest first here.
        for (let k = 1; k < items.length; k++)
          assert.ok(BigInt(items[k].id) > BigInt(items[k - 1].id), `ids increase at ${k}`);
        // Every item has the contract's shape; every answer names the action of the CALL it answers.
        const byId = new Map<string, LogItem>();
        for (const item of items) {
          assert.deepEqual(Object.keys(item), [
            'id',
            'at',
            'direction',
            'type',
            'message_id',
            'action',
            'frame',
            'error',
          ]);
          assert.ok(!Number.isNaN(Date.parse(item.at)));
          assert.equal(item.error, null, JSON.stringify(item));
          assert.equal((item.frame as unknown[])[1], item.message_id);
          if (item.type === 'CALL') {
            assert.equal(item.direction, 'out', 'this CSMS calls nothing here');
            assert.equal((item.frame as unknown[])[2], item.action);
            byId.set(item.message_id!, item);
          } else {
            assert.equal(item.type, 'CALLRESULT', JSON.stringify(item));
            assert.equal(item.direction, 'in');
            assert.equal(item.action, byId.get(item.message_id!)?.action, JSON.stringify(item));
          }
        }
        // What the central system itself saw: the same frames, in the same order.
        const seen = csms.frames.filter((f) => f.identity === ID).map((f) => JSON.parse(f.text));
        assert.deepEqual(
          items.map((i) => i.frame),
          seen.slice(0, items.length),
        );

        // The story in order.
        const actions = calls(items);
        const at = (action: string, from = -1) =>
          indexAfter(items, from, (i) => i.type === 'CALL' && i.action === action);
        const boot = at('BootNotification');
        assert.equal(boot, 0, actions.join(' '));
        assert.equal(items[1].action, 'BootNotification');
        assert.equal(items[1].type, 'CALLRESULT');
        assert.deepEqual((items[1].frame as any[])[2].status, 'Accepted');
        const heartbeat = at('Heartbeat', boot);
        assert.ok(heartbeat > boot);
        assert.ok(at('Heartbeat', heartbeat) > heartbeat, 'a second heartbeat');
        const authorize = at('Authorize', heartbeat);
        assert.ok(authorize > heartbeat, actions.join(' '));
        if (v16) {
          const start = at('StartTransaction', authorize);
          const meter = at('MeterValues', start);
          const stop = at('StopTransaction', meter);
          assert.ok(start > authorize && meter > start && stop > meter, actions.join(' '));
          assert.equal((items[start].frame as any[])[3].idTag, 'TAG-LOG');
        } else {
          const event = (type: string, from: number) =>
            indexAfter(
              items,
              from,
              (i) =>
                i.type === 'CALL' &&
                i.action === 'TransactionEvent' &&
                (i.frame as any[])[3].eventType === type,
            );
          const started = event('Started', authorize);
          const updated = event('Updated', started);
          const ended = event('Ended', updated);
          assert.ok(started > authorize && updated > started && ended > updated, actions.join(' '));
        }

        // The stream told the same story: every item, in the same order, nothing twice.
        const last = items[items.length - 1].id;
        await stream.waitFor(() => stream.items().some((i) => i.id === last));
        const streamed = stream.items();
        const upTo = streamed.findIndex((i) => i.id === last);
        assert.deepEqual(streamed.slice(0, upTo + 1), items);
        assert.ok(stream.events.every((e) => e.event === 'frame' && e.id === JSON.parse(e.data).id));
      } finally {
        stream.close();
      }
    });

    test('paging: pages of `limit` newest first, `before` returns older items, next_before null at the end', async () => {
      const all = (await wholeLog(as, path)).reverse();
      assert.ok(all.length >= 10, `${all.length} items`);
      const seen: LogItem[] = [];
      let before: string | null = null;
      let pages = 0;
      do {
        const res: { status: number; body: LogPage; text: string } = await as<LogPage>(
          'GET',
          `${path}?limit=3${before ? `&before=${before}` : ''}`,
        );
        assert.equal(res.status, 200, res.text);
        assert.ok(res.body.items.length <= 3);
        if (res.body.next_before !== null) {
          assert.equal(res.body.items.length, 3);
          assert.equal(res.body.next_before, res.body.items[2].id);
        }
        seen.push(...res.body.items);
        before = res.body.next_before;
        pages++;
      } while (before !== null && pages < 1000);
      // Newer frames may have come meanwhile: the pages walk back from the first page's newest.
      const from = all.findIndex((i) => i.id === seen[0].id);
      assert.deepEqual(seen, all.slice(from));
      for (let k = 1; k < seen.length; k++) assert.ok(BigInt(seen[k].id) < BigInt(seen[k - 1].id));

      const first = await as<LogPage>('GET', path);
      assert.equal(first.status, 200);
      // Frames written behind since `all` was read (the last test's SetVariables, a heartbeat) count too.
      const newer = first.body.items.filter((i) => BigInt(i.id) > BigInt(all[0].id)).length;
      assert.equal(first.body.items.length, Math.min(100, all.length + newer), 'limit defaults to 100');
      for (const [query, loc] of [
        ['limit=0', 'limit'],
        ['limit=501', 'limit'],
        ['before=abc', 'before'],
        ['direction=sideways', 'direction'],
      ]) {
        const bad = await as('GET', `${path}?${query}`);
        assert.equal(bad.status, 422, `${query}: ${bad.text}`);
        assert.deepEqual(bad.body.detail[0].loc, ['query', loc]);
      }
    });

    test('filters: action keeps a CALL with its answers; direction keeps one side; both combine', async () => {
      const heartbeats = await wholeLog(as, path, '&action=Heartbeat');
      assert.ok(heartbeats.length >= 4);
      assert.ok(heartbeats.every((i) => i.action === 'Heartbeat'));
      assert.deepEqual(new Set(heartbeats.map((i) => i.type)), new Set(['CALL', 'CALLRESULT']));
      const incoming = await wholeLog(as, path, '&direction=in');
      assert.ok(incoming.length > 0 && incoming.every((i) => i.direction === 'in'));
      const sent = await wholeLog(as, path, '&direction=out&action=Heartbeat');
      assert.ok(sent.length >= 2);
      assert.ok(sent.every((i) => i.direction === 'out' && i.type === 'CALL' && i.action === 'Heartbeat'));
      assert.deepEqual(await wholeLog(as, path, '&action=NoSuchAction'), []);
    });

    test('a frame that broke its schema, or was no frame at all, is logged with the error', async () => {
      csms.sendRaw(ID, '[2,"bad-schema-1","Reset",{"kind":"Hard"}]');
      csms.sendRaw(ID, 'this is not json');
      const items = await logUntil(as, path, (list) =>
        list.some((i) => i.direction === 'in' && i.type === null),
      );
      const bad = items.find((i) => i.message_id === 'bad-schema-1' && i.direction === 'in')!;
      assert.ok(bad, 'the invalid CALL is logged');
      assert.equal(bad.type, 'CALL');
      assert.equal(bad.action, 'Reset');
      assert.deepEqual(bad.frame, [2, 'bad-schema-1', 'Reset', { kind: 'Hard' }]);
      assert.match(bad.error ?? '', /Reset(Request)? .*(additional|required|kind|type)/i);
      const answer = items.find((i) => i.message_id === 'bad-schema-1' && i.direction === 'out')!;
      assert.equal(answer.type, 'CALLERROR');
      assert.equal(answer.action, 'Reset');
      const garbage = items.find((i) => i.direction === 'in' && i.type === null)!;
      assert.equal(garbage.frame, 'this is not json');
      assert.match(garbage.error ?? '', /not JSON/);
    });

    test('a secret the central system sends never appears in the log, the stream or the table', async () => {
      const SECRET = 'Sup3r-Secret-Key-0042';
      const connection = csms.clients.get(ID);
      const stream = await openEventStream(`${svc.url}${path}/stream`, token);
      try {
        const action = v16 ? 'ChangeConfiguration' : 'SetVariables';
        const payload = v16
          ? { key: 'AuthorizationKey', value: SECRET }
          : {
              setVariableData: [
                {
                  component: { name: 'SecurityCtrlr' },
                  variable: { name: 'BasicAuthPassword' },
                  attributeValue: SECRET,
                },
              ],
            };
        await csms.call(ID, action, payload);
        const items = await logUntil(as, path, (list) =>
          list.some((i) => i.action === action && i.type !== 'CALL' && i.direction === 'out'),
        );
        const call = items.find((i) => i.action === action && i.type === 'CALL')!;
        const sent = (call.frame as any[])[3];
        if (v16) assert.deepEqual(sent, { key: 'AuthorizationKey', value: '********' });
        else assert.equal(sent.setVariableData[0].attributeValue, '********');
        assert.ok(!JSON.stringify(items).includes(SECRET));
        await stream.waitFor((events) =>
          events.some((e) => e.data.includes(`"${action}"`) && /"CALLRESULT"|"CALLERROR"/.test(e.data)),
        );
        assert.ok(stream.events.length > 0);
        assert.ok(!stream.events.some((e) => e.data.includes(SECRET)));
        const { rows } = await svc.service.platform.db.query(
          'SELECT count(*)::int AS n FROM ocpp_log WHERE frame::text LIKE $1',
          [`%${SECRET}%`],
        );
        assert.deepEqual(rows, [{ n: 0 }]);
        // The charger connects again with the new credentials: the next test needs it back.
        await csms.waitFor(() => {
          const now = csms.clients.get(ID);
          return now !== undefined && now !== connection;
        }, 30_000);
      } finally {
        stream.close();
      }
    });

    test('a secret in a frame the charger cannot read is withheld from the log and the table', async () => {
      const SECRET = 'Broken-Frame-Secret-0077';
      // Cut short, so not JSON; and JSON of the wrong shape (a CALL with a fifth element).
      csms.sendRaw(ID, `[2,"cut-1","ChangeConfiguration",{"key":"AuthorizationKey","value":"${SECRET}"`);
      csms.sendRaw(
        ID,
        `[2,"shape-1","ChangeConfiguration",{"key":"AuthorizationKey","value":"${SECRET}"},1]`,
      );
      csms.sendRaw(ID, 'still not json, nothing hidden');
      // Frames are read in order: once the last is logged, so are the two before it.
      const items = await logUntil(as, path, (list) =>
        list.some((i) => i.frame === 'still not json, nothing hidden'),
      );
      assert.ok(!JSON.stringify(items).includes(SECRET), JSON.stringify(items));
      const unreadable = items.filter((i) => i.direction === 'in' && i.error !== null);
      assert.ok(
        unreadable.some((i) => i.frame === '********'),
        'the cut frame is withheld whole',
      );
      assert.ok(
        unreadable.some((i) => JSON.stringify(i.frame).includes('"value":"********"')),
        'the wrong-shaped one is masked field by field',
      );
      assert.ok(
        unreadable.some((i) => i.frame === 'still not json, nothing hidden'),
        'the rest is kept',
      );
      const { rows } = await svc.service.platform.db.query(
        'SELECT count(*)::int AS n FROM ocpp_log WHERE frame::text LIKE $1',
        [`%${SECRET}%`],
      );
      assert.deepEqual(rows, [{ n: 0 }]);
    });

    test("another organization's deployment, an unknown one and a malformed id are 404, the stream too", async () => {
      const other = svc.as('org-other');
      const otherToken = await svc.token('org-other');
      for (const p of [
        path,
        `/evcharger/deployments/00000000-0000-4000-8000-000000000000/ocpp-log`,
        '/evcharger/deployments/nope/ocpp-log',
      ]) {
        const who = p === path ? other : as;
        const res = await who('GET', p);
        assert.equal(res.status, 404, `${p}: ${res.text}`);
        assert.equal(typeof res.body.detail, 'string');
        const stream = await openEventStream(`${svc.url}${p}/stream`, p === path ? otherToken : token);
        assert.equal(stream.status, 404, `${p}/stream`);
        assert.equal(typeof JSON.parse(stream.text!).detail, 'string');
      }
    });
  });
}
