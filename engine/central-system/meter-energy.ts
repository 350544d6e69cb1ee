// The energy register (Wh) in OCPP meter values, 1.6 and 2.x alike: the last sample of
// Energy.Active.Import.Register (the default measurand) that is not per phase.
import type { OcppVersion } from '../../protocols/ocpp/versions.ts';
import type { OcppRequest } from '../../protocols/ocpp/ocpp-types.ts';

type Sampled<V extends OcppVersion> = OcppRequest<
  V,
  'MeterValues'
>['meterValue'][number]['sampledValue'][number];
/** What is read of a sampled value of any version (1.6 `unit`, 2.x `unitOfMeasure`). */
type Reading = {
  value: Sampled<OcppVersion>['value'];
  measurand?: Sampled<OcppVersion>['measurand'];
  phase?: Sampled<OcppVersion>['phase'];
  unit?: Sampled<'ocpp1.6'>['unit'];
  unitOfMeasure?: Sampled<'ocpp2.0.1' | 'ocpp2.1'>['unitOfMeasure'];
};
type MeterValue = { sampledValue?: readonly Reading[] };

const UNIT_TO_WH: Record<string, number> = { Wh: 1, kWh: 1000 };

export function energyWh(meterValues: MeterValue[] | undefined): number | undefined {
  let found: number | undefined;
  for (const mv of meterValues ?? []) {
    for (const sv of mv.sampledValue ?? []) {
      if ((sv.measurand ?? 'Energy.Active.Import.Register') !== 'Energy.Active.Import.Register') continue;
      if (sv.phase) continue;
      const value = Number(sv.value);
      if (!Number.isFinite(value)) continue;
      // 1.6: unit; 2.x: unitOfMeasure { unit, multiplier (power of ten) }.
      const unit: string = sv.unit ?? sv.unitOfMeasure?.unit ?? 'Wh';
      const multiplier = 10 ** (sv.unitOfMeasure?.multiplier ?? 0);
      found = value * multiplier * (UNIT_TO_WH[unit] ?? 1);
    }
  }
  return found;
}
