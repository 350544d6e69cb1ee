// The charge point view of the built-in central system in a real headless Chromium: a strict
// ocpp-rpc client connected as the charge point, an OCPP call sent from the page's form, its answer
// shown, a CALLERROR and a schema violation shown as such, and the call in the page's live log.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { RPCClient, createRPCError } from 'ocpp-rpc';
import { startTestService, type TestService } from '../support/service.ts';
import { aChargePointId } from '../cpo/builders.ts';
import { inBrowser, launch, openPage } from './browser.ts';

type Json = any;
interface Client {
  connect(): Promise<unknown>;
  handle(method: string, handler: (call: { params: Json }) => Json): void;
  close(opts?: { force?: boolean }): Promise<unknown>;
}

let svc: TestService;
let browser: Browser;
let client: Client | undefined;

before(async () => {
  [svc, browser] = await Promise.all([startTestService(), launch()]);
});
after(async () => {
  await client?.close({ force: true }).catch(() => undefined);
  await browser?.close();
  await svc?.close();
});

test(
  'the charge point view sends an OCPP call from its form and shows the answer, a CALLERROR and a bad payload',
  inBrowser(async (t) => {
    const as = svc.as('org-a');
    const id = aChargePointId('CON');
    assert.equal((await as('POST', '/cpo/charge-points', { body: { charge_point_id: id } })).status, 201);
    const { password } = (await as('POST', `/cpo/charge-points/${id}/credentials`)).body;
    const options = {
      endpoint: svc.url.replace(/^http/, 'ws') + '/ocpp',
      identity: id,
      password,
      protocols: ['ocpp2.0.1'],
      strictMode: true,
      reconnect: false,
    };
    client = new RPCClient(
      options as unknown as ConstructorParameters<typeof RPCClient>[0],
    ) as unknown as Client;
    await client.connect();
    const received: Json[] = [];
    client.handle('GetVariables', ({ params }) => {
      received.push(params);
      return {
        getVariableResult: params.getVariableData.map((d: Json) => ({
          attributeStatus: 'Accepted',
          attributeValue: '300',
          component: d.component,
          variable: d.variable,
        })),
      };
    });
    client.handle('Reset', () => {
      throw createRPCError('InternalError', 'relay stuck');
    });

    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/ui/?token=${await svc.token('org-a')}#/charge-points/${id}`);
    await page.getByTestId('cp-online').getByText('connected').waitFor();
    const answer = page.getByTestId('call-answer');

    // A preset: the example payload of 2.0.1 GetVariables, answered with a CALLRESULT.
    await page.locator('select[name="call-action"]').selectOption('GetVariables');
    await page.getByRole('button', { name: 'Send' }).click();
    await answer.and(page.locator('[data-kind="callresult"]')).waitFor();
    assert.match((await answer.textContent()) ?? '', /"attributeValue": "300"/);
    assert.deepEqual(received, [
      {
        getVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } }],
      },
    ]);

    // The charge point's CALLERROR is shown with its code.
    await page.locator('select[name="call-action"]').selectOption('Reset');
    await page.getByRole('button', { name: 'Send' }).click();
    await answer.and(page.locator('[data-kind="callerror"]')).waitFor();
    assert.match((await answer.textContent()) ?? '', /CALLERROR InternalError[\s\S]*relay stuck/);

    // A payload that breaks the schema is refused before it is sent, naming the field.
    await page.locator('select[name="call-action"]').selectOption('');
    await page.locator('input[name="call-other-action"]').fill('ClearCache');
    await page.locator('textarea[name="call-payload"]').fill('{"unexpected": 1}');
    await page.getByRole('button', { name: 'Send' }).click();
    await answer.and(page.locator('[data-kind="error"]')).waitFor();
    assert.match((await answer.textContent()) ?? '', /HTTP 422[\s\S]*body\.payload\.unexpected/);

    // The live log seen from the central system has the GetVariables exchange.
    const log = page.locator('[data-testid="ocpp-log"] li[data-action="GetVariables"]');
    await log
      .filter({ has: page.locator('.type', { hasText: 'CALLRESULT' }) })
      .first()
      .waitFor();
    assert.equal(
      await page
        .locator('[data-testid="ocpp-log"] li.out[data-type="CALL"][data-action="GetVariables"]')
        .count(),
      1,
    );
  }),
);
