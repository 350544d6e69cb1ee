// OCPI 2.2.1 / 2.3.0 ActiveChargingProfile, sent by a CPO to the eMSP of a session.
import { z } from 'zod';

export const chargingProfilePeriodSchema = z.object({
  start_period: z.number().int().min(0),
  limit: z.number().min(0),
});

export const chargingProfileSchema = z.object({
  charging_rate_unit: z.enum(['W', 'A']),
  start_date_time: z.iso.datetime({ offset: true }).nullish(),
  duration: z.number().int().min(0).nullish(),
  min_charging_rate: z.number().min(0).nullish(),
  charging_profile_period: z.array(chargingProfilePeriodSchema).nullish(),
});

export const activeChargingProfileSchema = z.object({
  start_date_time: z.iso.datetime({ offset: true }),
  charging_profile: chargingProfileSchema,
});
export type ActiveChargingProfile = z.infer<typeof activeChargingProfileSchema>;
