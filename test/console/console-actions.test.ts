// Signing in and the charger's other actions in a real headless Chromium: a pasted token, a refused
// one, a raw OCPP message and a fault the central system receives (each with its final status),
// and the alerts feed. A failing test leaves a screenshot in reports/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, eventually } from '../deployments/deployment-helpers.ts';
import { inBrowser, launch, openPage } from './browser.ts';

let svc: TestService;
let csms: StrictCsms;
let browser: Browser;

before(async () => {
  [svc, csms, browser] = await Promise.all([startTestService(), startStrictCsms(), launch()]);
});
after(async () => {
  await browser?.close();
  await svc?.close();
  await csms?.close();
});

async function commandStatus(page: Page, label: string): Promise<string> {
  const badge = page
    .locator(`[data-testid="commands"] li[data-label="${label}"]`)
    .first()
    .getByTestId('command-status');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const text = (await badge.textContent()) ?? '';
    if (!['sending', 'queued', 'received', 'sent'].includes(text)) return text;
    if (Date.now() > deadline) throw new Error(`${label} still ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test(
  'a pasted token signs in; a refused one is said so on the sign-in page',
  inBrowser(async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/ui/`);
    await page.locator('textarea[name="token"]').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.signin .error').waitFor();
    await page.locator('textarea[name="token"]').fill(await svc.token('org-a'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Fleet' }).waitFor();
    // Kept for the next visit.
    await page.reload();
    await page.getByRole('heading', { name: 'Fleet' }).waitFor();
  }),
);

test(
  'a raw OCPP message and a fault sent from the page reach the central system, each with its final status, and the log filters by action and direction',
  inBrowser(async (t) => {
    const as = svc.as('org-a');
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity: 'ACT-1', model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' },
    });
    assert.equal(res.status, 201, res.text);
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/ui/?token=${await svc.token('org-a')}#/chargers/${res.body.deployment_id}`);
    await page.getByTestId('charger-stage').getByText('online').waitFor();

    await page.locator('input[name="raw-action"]').fill('DataTransfer');
    await page.locator('input[name="raw-payload"]').fill('{"vendorId": "console", "data": "hello"}');
    await page.getByRole('button', { name: 'Send OCPP message' }).click();
    assert.equal(await commandStatus(page, 'raw DataTransfer'), 'completed');
    const sent = csms.received.find((c) => c.action === 'DataTransfer');
    assert.deepEqual(sent?.params, { vendorId: 'console', data: 'hello' });

    // The log's filters: the DataTransfer exchange only, then only what came in.
    const frames = page.locator('[data-testid="ocpp-log"] li');
    const shown = () =>
      frames.evaluateAll((li) =>
        li.map(
          (l) =>
            `${l.className.split(' ')[1]}:${l.getAttribute('data-type')}:${l.getAttribute('data-action')}`,
        ),
      );
    await page.locator('input[name="log-action"]').fill('datatransfer');
    await frames
      .filter({ has: page.locator('.type', { hasText: 'CALLRESULT' }) })
      .first()
      .waitFor();
    assert.deepEqual(await shown(), ['in:CALLRESULT:DataTransfer', 'out:CALL:DataTransfer']);
    await page.locator('select[name="log-direction"]').selectOption('in');
    assert.deepEqual(await shown(), ['in:CALLRESULT:DataTransfer']);
    await page.locator('select[name="log-direction"]').selectOption('');
    await page.locator('input[name="log-action"]').fill('');

    const connector = page.locator('.actions[data-connector="1"]');
    await connector.getByRole('button', { name: 'Fault', exact: true }).click();
    assert.equal(await commandStatus(page, 'fault #1'), 'completed');
    await page
      .locator('tr[data-connector="1"]')
      .getByTestId('connector-status')
      .getByText('Faulted')
      .waitFor();
    await csms.waitFor(() =>
      csms.received.find((c) => c.action === 'StatusNotification' && c.params.status === 'Faulted'),
    );
    await connector.getByRole('button', { name: 'Clear fault' }).click();
    assert.equal(await commandStatus(page, 'clear fault #1'), 'completed');
    await page
      .locator('tr[data-connector="1"]')
      .getByTestId('connector-status')
      .getByText('Available')
      .waitFor();
    assert.deepEqual(csms.schemaErrors, []);
  }),
);

test(
  'E10 alerts: a charger whose central system does not answer shows up in the alerts feed',
  inBrowser(async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/ui/?token=${await svc.token('org-b')}`);
    await page.getByRole('heading', { name: 'Fleet' }).waitFor();
    // A port nothing listens on: the connection is refused, a failed stage.
    const as = svc.as('org-b');
    const res = await as('POST', '/evcharger/deployment', {
      body: { identity: 'ALERT-1', model: DUAL_MODEL, ws_url: 'ws://127.0.0.1:9' },
    });
    assert.equal(res.status, 201, res.text);
    await eventually(
      () => as('GET', '/evcharger/deployment-runtime-ops/events?outcome=alerts&identity=ALERT-1'),
      (r) => r.body.events.length > 0,
    );
    await page.locator('.alerts li', { hasText: 'ALERT-1' }).first().waitFor();
    assert.match(
      (await page.locator('.alerts li').first().textContent())!,
      /ALERT-1.*failed.*WS_CONNECT_REFUSED/,
    );
  }),
);
