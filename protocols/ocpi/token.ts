// OCPI 2.2.1 / 2.3.0 Token object (the shape is the same in both versions), as pushed to CPOs.
import { z } from 'zod';

export const TOKEN_TYPES = ['AD_HOC_USER', 'APP_USER', 'OTHER', 'RFID'] as const;
export const WHITELIST_TYPES = ['ALWAYS', 'ALLOWED', 'ALLOWED_OFFLINE', 'NEVER'] as const;
export const PROFILE_TYPES = ['CHEAP', 'FAST', 'GREEN', 'REGULAR'] as const;

export type TokenType = (typeof TOKEN_TYPES)[number];
export type WhitelistType = (typeof WHITELIST_TYPES)[number];

export const countryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'country_code must be two letters (ISO 3166-1 alpha-2)')
  .transform((v) => v.toUpperCase());
export const partyIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9]{3}$/, 'party_id must be three letters or digits')
  .transform((v) => v.toUpperCase());

export const ocpiTokenSchema = z.object({
  country_code: z.string().length(2),
  party_id: z.string().length(3),
  uid: z.string().min(1).max(36),
  type: z.enum(TOKEN_TYPES),
  contract_id: z.string().min(1).max(36),
  visual_number: z.string().max(64).optional(),
  issuer: z.string().min(1).max(64),
  group_id: z.string().max(36).optional(),
  valid: z.boolean(),
  whitelist: z.enum(WHITELIST_TYPES),
  language: z.string().length(2).optional(),
  default_profile_type: z.enum(PROFILE_TYPES).optional(),
  last_updated: z.string(),
});
export type OcpiToken = z.infer<typeof ocpiTokenSchema>;
