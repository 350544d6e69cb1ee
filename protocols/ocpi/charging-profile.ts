// OCPI 2.2.1 / 2.3.0 ActiveChargingProfile, sent by a CPO to the eMSP of a session. Bounded
// generously (OCPI gives no bounds): a rate of 10 MW or 100 kA, a day of periods per minute.
const RATE_MAX = 10_000_000;
import { z } from 'zod';

export const chargingProfilePeriodSchema = z.object({
  start_period: z.number().int().min(0),
  limit: z.number().min(0).max(RATE_MAX),
});

export const chargingProfileSchema = z.object({
  charging_rate_unit: z.enum(['W', 'A']),
  start_date_time: z.iso.datetime({ offset: true }).max(64).nullish(),
  duration: z.number().int().min(0).nullish(),
  min_charging_rate: z.number().min(0).max(RATE_MAX).nullish(),
  charging_profile_period: z.array(chargingProfilePeriodSchema).max(1440).nullish(),
});

export const activeChargingProfileSchema = z.object({
  start_date_time: z.iso.datetime({ offset: true }).max(64),
  charging_profile: chargingProfileSchema,
});
export type ActiveChargingProfile = z.infer<typeof activeChargingProfileSchema>;
