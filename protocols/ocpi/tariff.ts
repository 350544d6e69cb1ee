// OCPI 2.2.1 Tariff object. Money and power figures travel as decimal strings in the spec's
// shape; partners that send JSON numbers are accepted and normalised to strings.
import { z } from 'zod';
import { displayTextSchema } from './display-text.ts';

export const TARIFF_TYPES = [
  'AD_HOC_PAYMENT',
  'PROFILE_CHEAP',
  'PROFILE_FAST',
  'PROFILE_GREEN',
  'REGULAR',
] as const;
export const TARIFF_DIMENSIONS = ['ENERGY', 'FLAT', 'PARKING_TIME', 'TIME'] as const;
export const DAYS_OF_WEEK = [
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
  'SUNDAY',
] as const;

/** A decimal as a string ("0.25"); a JSON number is accepted and written as a string. */
export const decimalString = z
  .union([
    z.number().min(-1e12).max(1e12),
    z
      .string()
      .max(32)
      .regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number such as 0.25'),
  ])
  .transform((v) => String(v));

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day hh:mm');
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

export const priceSchema = z.object({ excl_vat: decimalString, incl_vat: decimalString.nullish() });

export const priceComponentSchema = z.object({
  type: z.enum(TARIFF_DIMENSIONS),
  price: decimalString,
  vat: decimalString.nullish(),
  step_size: z.number().int().min(0).max(2_147_483_647),
});

export const tariffRestrictionsSchema = z.object({
  start_time: timeOfDay.nullish(),
  end_time: timeOfDay.nullish(),
  start_date: date.nullish(),
  end_date: date.nullish(),
  min_kwh: decimalString.nullish(),
  max_kwh: decimalString.nullish(),
  min_current: decimalString.nullish(),
  max_current: decimalString.nullish(),
  min_power: decimalString.nullish(),
  max_power: decimalString.nullish(),
  min_duration: z.number().int().min(0).max(2_147_483_647).nullish(),
  max_duration: z.number().int().min(0).max(2_147_483_647).nullish(),
  day_of_week: z.array(z.enum(DAYS_OF_WEEK)).max(7).nullish(),
  reservation: z.enum(['RESERVATION', 'RESERVATION_EXPIRES']).nullish(),
});

export const tariffElementSchema = z.object({
  price_components: z.array(priceComponentSchema).min(1).max(20),
  restrictions: tariffRestrictionsSchema.nullish(),
});

/** The tariff fields a CPO publishes; id and last_updated come from the path and the store. */
export const tariffBodySchema = z.object({
  country_code: z.string().regex(/^[A-Z]{2}$/, 'country_code must be two upper-case letters'),
  party_id: z.string().regex(/^[A-Z0-9]{3}$/, 'party_id must be three upper-case letters or digits'),
  id: z.string().min(1).max(36).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as EUR'),
  type: z.enum(TARIFF_TYPES).nullish(),
  tariff_alt_text: z.array(displayTextSchema).max(20).nullish(),
  tariff_alt_url: z.url().max(2048).nullish(),
  min_price: priceSchema.nullish(),
  max_price: priceSchema.nullish(),
  elements: z.array(tariffElementSchema).max(100).nullish(),
  start_date_time: z.iso.datetime({ offset: true }).max(64).nullish(),
  end_date_time: z.iso.datetime({ offset: true }).max(64).nullish(),
  energy_mix: z
    .record(z.string().max(64), z.unknown())
    .refine((m) => JSON.stringify(m).length <= 8_192, 'energy_mix is at most 8 KB of JSON')
    .nullish(),
  last_updated: z.iso.datetime({ offset: true }).max(64).optional(),
});
export type TariffBody = z.infer<typeof tariffBodySchema>;

export interface OcpiTariff extends Omit<TariffBody, 'id' | 'last_updated'> {
  id: string;
  last_updated: string;
}
