// Generated traffic from the console in a real headless Chromium against the whole service
// (built-in central system): started on a location with a seed and parameters, its sessions shown
// as the service lists them (each charger linked to its detail), its speed changed, then stopped.
// A failing test leaves a screenshot in reports/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { deploymentsOf, eventually } from '../deployments/deployment-helpers.ts';
import { inBrowser, launch, openPage } from './browser.ts';

let svc: TestService;
let browser: Browser;
let locationId: string;
/** A location of 510 stopped chargers (see before). */
let bigId: string;

before(async () => {
  [svc, browser] = await Promise.all([startTestService(), launch()]);
  const as = svc.as('org-a');
  const res = await as('POST', '/evcharger/location', {
    body: {
      name: 'traffic site',
      ocpp_version: 'ocpp1.6',
      charger_groups: [{ count: 2, identity_prefix: 'TUI-', model: 'abb-terra-ac-wallbox-22' }],
    },
  });
  assert.equal(res.status, 202, res.text);
  locationId = res.body.location_id;
  await eventually(
    () => deploymentsOf(as, locationId),
    (list) => list.length === 2 && list.every((d) => d.stage === 'online'),
  );
  // A location of 510 stopped chargers whose identities sort before the running site's: the first
  // 500 deployments, which the location list was once made of, are all of this one. The rows are
  // written straight into the database: the list reads rows, and 510 booting chargers only cost time.
  const big = await as('POST', '/evcharger/location', { body: { name: 'Aardvark depot', chargers: [] } });
  assert.equal(big.status, 202, big.text);
  bigId = big.body.location_id;
  await svc.service.platform.db.query(
    `INSERT INTO evc_deployments (organization_id, location_id, identity, model, charger_model, ocpp_version,
                                  desired, stage, outcome)
     SELECT l.organization_id, l.id, 'AAA-' || lpad(g::text, 4, '0'), 'abb-terra-ac-wallbox-22', '{}'::jsonb,
            'ocpp1.6', 'stopped', 'stopped', 'succeeded'
     FROM evc_locations l, generate_series(1, 510) g WHERE l.id = $1::uuid`,
    [bigId],
  );
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

test(
  'traffic started from the page shows its sessions with links to the chargers, takes a new speed, and stops',
  inBrowser(async (t) => {
    const as = svc.as('org-a');
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/ui/?token=${await svc.token('org-a')}#/traffic`);
    await page.getByRole('heading', { name: 'Traffic', exact: true }).waitFor();
    await page
      .locator(`select[name="location"] option[value="${locationId}"]`)
      .waitFor({ state: 'attached' });
    await page.locator('select[name="location"]').selectOption(locationId);
    // Busy all day, short stays, an hour a second: sessions come at once.
    await page.locator('input[name="seed"]').fill('42');
    await page.locator('input[name="speed"]').fill('3600');
    await page.locator('input[name="arrivals"]').fill('4');
    await page.locator('input[name="dwell"]').fill('20');
    await page.locator('input[name="fault_rate_per_hour"]').fill('0');
    await page.locator('input[name="drop_rate_per_hour"]').fill('0');
    await page.getByRole('button', { name: 'Start traffic' }).click();
    await page.getByTestId('traffic-state').getByText('running').waitFor();
    const id = new URL(page.url()).hash.split('/').pop()!;

    const run = (await as('GET', `/traffic-runs/${id}`)).body;
    assert.equal(run.location_id, locationId);
    assert.equal(run.config.seed, 42);
    assert.equal(run.config.speed, 3600);
    assert.deepEqual(run.config.arrivals_per_hour, Array(24).fill(4));
    assert.equal(run.config.dwell_minutes.mean, 20);

    // Sessions appear as the run makes them.
    const rows = page.locator('[data-testid="sessions"] tbody tr');
    await eventually(
      () => rows.count(),
      (n) => n >= 3,
      30_000,
    );
    // A session's charger links to its detail view.
    const link = rows.first().getByRole('link');
    const deployments = await deploymentsOf(as, locationId);
    const identity = (await link.textContent())!;
    assert.equal(
      await link.getAttribute('href'),
      `#/chargers/${deployments.find((d) => d.identity === identity)!.deployment_id}`,
    );

    // A new speed, while it runs.
    await page.locator('.change-traffic input[name="speed"]').fill('60');
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByTestId('change-note').getByText('changed').waitFor();
    assert.equal((await as('GET', `/traffic-runs/${id}`)).body.config.speed, 60);

    // Stop: the EVs still plugged in leave.
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByTestId('traffic-state').getByText('stopped').waitFor();
    await page.getByTestId('sessions-active').getByText('0', { exact: true }).waitFor();
    const stopped = (await as('GET', `/traffic-runs/${id}`)).body;
    assert.equal(stopped.running, false);
    await page
      .getByTestId('sessions-started')
      .getByText(String(stopped.sessions_started), { exact: true })
      .waitFor();
    // The sessions as the service lists them, newest first.
    const sessions = (await as('GET', `/traffic-runs/${id}/sessions`)).body.items;
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-charger'), tr.children[2].textContent]),
    );
    assert.deepEqual(
      cells,
      sessions
        .slice()
        .reverse()
        .slice(0, 200)
        .map((s: any) => [s.charger, String(s.connector)]),
    );

    // The run is in the list of runs.
    await page.getByRole('link', { name: '← all traffic runs' }).click();
    await page.locator(`tr[data-traffic="${id}"]`).getByText('stopped').waitFor();
  }),
);

test(
  'the location list names every location by name with its charger counts, also those past the first 500 chargers',
  inBrowser(async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/ui/?token=${await svc.token('org-a')}#/traffic`);
    const select = page.locator('select[name="location"]');
    await select.locator(`option[value="${locationId}"]`).waitFor({ state: 'attached' });
    const options = await select
      .locator('option')
      .evaluateAll((os) => os.map((o) => [o.getAttribute('value'), o.textContent]));
    assert.deepEqual(options, [
      [bigId, 'Aardvark depot (510 chargers, 0 running)'],
      [locationId, 'traffic site (2 chargers)'],
    ]);
  }),
);

test(
  'traffic on a location whose chargers are all stopped is refused, and the page says why',
  inBrowser(async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${svc.url}/ui/?token=${await svc.token('org-a')}#/traffic`);
    const select = page.locator('select[name="location"]');
    await select.locator(`option[value="${bigId}"]`).waitFor({ state: 'attached' });
    await select.selectOption(bigId);
    await page.getByRole('button', { name: 'Start traffic' }).click();
    await page.getByTestId('traffic-error').getByText('none of its 510 chargers is running').waitFor();
    assert.equal(new URL(page.url()).hash, '#/traffic');
    const runs = (await svc.as('org-a')('GET', '/traffic-runs')).body.items;
    assert.ok(runs.every((r: any) => r.location_id !== bigId));
  }),
);
