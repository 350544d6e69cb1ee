// Meter readings of a connector as MeterValue objects, for both versions: which measurands are
// read (MeterValuesSampledData, MeterValuesAlignedData, StopTxnSampledData) and what they read is
// shared; how one reading is written is the version's (1.6: value as a string and `unit`; 2.0.1:
// a number and `unitOfMeasure`). The readings agree with each other: the power is the sum over the
// phases of voltage x current, the energy register integrates the power (core/power.ts).
import type { ChargerContext, Connector } from '../core/context.ts';
import { READABLE_MEASURANDS as MEASURANDS, getSetting, type Measurand } from '../core/settings.ts';
import { ampsAt, offeredW, phasesOf, ratedW, voltageOf } from '../core/power.ts';
import { bodyTemperature } from '../core/ev-battery.ts';
import { iso } from './basics.ts';

export type Unit = 'Wh' | 'W' | 'A' | 'V' | 'Percent' | 'Celsius';
export type Phase = 'L1' | 'L2' | 'L3' | 'L1-N' | 'L2-N' | 'L3-N';
export type Location = 'EV' | 'Body';

/** Writes one reading as the version's SampledValue. */
export type WriteReading = (
  measurand: Measurand,
  value: number,
  unit: Unit,
  context: string,
  phase: Phase | undefined,
  location: Location | undefined,
) => Record<string, unknown>;

const CURRENT_PHASES: readonly Phase[] = ['L1', 'L2', 'L3'];
const VOLTAGE_PHASES: readonly Phase[] = ['L1-N', 'L2-N', 'L3-N'];

/** Bit of each measurand in a mask; the order of MEASURANDS is the order readings are written in. */
const BIT = Object.fromEntries(MEASURANDS.map((m, i) => [m, 1 << i])) as Record<Measurand, number>;
const ENERGY = BIT['Energy.Active.Import.Register'];

/** Parsed lists by their text: a fleet has a handful of distinct lists, so no parsing per sample. */
const masks = new Map<string, number>();

/** The mask of a list of measurands (an adapter's, once). */
export function measurandMask(list: readonly string[]): number {
  return maskOf(list.join(','));
}

