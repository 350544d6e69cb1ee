// E18 request body: a roaming identity (country code + party id) to issue tokens under.
import { z } from 'zod';
import { countryCodeSchema, partyIdSchema } from '../../protocols/ocpi/token.ts';

export const createEmpIdentitySchema = z.strictObject({
  country_code: countryCodeSchema,
  party_id: partyIdSchema,
  label: z.string().max(100).nullish(),
  contact_email: z.email().max(254).nullish(),
  contact_phone: z
    .string()
    .regex(/^\+?[0-9 ()-]{3,32}$/, 'contact_phone must be a phone number such as +31 20 123 4567')
    .nullish(),
  default_network_access: z.boolean().optional().default(true),
});
