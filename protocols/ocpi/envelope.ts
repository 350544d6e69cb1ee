// The OCPI response envelope every partner answers with, and what its status_code ranges mean.
import { z } from 'zod';

export const ocpiEnvelopeSchema = z.object({
  data: z.unknown().optional(),
  status_code: z.number().int(),
  status_message: z.string().nullish(),
  timestamp: z.string(),
});
export type OcpiEnvelope = z.infer<typeof ocpiEnvelopeSchema>;

/** 1xxx success, 2xxx client errors (a business-rule rejection), 3xxx server errors, 4xxx hub errors. */
export const isOcpiSuccess = (code: number): boolean => code >= 1000 && code < 2000;
export const isOcpiClientError = (code: number): boolean => code >= 2000 && code < 3000;

export function ocpiEnvelope<T>(data: T, statusCode = 1000, message = 'Success', now = new Date()) {
  return { data, status_code: statusCode, status_message: message, timestamp: now.toISOString() };
}
