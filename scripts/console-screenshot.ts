// Makes docs/console.png, the README's picture of the console: a fresh service with a few chargers
// on the built-in central system, one of them charging, its page photographed in headless Chromium.
// Usage: npx tsx scripts/console-screenshot.ts [out.png]
import { startTestService } from '../test/support/service.ts';
import { eventually } from '../test/deployments/deployment-helpers.ts';
import { launch } from '../test/console/browser.ts';

const out = process.argv[2] ?? 'docs/console.png';
const svc = await startTestService();
const browser = await launch();
try {
  const as = svc.as('demo');
  await as('POST', '/evcharger/location', {
    body: {
      name: 'Depot',
      ocpp_version: 'ocpp1.6',
      charger_groups: [{ count: 6, identity_prefix: 'DEPOT-', brand_slug: 'abb', model: 'abb-a400' }],
    },
  });
  const first = await eventually(
    () => as('GET', '/evcharger/fleet/deployments?q=DEPOT-001'),
    (r) => r.body.items[0]?.stage === 'online',
    60_000,
  );
  const id = first.body.items[0].deployment_id;
  const target = { deployment_id: id };
  await as('POST', '/evcharger/commands/configuration', {
    body: { target, payload: { key: 'MeterValueSampleInterval', value: '2' } },
  });
  await as('POST', '/evcharger/commands/plug-in', {
    body: { target, payload: { connector_id: 1, soc_percent: 35 } },
  });
  await as('POST', '/evcharger/commands/present-token', {
    body: { target, payload: { connector_id: 1, id_tag: 'DEMO-TAG' } },
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${svc.url}/ui/?token=${await svc.token('demo')}#/chargers/${id}`);
  await page.getByTestId('connector-status').first().getByText('Charging').waitFor({ timeout: 30_000 });
  // A few samples for the chart.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  await page.screenshot({ path: out });
  process.stdout.write(`${out}\n`);
} finally {
  await browser.close();
  await svc.close();
}
