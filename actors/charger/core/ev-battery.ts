// The EV's battery as a DC charger sees it: how much power it accepts at a state of charge (the
// taper), its voltage, and how warm the charger gets. Pure functions of numbers; the charger's
// power (power.ts) and its readings (wire/sampled-values.ts) use them, nothing here keeps time.
// A bidirectional EV (V2X) can also give energy back: down to its own minimum state of charge,
// at most at its maximum discharge power.

declare module './context.ts' {
  interface Connector {
    /** The plugged EV can discharge (ISO 15118-20 BPT); absent: it only charges. */
    evBidirectional?: boolean;
    /** The EV's own discharge limit (W); 0 or absent: none but the charger's rating. */
    evMaxDischargeW?: number;
    /** The state of charge (%) the EV never discharges below. */
    evMinSoc?: number;
    /** Export register (Wh, lifetime): energy the EV gave back through this connector. */
    exportWh?: number;
    /** 2.1 NotifyAllowedEnergyTransfer: the transfer modes the CSMS allows the running session. */
    allowedTransfer?: string[];
  }
}

/** Below this state of charge (%) the battery takes its full power (constant current). */
export const TAPER_FROM_SOC = 80;
/** Share of the full power the battery still takes just before 100 %. */
const TAPER_FLOOR = 0.1;
/** A 400 V class pack: voltage empty and full. */
const PACK_EMPTY_V = 340;
const PACK_FULL_V = 410;

/** Share (0..1) of the EV's maximum power the battery accepts at `soc` (%): full to 80 %, then linear down to 10 %. */
export function taperFactor(soc: number): number {
  if (soc >= 100) return 0;
  if (soc <= TAPER_FROM_SOC) return 1;
  return 1 - ((1 - TAPER_FLOOR) * (soc - TAPER_FROM_SOC)) / (100 - TAPER_FROM_SOC);
}

/** The pack's voltage (V) at `soc` (%), rising with the charge. */
export function packVoltage(soc: number): number {
  const x = soc <= 0 ? 0 : soc >= 100 ? 1 : soc / 100;
  return PACK_EMPTY_V + (PACK_FULL_V - PACK_EMPTY_V) * x;
}

/**
 * Milliseconds until a battery of `batteryWh` at `soc` % is full when charged at `powerW`;
 * undefined when it does not fill (no power).
 */
export function msUntilFull(soc: number, batteryWh: number, powerW: number): number | undefined {
  if (powerW <= 0 || soc >= 100) return undefined;
  return Math.ceil((((100 - soc) / 100) * batteryWh * 3_600_000) / powerW) + 1;
}

/** The EV's minimum state of charge (%) when it did not give one: 20 %, a common V2X reserve. */
export const DEFAULT_MIN_SOC = 20;

/**
 * Milliseconds until a battery of `batteryWh` at `soc` % reaches `minSoc` % when discharged at
 * `dischargeW` (> 0); undefined when it does not get there (no discharge).
 */
export function msUntilMinimum(
  soc: number,
  minSoc: number,
  batteryWh: number,
  dischargeW: number,
): number | undefined {
  if (dischargeW <= 0 || soc <= minSoc) return undefined;
  return Math.ceil((((soc - minSoc) / 100) * batteryWh * 3_600_000) / dischargeW) + 1;
}

/** The charger's body temperature (°C): 25 °C at rest, up to 45 °C at its full rating (either way). */
export function bodyTemperature(powerW: number, ratedW: number): number {
  return 25 + (ratedW > 0 ? (20 * Math.min(Math.abs(powerW), ratedW)) / ratedW : 0);
}
