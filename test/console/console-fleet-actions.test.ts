// The fleet page's actions in a real headless Chromium: a location of 100 chargers stopped and
// started with the bulk action, a selection stopped and a row started with its quick action,
// identities in natural order and a charging connector's chip with its power.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { DUAL_MODEL, eventually, type As } from '../deployments/deployment-helpers.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { run } from '../commands/command-helpers.ts';
import { inBrowser, launch, openPage } from './browser.ts';

let svc: TestService;
let as: As;
let browser: Browser;
let csms: StrictCsms;
let locationId: string;
const ids = new Map<string, string>();

before(async () => {
  [svc, browser, csms] = await Promise.all([startTestService(), launch(), startStrictCsms()]);
  as = svc.as('org-bulk');
  const site = await as('POST', '/evcharger/location', {
    body: {
      name: 'Hundred site',
      ocpp_version: 'ocpp1.6',
      charger_groups: [
        { count: 100, identity_prefix: 'HUN-', brand_slug: 'abb', model: DUAL_MODEL, ws_url: csms.url },
      ],
    },
  });
  assert.equal(site.status, 202, site.text);
  locationId = site.body.location_id;
  // Two chargers of the built-in central system, named so that plain text order would be wrong.
  for (const identity of ['NAT-10', 'NAT-2']) {
    const res = await as('POST', '/evcharger/deployment', { body: { identity, model: DUAL_MODEL } });
    assert.equal(res.status, 201, res.text);
    ids.set(identity, res.body.deployment_id);
  }
  await eventually(
    () => as('GET', '/evcharger/fleet/summary'),
    (r) => r.body.stages.online === 102,
    300_000,
  );
});
after(async () => {
  await browser?.close();
  await svc?.close();
  await csms?.close();
});

async function fleetPage(t: Parameters<typeof openPage>[1]): Promise<Page> {
  const page = await openPage(browser, t);
  await page.goto(`${svc.url}/ui/?token=${await svc.token('org-bulk')}`);
  await page.getByRole('heading', { name: 'Fleet' }).waitFor();
  return page;
}

const identities = (page: Page) =>
  page
    .locator('table.deployments tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-identity')));

const stages = (page: Page) => page.getByTestId('stage').allTextContents();

/** Waits until the table shows `n` rows, every one in `stage` (the stream and reads catch up). */
const rowsIn = (page: Page, stage: string, n: number) =>
  eventually(
    () => stages(page),
    (s) => s.length === n && s.every((x) => x === stage),
    240_000,
  );

test(
  'a location of 100 chargers is stopped and started from the console with the bulk action',
  inBrowser(async (t) => {
    const page = await fleetPage(t);
    await page.locator('select[name="location"]').selectOption(locationId);
    await page.getByTestId('range').getByText('1–50 of 100').waitFor();
    const bulk = page.getByTestId('bulk-location');
    await bulk.getByText('Every charger of Hundred site (100)').waitFor();

    await bulk.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByTestId('bulk-progress').getByText('stop Hundred site: accepted').waitFor();
    await page.locator('select[name="stage"]').selectOption('stopped');
    await rowsIn(page, 'stopped', 50);
    await page.getByTestId('range').getByText('1–50 of 100').waitFor({ timeout: 240_000 });
    assert.deepEqual(
      await identities(page),
      Array.from({ length: 50 }, (_x, i) => `HUN-${String(i + 1).padStart(3, '0')}`),
    );

    await bulk.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByTestId('bulk-progress').getByText('start Hundred site: accepted').waitFor();
    await page.locator('select[name="stage"]').selectOption('online');
    await rowsIn(page, 'online', 50);
    await page.getByTestId('range').getByText('1–50 of 100').waitFor({ timeout: 240_000 });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('range').getByText('51–100 of 100').waitFor();
    assert.deepEqual(await stages(page), Array(50).fill('online'));
  }),
);

test(
  'identities show in natural order; a selection is stopped and a row started with its quick action',
  inBrowser(async (t) => {
    const page = await fleetPage(t);
    await page.locator('input[name="q"]').fill('nat-');
    await page.getByTestId('range').getByText('1–2 of 2').waitFor();
    assert.deepEqual(await identities(page), ['NAT-2', 'NAT-10']);

    const row = page.locator('tr[data-identity="NAT-10"]');
    await row.locator('input[name="select"]').check();
    const selection = page.getByTestId('bulk-selection');
    await selection.getByText('1 selected').waitFor();
    await selection.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByTestId('bulk-progress').getByText('stop: 1 of 1 accepted').waitFor();
    await row.getByTestId('stage').getByText('stopped').waitFor({ timeout: 120_000 });
    assert.equal(
      await page.locator('tr[data-identity="NAT-2"]').getByTestId('stage').textContent(),
      'online',
    );

    await row.getByRole('button', { name: 'Start', exact: true }).click();
    await row.getByTestId('stage').getByText('online').waitFor({ timeout: 120_000 });
    assert.equal(
      await row.getByRole('link', { name: 'Log' }).getAttribute('href'),
      `#/chargers/${ids.get('NAT-10')}`,
    );
  }),
);

test(
  "a charging connector's chip shows its status and power",
  inBrowser(async (t) => {
    const page = await fleetPage(t);
    await page.locator('input[name="q"]').fill('nat-2');
    const chips = page.locator('tr[data-identity="NAT-2"]').getByTestId('connector-chip');
    await chips.nth(1).waitFor();
    assert.deepEqual(await chips.evaluateAll((c) => c.map((x) => x.getAttribute('data-status'))), [
      'Available',
      'Available',
    ]);
    const target = { deployment_id: ids.get('NAT-2') };
    assert.equal((await run(as, 'plug-in', { target, payload: { connector_id: 2 } })).status, 'completed');
    const token = await run(as, 'present-token', { target, payload: { id_tag: 'TAG-UI', connector_id: 2 } });
    assert.equal(token.status, 'completed', JSON.stringify(token));
    // Read again every 5 s by the page: the chip turns to Charging and shows its power in kW.
    const charging = page.locator('tr[data-identity="NAT-2"] [data-status="Charging"]');
    await charging.waitFor();
    assert.match((await charging.textContent())!, /^2 \d+\.\d kW$/);
    assert.equal(await chips.first().getAttribute('data-status'), 'Available');
  }),
);

test(
  'deleting a selection asks first: dismissed, nothing goes; confirmed, the charger is gone',
  inBrowser(async (t) => {
    const page = await fleetPage(t);
    await page.locator('input[name="q"]').fill('nat-10');
    await page.getByTestId('range').getByText('1–1 of 1').waitFor();
    await page.locator('tr[data-identity="NAT-10"] input[name="select"]').check();
    const selection = page.getByTestId('bulk-selection');
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await selection.getByRole('button', { name: 'Delete' }).click();
    assert.deepEqual(asked, ['Delete 1 charger?']);
    assert.equal((await as('GET', `/evcharger/deployments/${ids.get('NAT-10')}`)).status, 200);

    page.once('dialog', (d) => void d.accept());
    await selection.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('bulk-progress').getByText('delete: 1 of 1 accepted').waitFor();
    await eventually(
      () => as('GET', `/evcharger/deployments/${ids.get('NAT-10')}`),
      (r) => r.status === 404,
      60_000,
    );
    await page.getByTestId('range').getByText('0–0 of 0').waitFor();
    assert.equal(await page.getByTestId('bulk-selection').count(), 0);
  }),
);
