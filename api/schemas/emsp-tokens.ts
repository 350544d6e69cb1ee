// Request shapes of the eMSP token endpoints (creation of interface.md, E17 and the other
// status changes).
import { z } from 'zod';
import {
  TOKEN_TYPES,
  WHITELIST_TYPES,
  countryCodeSchema,
  partyIdSchema,
} from '../../protocols/ocpi/token.ts';
import { OCPI_VERSIONS } from '../../protocols/ocpi/versions.ts';
import { dateTimeString, intString } from '../http/validation.ts';

/** Free-form metadata kept with a token: at most 50 keys and 8 KB of JSON. */
export const METADATA_MAX_BYTES = 8_192;
const metadataSchema = z
  .record(z.string().max(64), z.unknown())
  .refine((m) => Object.keys(m).length <= 50, 'metadata holds at most 50 keys')
  .refine(
    (m) => Buffer.byteLength(JSON.stringify(m)) <= METADATA_MAX_BYTES,
    `metadata is at most ${METADATA_MAX_BYTES} bytes of JSON`,
  );

export const tokenPathSchema = z.object({
  token_id: intString(z.number().min(1).max(Number.MAX_SAFE_INTEGER)),
});

export const createTokenSchema = z
  .strictObject({
    uid: z.string().min(1).max(36),
    type: z.enum(TOKEN_TYPES),
    contract_id: z.string().min(1).max(36),
    issuer: z.string().min(1).max(64),
    whitelist: z.enum(WHITELIST_TYPES),
    country_code: countryCodeSchema,
    party_id: partyIdSchema,
    ocpi_version: z.enum(OCPI_VERSIONS).optional().default('2.2.1'),
    visual_number: z.string().max(64).nullish(),
    group_id: z.string().max(36).nullish(),
    language: z
      .string()
      .regex(/^[a-z]{2}$/, 'language must be a two-letter ISO 639-1 code such as en')
      .nullish(),
    valid_from: dateTimeString().nullish(),
    valid_until: dateTimeString().nullish(),
    metadata: metadataSchema.nullish(),
  })
  .superRefine((t, ctx) => {
    if (t.valid_from && t.valid_until && t.valid_until <= t.valid_from)
      ctx.addIssue({
        code: 'custom',
        path: ['valid_until'],
        message: 'valid_until must be after valid_from',
        input: t.valid_until.toISOString(),
      });
  });

/** Optional body of the status changes other than activation. */
export const tokenChangeSchema = z
  .strictObject({ reason: z.string().min(1).max(255).nullish() })
  .optional()
  .default({});
