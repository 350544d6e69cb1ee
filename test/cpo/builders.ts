// Builders and small helpers shared by the CPO tests.
export function aLocation(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    location_id: `LOC-${Math.random().toString(36).slice(2, 10)}`,
    country_code: 'NL',
    party_id: 'EVS',
    address: 'Stationsplein 1',
    city: 'Amsterdam',
    country: 'NLD',
    coordinates: { latitude: '52.37890', longitude: '4.90040' },
    time_zone: 'Europe/Amsterdam',
    ...overrides,
  };
}

export function aChargePointId(prefix = 'CP'): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Re-checks `check` until it returns a value (for effects written asynchronously). */
export async function until<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