function maskOf(list: string): number {
  let mask = masks.get(list);
  if (mask === undefined) {
    mask = 0;
    for (const m of list.split(',')) mask |= BIT[m.trim() as Measurand] ?? 0;
    if (masks.size < 1000) masks.set(list, mask);
  }
  return mask;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The readings configured by `measurands` the version carries (`supported`); the energy register when none. */
function readings(
  ctx: ChargerContext,
  c: Connector,
  at: number,
  measurands: string,
  context: string,
  write: WriteReading,
  supported: number,
) {
  let mask = maskOf(measurands) & supported;
  if (mask === 0) mask = ENERGY;
  const out: Record<string, unknown>[] = [];
  const phases = phasesOf(ctx);
  const volts = voltageOf(ctx, c);
  for (let i = 0; i < MEASURANDS.length; i++) {
    if ((mask & (1 << i)) === 0) continue;
    const m = MEASURANDS[i];
    switch (m) {
      case 'Energy.Active.Import.Register':
        out.push(write(m, Math.floor(c.meterWh), 'Wh', context, undefined, undefined));
        break;
      case 'Power.Active.Import':
        out.push(write(m, Math.round(Math.max(0, c.powerW)), 'W', context, undefined, undefined));
        break;
      // A discharging EV's power is negative (core/power.ts): the export readings are its size.
      case 'Power.Active.Export':
        out.push(write(m, Math.round(Math.max(0, -c.powerW)), 'W', context, undefined, undefined));
        break;
      case 'Energy.Active.Export.Register':
        out.push(write(m, Math.floor(c.exportWh ?? 0), 'Wh', context, undefined, undefined));
        break;
      case 'Power.Offered':
        out.push(write(m, Math.round(offeredW(ctx, c, at)), 'W', context, undefined, undefined));
        break;
      case 'Current.Import': {
        const amps = round(ampsAt(ctx, c, Math.max(0, c.powerW)), 2);
        if (phases === 0) out.push(write(m, amps, 'A', context, undefined, undefined));
        else
          for (let p = 0; p < phases; p++)
            out.push(write(m, amps, 'A', context, CURRENT_PHASES[p], undefined));
        break;
      }
      case 'Current.Offered':
        out.push(
          write(m, round(ampsAt(ctx, c, offeredW(ctx, c, at)), 2), 'A', context, undefined, undefined),
        );
        break;
      case 'Voltage':
        if (phases === 0) out.push(write(m, round(volts, 1), 'V', context, undefined, undefined));
        else
          for (let p = 0; p < phases; p++)
            out.push(write(m, round(volts, 1), 'V', context, VOLTAGE_PHASES[p], undefined));
        break;
      case 'SoC':
        if (c.soc !== undefined) out.push(write(m, Math.floor(c.soc), 'Percent', context, undefined, 'EV'));
        break;
      case 'Temperature':
        out.push(
          write(m, round(bodyTemperature(c.powerW, ratedW(ctx)), 1), 'Celsius', context, undefined, 'Body'),
        );
        break;
    }
  }
  return out;
}

/** One MeterValue (timestamp + sampled values) in a list, as both versions carry them. */
export function meterValue(
  ctx: ChargerContext,
  c: Connector,
  at: number,
  context: string,
  write: WriteReading,
  supported: number,
  measurands = getSetting(ctx, 'MeterValuesSampledData') ?? '',
) {
  return [{ timestamp: iso(at), sampledValue: readings(ctx, c, at, measurands, context, write, supported) }];
}

/** Measurands a main meter (1.6 connector 0, 2.0.1 evseId 0) has no reading of: what is offered, and an EV's SoC. */
const NOT_MAIN = BIT['Power.Offered'] | BIT['Current.Offered'] | BIT.SoC;

/**
 * The charger's main meter (1.6 connector 0, 2.0.1 evseId 0) as one connector: the energy and power of all of
 * them (AC: at the grid's voltage; DC: at the nominal DC voltage, no SoC). It sends clock-aligned readings only.
 */
export function mainMeterValue(ctx: ChargerContext, at: number, write: WriteReading, supported: number) {
  let wh = 0;
  let w = 0;
  let out = 0;
  for (const c of ctx.connectors) {
    wh += c.meterWh;
    w += c.powerW;
    out += c.exportWh ?? 0;
  }
  const main: Connector = {
    ...ctx.connectors[0],
    id: 0,
    meterWh: wh,
    powerW: w,
    exportWh: out,
    soc: undefined,
    tx: undefined,
  };
  const measurands = getSetting(ctx, 'MeterValuesAlignedData') ?? '';
  return meterValue(ctx, main, at, 'Sample.Clock', write, supported & ~NOT_MAIN, measurands);
}

/** Width of one kept reading in Transaction.endSamples: kind (0 sampled, 1 clock-aligned), at, Wh, W, SoC (-1: none). */
export const END_SAMPLE_WIDTH = 5;

/**
 * The readings kept during a transaction for its end message (blocks/metering.ts), oldest first,
 * each with the measurands of its kind: `sampled` (context Sample.Periodic) or `aligned`
 * (Sample.Clock).
 */
export function endSampleValues(
  ctx: ChargerContext,
  c: Connector,
  write: WriteReading,
  supported: number,
  sampled: string,
  aligned: string,
) {
  const kept = c.tx?.endSamples;
  if (!kept) return [];
  const out: ReturnType<typeof meterValue> = [];
  for (let i = 0; i + END_SAMPLE_WIDTH <= kept.length; i += END_SAMPLE_WIDTH) {
    const clock = kept[i] === 1;
    const then: Connector = {
      ...c,
      meterWh: kept[i + 2],
      powerW: kept[i + 3],
      soc: kept[i + 4] < 0 ? undefined : kept[i + 4],
    };
    const context = clock ? 'Sample.Clock' : 'Sample.Periodic';
    out.push(...meterValue(ctx, then, kept[i + 1], context, write, supported, clock ? aligned : sampled));
  }
  return out;
}
