// /docs in a real headless Chromium: opened as /docs?token=..., "Try it out" sends the token as a
// bearer token (swagger-ui's preauthorization has to run once the description is loaded).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { inBrowser, launch, openPage } from '../console/browser.ts';

let svc: TestService;
let browser: Browser;

before(async () => {
  [svc, browser] = await Promise.all([startTestService(), launch()]);
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

test(
  '/docs?token= authorizes "Try it out": the request carries the bearer token and is answered 200',
  inBrowser(async (t) => {
    const token = await svc.token('org-docs');
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/docs?token=${token}`);
    const operation = page.locator('.opblock', {
      has: page.locator('.opblock-summary-path', { hasText: /^\/evcharger\/fleet\/summary$/ }),
    });
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/evcharger/fleet/summary')),
      operation.locator('.execute').click(),
    ]);
    assert.equal(request.headers().authorization, `Bearer ${token}`);
    const response = await request.response();
    assert.equal(response?.status(), 200);
    // The Authorize dialog shows the scheme as authorized (a locked padlock on the page's button).
    assert.equal(await page.locator('.auth-wrapper .authorize.locked').count(), 1);
  }),
);
