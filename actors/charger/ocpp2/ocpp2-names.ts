// How OCPP 2.0.1 / 2.1 name the charger's things.
import type { ChargingProfile } from '../core/context.ts';

/** A 2.x purpose as the charger's (external constraints limit like a charger-wide maximum). */
export const PURPOSE: Record<string, ChargingProfile['purpose']> = {
  ChargingStationMaxProfile: 'Max',
  ChargingStationExternalConstraints: 'Max',
  TxDefaultProfile: 'TxDefault',
  TxProfile: 'Tx',
};

export const PURPOSE_2: Record<ChargingProfile['purpose'], string> = {
  Max: 'ChargingStationMaxProfile',
  TxDefault: 'TxDefaultProfile',
  Tx: 'TxProfile',
};
