// A real headless Chromium for the console's tests: the Debian package `chromium` (/usr/bin/chromium,
// or CHROMIUM_PATH) driven by playwright-core. A test that fails leaves a screenshot of its page in
// reports/console/ (gitignored), and the path is printed.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = resolve('reports/console');

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Containers run as root without user namespaces: the sandbox cannot start there.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** The page each running test opened, for its screenshot on failure. */
const pages = new Map<TestContext, { page: Page; errors: string[] }>();

/** A page in a fresh browser context, closed when the test ends. */
export async function openPage(browser: Browser, t: TestContext): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  // Generous: four test files share two cores, and a charger session takes a while on a busy one.
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  pages.set(t, { page, errors });
  t.after(() => context.close());
  return page;
}

/** Runs a browser test; when it fails, its page is photographed before the error goes on. */
export function inBrowser(fn: (t: TestContext) => Promise<void>): (t: TestContext) => Promise<void> {
  return async (t) => {
    try {
      await fn(t);
    } catch (err) {
      const open = pages.get(t);
      if (open) {
        mkdirSync(SHOTS, { recursive: true });
        const path = join(SHOTS, `${t.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80)}.png`);
        await open.page
          .screenshot({ path, fullPage: true })
          .then(() => process.stderr.write(`console test failed: screenshot ${path}\n`))
          .catch((e) => process.stderr.write(`console test failed; no screenshot: ${e}\n`));
        if (open.errors.length) process.stderr.write(`errors in the page:\n${open.errors.join('\n')}\n`);
      }
      throw err;
    } finally {
      pages.delete(t);
    }
  };
}
