// How OCPP 1.6 names the charger's things.
import type { ChargingProfile } from '../core/context.ts';

export const PURPOSE_16: Record<ChargingProfile['purpose'], string> = {
  Max: 'ChargePointMaxProfile',
  TxDefault: 'TxDefaultProfile',
  Tx: 'TxProfile',
};
