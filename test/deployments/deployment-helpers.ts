// Shared by the deployment tests: waiting on what the API reports, and small request builders.
import type { TestResponse } from '../support/service.ts';

export type As = <T = any>(
  method: string,
  path: string,
  opts?: { body?: unknown; headers?: Record<string, string>; raw?: string },
) => Promise<TestResponse<T>>;

/** A model speaking both OCPP versions, and one speaking 1.6 only. */
export const DUAL_MODEL = 'abb-a400';
export const OCPP16_ONLY_MODEL = 'abb-terra-54';

/**
 * Re-reads through the API until `check` returns a value (the API reads the database, which the
 * engine writes behind: there is no push to wait on). Rejects with the last value after timeoutMs.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 2000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface StageEventBody {
  identity: string;
  attempt: number;
  stage: string;
  outcome: string;
  at: string;
  code?: string;
  hint?: string;
}

export async function eventsOf(as: As, identity: string, query = ''): Promise<StageEventBody[]> {
  const res = await as<{ events: StageEventBody[] }>(
    'GET',
    `/evcharger/deployment-runtime-ops/events?identity=${encodeURIComponent(identity)}&limit=500${query}`,
  );
  if (res.status !== 200) throw new Error(`E10 answered ${res.status}: ${res.text}`);
  return res.body.events;
}

export interface DeploymentItem {
  /** null (at run time) for a location charger that could not be deployed: see location-failures. */
  deployment_id: string;
  identity: string;
  ocpp_version: string | null;
  model: string;
  location_id: string | null;
  stage: string;
  outcome: string;
  code: string | null;
  hint: string | null;
  updated_at: string;
}

export async function deploymentsOf(as: As, locationId?: string): Promise<DeploymentItem[]> {
  const items: DeploymentItem[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const loc: string = locationId ? `&location_id=${locationId}` : '';
    const res: TestResponse<{ items: DeploymentItem[]; next_offset: number | null }> = await as(
      'GET',
      `/evcharger/deployments?limit=500&offset=${offset}${loc}`,
    );
    if (res.status !== 200) throw new Error(`GET /evcharger/deployments answered ${res.status}: ${res.text}`);
    items.push(...res.body.items);
    offset = res.body.next_offset;
  }
  return items;
}

export function locationBody(prefix: string, count: number, wsUrl?: string, model = DUAL_MODEL) {
  return {
    name: `${prefix} test site`,
    address: 'Teststraat 1',
    city: 'Utrecht',
    country: 'NLD',
    coordinates: { lat: 52.09, lng: 5.12 },
    timezone: 'Europe/Amsterdam',
    ocpp_version: 'ocpp1.6',
    ocpi_version: '2.2.1',
    chargers: Array.from({ length: count }, (_x, i) => ({
      identity: `${prefix}-${String(i + 1).padStart(3, '0')}`,
      brand_slug: 'abb',
      model,
      connector_type: 'CCS2',
      ...(wsUrl ? { ws_url: wsUrl } : {}),
    })),
  };
}
