// Request body of POST /cpo/tariff-publisher/keys: {} generates an Ed25519 key, or import a PEM.
import { z } from 'zod';

export const addSigningKeyBody = z
  .strictObject({ private_key_pem: z.string().min(1).max(16_384).optional() })
  .default({});
export type AddSigningKeyBody = z.infer<typeof addSigningKeyBody>;
