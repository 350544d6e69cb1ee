// The console in a real headless Chromium against the whole service: a charger deployed from the
// page against a strict ocpp-rpc central system, driven through a charging session from the page,
// and deleted. A failing test leaves a screenshot in reports/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL } from '../deployments/deployment-helpers.ts';
import { inBrowser, launch, openPage } from './browser.ts';
import { createCertificateAuthority, issueCertificate } from '../../engine/platform/certificates/x509.ts';
import { makeCrl } from '../support/test-crl.ts';

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

const connector = (page: Page) => page.locator('tr[data-connector="1"]').first();
const actions = (page: Page) => page.locator('.actions[data-connector="1"]');

/** Waits until the newest command with this label reaches its final status, and returns it. */
async function finalStatus(page: Page, label: string): Promise<string> {
  const badge = page
    .locator(`[data-testid="commands"] li[data-label="${label}"]`)
    .first()
    .getByTestId('command-status');
  await assertEventually(
    async () => !['sending', 'queued', 'received', 'sent'].includes((await badge.textContent()) ?? ''),
  );
  return (await badge.textContent())!;
}

async function assertEventually(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens the deploy form and fills it: the catalog's dual model, one charger, the strict central system. */
async function fillDeployForm(page: Page, identity: string, version: 'ocpp1.6' | 'ocpp2.0.1'): Promise<void> {
  await page.getByRole('button', { name: 'Deploy chargers' }).click();
  await page.locator('select[name="brand"]').selectOption('abb');
  await page.locator(`select[name="model"] option[value="${DUAL_MODEL}"]`).waitFor({ state: 'attached' });
  await page.locator('select[name="model"]').selectOption(DUAL_MODEL);
  await page.locator('input[name="identity"]').fill(identity);
  await page.locator('input[name="ws_url"]').fill(csms.url);
  await page.locator('select[name="ocpp_version"]').selectOption(version);
}

test(
  'a charger deployed from the page charges through a session against a strict central system, then is stopped and deleted',
  inBrowser(async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/?token=${await svc.token('org-a')}`);
    // The token left the address bar once taken.
    await page.getByRole('heading', { name: 'Fleet' }).waitFor();
    assert.equal(new URL(page.url()).search, '');

    // Deploy: catalog model, one charger, the strict central system's URL, OCPP 1.6.
    await fillDeployForm(page, 'UI-1', 'ocpp1.6');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByTestId('deploy-result').getByText('Deployed UI-1').waitFor();

    // It appears in the table without a reload and goes online through the stage stream.
    const row = page.locator('tr[data-identity="UI-1"]');
    await row.getByTestId('stage').getByText('online').waitFor();
    await row.getByRole('link', { name: 'UI-1' }).click();
    await page.getByTestId('charger-stage').getByText('online').waitFor();
    await page
      .locator('[data-testid="ocpp-log"] li[data-action="BootNotification"][data-type="CALL"]')
      .waitFor();
    await page
      .locator('[data-testid="diagram"] rect.active[data-state="charger.deployed.session.online"]')
      .waitFor();

    // Meter values every second, so the chart moves while charging.
    await page.locator('input[name="config-key"]').fill('MeterValueSampleInterval');
    await page.locator('input[name="config-value"]').fill('1');
    await page.getByRole('button', { name: 'Change configuration' }).click();
    assert.equal(await finalStatus(page, 'configure MeterValueSampleInterval'), 'completed');

    await actions(page).getByRole('button', { name: 'Plug in' }).click();
    assert.equal(await finalStatus(page, 'plug in #1'), 'completed');
    await actions(page).locator('input[name="id_tag"]').fill('TAG-UI-1');
    await actions(page).getByRole('button', { name: 'Present token' }).click();
    assert.equal(await finalStatus(page, 'present token #1'), 'completed');
    await connector(page).getByTestId('connector-status').getByText('Charging').waitFor();

    // The chart has drawn samples at zero and above zero: the line moved.
    await assertEventually(async () => {
      const points =
        (await page.locator('[data-testid="power-chart"] polyline').first().getAttribute('points')) ?? '';
      const ys = new Set(points.split(' ').map((p) => p.split(',')[1]));
      return ys.size >= 2;
    });
    assert.notEqual(await connector(page).getByTestId('power').textContent(), '0.0 kW');

    // The StartTransaction frame, expanded, is the one the central system received.
    const start = page
      .locator('[data-testid="ocpp-log"] li[data-action="StartTransaction"][data-type="CALL"]')
      .first();
    await start.getByRole('button').click();
    const frame = JSON.parse((await start.locator('pre').textContent())!);
    assert.equal(frame[2], 'StartTransaction');
    assert.equal(frame[3].idTag, 'TAG-UI-1');
    const received = csms.received.find((c) => c.action === 'StartTransaction');
    assert.deepEqual(received?.params, frame[3]);
    assert.deepEqual(csms.schemaErrors, []);

    // Stop: the charger leaves the central system and the page shows it stopped.
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByTestId('runtime-status').getByText('stop: accepted').waitFor();
    await page.getByTestId('charger-stage').getByText('stopped').waitFor();

    // Delete (the page asks first).
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted.').waitFor();
    const id = new URL(page.url()).hash.split('/').pop();
    assert.equal((await svc.as('org-a')('GET', `/evcharger/deployments/${id}`)).status, 404);
  }),
);

test(
  'revocation lists typed in the deploy form reach the charger: text that is not one is refused naming crl_pem, a real one makes a revoked firmware signer RevokedCertificate',
  inBrowser(async (t) => {
    const authority = await createCertificateAuthority('evsim console CRL CA');
    const signer = await issueCertificate(authority, { commonName: 'EVSim Firmware Signing (revoked)' });
    const crl = await makeCrl(authority, [signer.certPem]);

    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/?token=${await svc.token('org-b')}`);
    await fillDeployForm(page, 'UI-CRL', 'ocpp2.0.1');
    await page.locator('select[name="profile"]').selectOption('0');
    const crlField = page.locator('textarea[name="crl_pem"]');
    await crlField.fill('-----BEGIN X509 CRL-----\nnot a list\n-----END X509 CRL-----');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page
      .getByTestId('deploy-result')
      .getByText(/security\.crl_pem/)
      .waitFor();

    await crlField.fill(crl);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByTestId('deploy-result').getByText('Deployed UI-CRL').waitFor();
    await page.locator('tr[data-identity="UI-CRL"]').getByTestId('stage').getByText('online').waitFor();

    const answer = await csms.call('UI-CRL', 'UpdateFirmware', {
      requestId: 1,
      firmware: {
        location: 'http://127.0.0.1:9/fw/evsim-9.9.9.bin',
        retrieveDateTime: new Date(Date.now() + 3_600_000).toISOString(),
        signingCertificate: signer.certPem,
        signature: 'c2lnbmF0dXJl',
      },
    });
    assert.deepEqual(answer, { status: 'RevokedCertificate' });
    assert.deepEqual(csms.schemaErrors, []);
  }),
);
