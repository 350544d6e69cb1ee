// The fleet view of the console in a real headless Chromium with 1,005 chargers: the service pages
// and filters (the browser holds one page), and the counts come from the service. A failing test
// leaves a screenshot in reports/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { DUAL_MODEL, eventually, type As } from '../deployments/deployment-helpers.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { inBrowser, launch, openPage } from './browser.ts';

let svc: TestService;
let as: As;
let browser: Browser;
let csms: StrictCsms;

// A central system of their own: the chargers skip the built-in one's registration and credentials.
const group = (prefix: string, count: number) => ({
  name: `${prefix} site`,
  ocpp_version: 'ocpp1.6',
  charger_groups: [
    { count, identity_prefix: prefix, brand_slug: 'abb', model: DUAL_MODEL, ws_url: csms.url },
  ],
});

before(async () => {
  [svc, browser, csms] = await Promise.all([startTestService(), launch(), startStrictCsms()]);
  as = svc.as('org-a');
  const bulk = await as('POST', '/evcharger/location', { body: group('BULK-', 1000) });
  assert.equal(bulk.status, 202, bulk.text);
  const idle = await as('POST', '/evcharger/location', { body: group('IDLE-', 5) });
  assert.equal(idle.status, 202, idle.text);
  await eventually(
    () => as('GET', '/evcharger/fleet/summary'),
    (r) => r.body.total === 1005,
    300_000,
  );
  await as('POST', '/evcharger/deployment-runtime-ops', {
    body: { action: 'stop', location_id: idle.body.location_id },
  });
  await eventually(
    () => as('GET', '/evcharger/fleet/summary'),
    (r) => r.body.stages.stopped === 5,
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
  await page.goto(`${svc.url}/ui/?token=${await svc.token('org-a')}`);
  await page.getByRole('heading', { name: 'Fleet' }).waitFor();
  return page;
}

const identities = (page: Page) =>
  page
    .locator('table.deployments tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-identity')));

test(
  'the fleet of 1,005 chargers is shown a page of 50 at a time, and Next reads the next page from the service',
  inBrowser(async (t) => {
    const page = await fleetPage(t);
    await page.getByTestId('count-total').getByText('1005').waitFor();
    await page.getByTestId('range').getByText('1–50 of 1005').waitFor();
    assert.equal((await identities(page)).length, 50);
    assert.equal((await identities(page))[0], 'BULK-001');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('range').getByText('51–100 of 1005').waitFor();
    assert.equal((await identities(page))[0], 'BULK-051');
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByTestId('range').getByText('1–50 of 1005').waitFor();
  }),
);

test(
  'searching an identity part shows only the matching chargers',
  inBrowser(async (t) => {
    const page = await fleetPage(t);
    await page.locator('input[name="q"]').fill('bulk-99');
    await page.getByTestId('range').getByText('1–10 of 10').waitFor();
    assert.deepEqual(
      await identities(page),
      Array.from({ length: 10 }, (_x, i) => `BULK-99${i}`),
    );
  }),
);

test(
  'a stage count filters the table to that stage',
  inBrowser(async (t) => {
    const page = await fleetPage(t);
    await page.getByTestId('count-stopped').getByText('5').click();
    await page.getByTestId('range').getByText('1–5 of 5').waitFor();
    assert.deepEqual(await identities(page), ['IDLE-001', 'IDLE-002', 'IDLE-003', 'IDLE-004', 'IDLE-005']);
    const stages = await page.getByTestId('stage').allTextContents();
    assert.deepEqual(stages, ['stopped', 'stopped', 'stopped', 'stopped', 'stopped']);
  }),
);
