// Both sides of one wire: a virtual charger deployed without ws_url talks to the built-in central
// system, and each side logs what it saw. The deployment's log (`out` = sent by the charger) and
// the charge point's log (`out` = sent by the central system) hold the same frames, mirrored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import type { As } from '../deployments/deployment-helpers.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../deployments/deployment-helpers.ts';
import { run } from '../commands/command-helpers.ts';
import { calls, logUntil, openEventStream, type LogItem } from './log-helpers.ts';

const mirror = (d: LogItem['direction']) => (d === 'in' ? 'out' : 'in');

describe(`OCPP message log on both sides of the built-in central system (${MODE})`, () => {
  let svc: TestService;
  let as: As;
  let token: string;

  before(async () => {
    svc = await startTestService();
    as = svc.as('org-both');
    token = await svc.token('org-both');
  });
  after(() => svc.close());

  for (const version of ['ocpp1.6', 'ocpp2.0.1'] as const) {
    const ID = version === 'ocpp1.6' ? 'BOTH16-1' : 'BOTH201-1';

    test(`${version}: a charging session shows in the deployment's log and, mirrored, in the charge point's log and stream`, async () => {
      const res = await as('POST', '/evcharger/deployment', {
        body: { identity: ID, model: DUAL_MODEL, ocpp_version: version },
      });
      assert.equal(res.status, 201, res.text);
      const deploymentId = res.body.deployment_id;
      const chargerPath = `/evcharger/deployments/${deploymentId}/ocpp-log`;
      const cpPath = `/cpo/charge-points/${ID}/ocpp-log`;
      await eventually(
        () => eventsOf(as, ID),
        (ev) => ev.some((e) => e.stage === 'online'),
      );
      const stream = await openEventStream(`${svc.url}${cpPath}/stream?replay=500`, token);
      assert.equal(stream.status, 200, stream.text);
      try {
        const target = { deployment_id: deploymentId };
        assert.equal(
          (await run(as, 'plug-in', { target, payload: { connector_id: 1 } })).status,
          'completed',
        );
        const token16 = await run(as, 'present-token', {
          target,
          payload: { id_tag: 'TAG-BOTH', connector_id: 1 },
        });
        assert.equal(token16.status, 'completed', JSON.stringify(token16));
        assert.equal((await run(as, 'unplug', { target, payload: { connector_id: 1 } })).status, 'completed');
        const stop = version === 'ocpp1.6' ? 'StopTransaction' : 'TransactionEvent';
        const ended = (list: LogItem[]) =>
          list.some(
            (i) =>
              i.type === 'CALLRESULT' &&
              i.action === stop &&
              (version === 'ocpp1.6' ||
                list.some(
                  (c) =>
                    c.message_id === i.message_id &&
                    c.type === 'CALL' &&
                    (c.frame as any[])[3].eventType === 'Ended',
                )),
          );
        const charger = await logUntil(as, chargerPath, ended);
        const central = await logUntil(as, cpPath, ended);

        // The charger's side: its calls go out, in the order of a session.
        const story = calls(charger);
        assert.equal(story[0], 'out:BootNotification');
        for (const action of version === 'ocpp1.6'
          ? ['Authorize', 'StartTransaction', 'StopTransaction']
          : ['Authorize', 'TransactionEvent'])
          assert.ok(story.includes(`out:${action}`), story.join(' '));
        // The central system's side: the same frames, each in the other direction, same order.
        const fromCentral = central.map((i) => ({ ...i, id: '', at: '', direction: mirror(i.direction) }));
        const fromCharger = charger.map((i) => ({ ...i, id: '', at: '' }));
        const n = Math.min(fromCentral.length, fromCharger.length);
        assert.deepEqual(fromCentral.slice(0, n), fromCharger.slice(0, n));
        assert.equal(central[0].direction, 'in');
        assert.equal(central[1].direction, 'out');
        assert.equal(central[1].action, 'BootNotification');

        // The charge point's stream replayed and streamed the same items.
        const last = central[central.length - 1].id;
        await stream.waitFor(() => stream.items().some((i) => i.id === last));
        const streamed = stream.items();
        assert.deepEqual(streamed.slice(0, streamed.findIndex((i) => i.id === last) + 1), central);
      } finally {
        stream.close();
      }

      // Another organization sees no such charge point (its log and stream are 404 too).
      const other = await svc.as('org-elsewhere')('GET', cpPath);
      assert.equal(other.status, 404, other.text);
      const otherStream = await openEventStream(
        `${svc.url}${cpPath}/stream`,
        await svc.token('org-elsewhere'),
      );
      assert.equal(otherStream.status, 404);
    });
  }
});
