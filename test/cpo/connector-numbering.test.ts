// The one connector numbering of docs/cpo.md, held on a real run: a virtual charger of a
// 2-connector model on the built-in central system, its connector 2 plugged in, seen in the
// charger's detail, on the wire, and in what the central system recorded (CPO area).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestService, type TestService } from '../support/service.ts';
import { DUAL_MODEL, eventsOf, eventually, type As } from '../deployments/deployment-helpers.ts';
import { run } from '../commands/command-helpers.ts';
import { until } from './builders.ts';

type Json = any;

describe('one connector numbering', () => {
  let svc: TestService;
  let as: As;
  before(async () => {
    svc = await startTestService();
    as = svc.as('org-numbering');
  });
  after(() => svc.close());

  test('docs/cpo.md explains it', () => {
    const doc = readFileSync('docs/cpo.md', 'utf8');
    assert.ok(/^## Connector numbering$/m.test(doc), 'docs/cpo.md has a section "Connector numbering"');
  });

  const CASES = [
    {
      version: 'ocpp1.6',
      command: { connector_id: 2 },
      detailEvse: null,
      wire: { connectorId: 2 },
      reported: 'Preparing',
    },
    {
      version: 'ocpp2.0.1',
      command: { evse_id: 2 },
      detailEvse: 2,
      wire: { evseId: 2, connectorId: 1 },
      reported: 'Occupied',
    },
  ] as const;
  for (const c of CASES) {
    test(`${c.version}: connector 2 is connector_id 2 in the detail and EVSE 2, connector 1 in the CPO area`, async () => {
      const identity = `NUM-${c.version.replace(/\W/g, '')}`;
      const res = await as('POST', '/evcharger/deployment', {
        body: { identity, model: DUAL_MODEL, ocpp_version: c.version },
      });
      assert.equal(res.status, 201, res.text);
      const target = { deployment_id: res.body.deployment_id };
      await eventually(
        () => eventsOf(as, identity),
        (ev) => ev.some((e) => e.stage === 'online'),
      );
      assert.equal((await run(as, 'plug-in', { target, payload: c.command })).status, 'completed');

      // The detail is read from the charger's stored state, written behind.
      const second = await until(async () => {
        const detail = (await as('GET', `/evcharger/deployments/${target.deployment_id}`)).body;
        return detail.connectors.find((x: Json) => x.connector_id === 2 && x.status === 'Preparing');
      }, 'connector 2 Preparing in the detail');
      assert.equal(second.evse_id, c.detailEvse);

      // On the wire, as the central system's log has it.
      const status = await until(async () => {
        const page = (await as('GET', `/cpo/charge-points/${identity}/ocpp-log?limit=100`)).body;
        return page.items.find(
          (i: Json) =>
            i.type === 'CALL' &&
            i.action === 'StatusNotification' &&
            (i.frame[3].status ?? i.frame[3].connectorStatus) === c.reported,
        );
      }, `the ${c.reported} StatusNotification`);
      const sent = status.frame[3];
      for (const [k, v] of Object.entries(c.wire)) assert.equal(sent[k], v, `${k} on the wire`);

      const recorded = await until(async () => {
        const items = (await as('GET', `/cpo/charge-points/${identity}/connectors`)).body.items as Json[];
        return items.find((x) => x.status === c.reported);
      }, 'the recorded connector status');
      assert.equal(recorded.evse_id, 2);
      assert.equal(recorded.connector_id, 1);
    });
  }
});
