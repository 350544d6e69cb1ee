// Scenario runs from the console in a real headless Chromium against the whole service (built-in
// central system): a ready scenario chosen on the page runs and its steps pass with the frames that
// proved them; a pasted one whose expectation fails shows the failed step and the frame that
// disproved it; a document with a mistake is refused naming its place. A failing test leaves a
// screenshot in reports/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { inBrowser, launch, openPage } from './browser.ts';

let svc: TestService;
let browser: Browser;

before(async () => {
  [svc, browser] = await Promise.all([startTestService(), launch()]);
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

async function scenariosPage(t: Parameters<typeof openPage>[1]): Promise<Page> {
  const page = await openPage(browser, t);
  await page.goto(`${svc.url}/ui/?token=${await svc.token('org-a')}#/scenarios`);
  await page.getByRole('heading', { name: 'Scenarios' }).waitFor();
  return page;
}

const step = (page: Page, path: string) => page.locator(`[data-testid="steps"] li[data-path="${path}"]`);

test(
  'a ready scenario chosen on the page runs to passed, each expectation with the frames that proved it',
  inBrowser(async (t) => {
    const page = await scenariosPage(t);
    await page
      .locator('select[name="ready"] option[value="ocpp16/boot.yaml"]')
      .waitFor({ state: 'attached' });
    await page.locator('select[name="ready"]').selectOption('ocpp16/boot.yaml');
    // The document's text is in the editor, ready to change or run as it is.
    assert.equal(
      await page.locator('textarea[name="scenario"]').inputValue(),
      readFileSync('scenarios/ocpp16/boot.yaml', 'utf8'),
    );
    await page.getByRole('button', { name: 'Start the run' }).click();

    await page.getByTestId('run-status').getByText('passed').waitFor({ timeout: 60_000 });
    const runId = new URL(page.url()).hash.split('/').pop()!;
    const run = (await svc.as('org-a')('GET', `/scenario-runs/${runId}`)).body;
    assert.equal(run.status, 'passed');
    await page
      .getByTestId('run-result')
      .getByText(`${run.expectations.passed} expectations held, 0 failed`)
      .waitFor();
    // Every step the service reports is on the page with its status.
    for (const s of run.steps)
      assert.equal(await step(page, s.path).getAttribute('data-status'), s.status, `step ${s.path}`);

    // The boot step's proof: the BootNotification answer, opened to its JSON.
    const boot = step(page, '0');
    await boot.getByRole('button', { name: /show \d+ frames?/ }).click();
    const frame = boot.locator('li[data-action="BootNotification"][data-type="CALLRESULT"]').first();
    await frame.getByRole('button').click();
    const json = JSON.parse((await frame.locator('pre').textContent())!);
    assert.equal(json[0], 3);
    assert.equal(json[2].status, 'Accepted');

    // The run is in the list of runs.
    await page.getByRole('link', { name: '← all scenario runs' }).click();
    await page.locator(`tr[data-run="${runId}"]`).getByText('passed').waitFor();
  }),
);

const FAILING = `name: pasted, expects a status that never comes
chargers: [{ id: cp, ocpp_version: ocpp1.6 }]
steps:
  - expect_status: { connector: 1, status: Charging, within_s: 2 }
`;

test(
  'a pasted scenario whose expectation fails shows the failed step, why, and the frame that disproved it',
  inBrowser(async (t) => {
    const page = await scenariosPage(t);
    await page.locator('textarea[name="scenario"]').fill(FAILING);
    await page.getByRole('button', { name: 'Start the run' }).click();
    await page.getByTestId('run-status').getByText('failed').waitFor({ timeout: 60_000 });
    await page
      .getByTestId('run-result')
      .getByText('1 expectation held, 1 failed', { exact: false })
      .waitFor();
    const failed = step(page, '1');
    assert.equal(await failed.getAttribute('data-status'), 'failed');
    await failed.getByText(/connector 1 of .* is Available, not Charging/).waitFor();
    // A failed step's frames are open at once: the StatusNotification that said Available.
    const frame = failed.locator('li[data-action="StatusNotification"][data-type="CALL"]').first();
    await frame.getByRole('button').click();
    const json = JSON.parse((await frame.locator('pre').textContent())!);
    assert.equal(json[3].status, 'Available');
  }),
);

test(
  'a document with a mistake is refused, naming its place, and no run starts',
  inBrowser(async (t) => {
    const page = await scenariosPage(t);
    const before = (await svc.as('org-a')('GET', '/scenario-runs')).body.items.length;
    await page
      .locator('textarea[name="scenario"]')
      .fill('name: bad\nchargers: [{ id: cp }]\nsteps:\n  - plug_in: { connector: zero }\n');
    await page.getByRole('button', { name: 'Start the run' }).click();
    await page
      .getByTestId('scenario-error')
      .getByText(/body\.scenario\.steps\.0\.plug_in\.connector/)
      .waitFor();
    assert.equal(new URL(page.url()).hash, '#/scenarios');
    assert.equal((await svc.as('org-a')('GET', '/scenario-runs')).body.items.length, before);
  }),
);
