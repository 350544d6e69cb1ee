// The eMSP and roaming services the API uses, built once per process on the platform.
import type { Platform } from '../platform/platform.ts';
import { IdempotencyStore } from '../platform/idempotency/idempotency-store.ts';
import { PartnerStore } from '../roaming/partner-store.ts';
import { createOcpiClient } from '../roaming/ocpi-gateway.ts';
import { ChargingProfileCallback } from '../roaming/charging-profile-callback.ts';
import { TokenStore } from './token-store.ts';
import { TokenTransitions } from './token-transitions.ts';
import { EmpIdentityStore } from './emp-identity-store.ts';
import { TariffStore } from './tariff-store.ts';

export interface EmspServices {
  idempotency: IdempotencyStore;
  partners: PartnerStore;
  tokens: TokenStore;
  transitions: TokenTransitions;
  identities: EmpIdentityStore;
  tariffs: TariffStore;
  chargingProfiles: ChargingProfileCallback;
}

// A duplicate request waits for the first one at most this long beyond the partner timeout.
const IDEMPOTENCY_GRACE_MS = 5_000;

export function createEmspServices(
  platform: Pick<Platform, 'db' | 'config' | 'log' | 'secrets'>,
): EmspServices {
  const { db, config, log } = platform;
  const client = createOcpiClient({ timeoutMs: config.ocpiTimeoutMs, log });
  const partners = new PartnerStore(db, platform.secrets);
  const tokens = new TokenStore(db);
  return {
    idempotency: new IdempotencyStore(db, {
      ttlSeconds: config.idempotencyTtlSeconds,
      waitMs: config.ocpiTimeoutMs + IDEMPOTENCY_GRACE_MS,
    }),
    partners,
    tokens,
    transitions: new TokenTransitions(tokens, partners, client),
    identities: new EmpIdentityStore(db),
    tariffs: new TariffStore(db),
    chargingProfiles: new ChargingProfileCallback(partners, client),
  };
}
