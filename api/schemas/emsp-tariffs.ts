// E19 and the tariff store of interface.md: path and query shapes; the body is the OCPI Tariff.
import { z } from 'zod';

export const tariffPathSchema = z.object({ tariff_id: z.string().min(1).max(36) });

// Codes are matched upper-case, as tariffs are stored.
export const tariffQuerySchema = z.object({
  country_code: z
    .string()
    .min(1)
    .max(2)
    .transform((v) => v.toUpperCase()),
  party_id: z
    .string()
    .min(1)
    .max(3)
    .transform((v) => v.toUpperCase()),
});
