// Builders shared by the eMSP and roaming tests.
import type { TestService } from '../support/service.ts';
import type { FakeOcpiPartner } from '../support/fake-ocpi-partner.ts';

export type Api = ReturnType<TestService['as']>;

/** Service settings for the eMSP tests: a short partner timeout, no rate limit in the way. */
export const EMSP_TEST_ENV = {
  OCPI_TIMEOUT_MS: '300',
  RATE_LIMIT_PER_SECOND: '1000',
  RATE_LIMIT_BURST: '1000',
};

let uids = 0;

export function aToken(overrides: Record<string, unknown> = {}) {
  uids += 1;
  return {
    uid: `RFID${String(uids).padStart(6, '0')}`,
    type: 'RFID',
    contract_id: `NL-ABC-C${String(uids).padStart(8, '0')}`,
    issuer: 'Example eMSP',
    whitelist: 'ALLOWED',
    country_code: 'NL',
    party_id: 'ABC',
    ...overrides,
  };
}

export async function createToken(api: Api, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api('POST', '/emsp/tokens', { body: aToken(overrides) });
  if (res.status !== 201) throw new Error(`token not created: ${res.status} ${res.text}`);
  return res.body;
}

export async function registerPartner(
  api: Api,
  fake: FakeOcpiPartner,
  role: 'CPO' | 'EMSP',
  overrides: Record<string, unknown> = {},
): Promise<any> {
  const res = await api('POST', '/roaming/partners', {
    body: {
      name: `${role} at ${fake.url}`,
      role,
      country_code: 'DE',
      party_id: `P${String(++uids % 100).padStart(2, '0')}`,
      ocpi_version: '2.2.1',
      token: `token-of-${role}-${uids}`,
      endpoints:
        role === 'CPO'
          ? { tokens: `${fake.url}/ocpi/2.2.1/tokens` }
          : { chargingprofiles: `${fake.url}/ocpi/2.2.1/chargingprofiles` },
      ...overrides,
    },
  });
  if (res.status !== 201) throw new Error(`partner not registered: ${res.status} ${res.text}`);
  return res.body;
}

export const activate = (api: Api, tokenId: number | string, key?: string) =>
  api(
    'POST',
    `/emsp/tokens/${tokenId}/activate`,
    key === undefined ? {} : { headers: { 'Idempotency-Key': key } },
  );

let keys = 0;
export const newKey = () => `key-${process.pid}-${++keys}`;
