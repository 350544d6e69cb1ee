// Meter readings of a connector as MeterValue objects, for both versions: which measurands are
// read (MeterValuesSampledData / StopTxnSampledData) is shared; how one reading is written is the
// version's (1.6: value as a string and `unit`; 2.0.1: a number and `unitOfMeasure`).
import type { ChargerContext, Connector } from '../core/context.ts';
import { getSetting } from '../core/settings.ts';
import { iso } from './basics.ts';

export interface Reading {
  measurand: 'Energy.Active.Import.Register' | 'Power.Active.Import' | 'SoC';
  value: number;
  unit: 'Wh' | 'W' | 'Percent';
  location?: 'EV';
}

export type WriteReading = (r: Reading, context: string) => Record<string, unknown>;

/** The readings configured by `measurands` (MeterValuesSampledData by default); the energy register at least. */
function readings(c: Connector, measurands: string): Reading[] {
  const wanted = new Set(measurands.split(',').map((x) => x.trim()));
  const out: Reading[] = [];
  const energy: Reading = {
    measurand: 'Energy.Active.Import.Register',
    value: Math.floor(c.meterWh),
    unit: 'Wh',
  };
  if (wanted.has('Energy.Active.Import.Register')) out.push(energy);
  if (wanted.has('Power.Active.Import'))
    out.push({ measurand: 'Power.Active.Import', value: Math.round(c.powerW), unit: 'W' });
  if (wanted.has('SoC') && c.soc !== undefined)
    out.push({ measurand: 'SoC', value: Math.floor(c.soc), unit: 'Percent', location: 'EV' });
  if (out.length === 0) out.push(energy);
  return out;
}

/** One MeterValue (timestamp + sampled values) in a list, as both versions carry them. */
export function meterValue(
  ctx: ChargerContext,
  c: Connector,
  at: number,
  context: string,
  write: WriteReading,
  measurands = getSetting(ctx, 'MeterValuesSampledData') ?? '',
) {
  return [{ timestamp: iso(at), sampledValue: readings(c, measurands).map((r) => write(r, context)) }];
}
