// The EV's battery as a DC charger sees it: how much power it accepts at a state of charge (the
// taper), its voltage, and how warm the charger gets. Pure functions of numbers; the charger's
// power (power.ts) and its readings (wire/sampled-values.ts) use them, nothing here keeps time.

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

/** The charger's body temperature (°C): 25 °C at rest, up to 45 °C at its full rating. */
export function bodyTemperature(powerW: number, ratedW: number): number {
  return 25 + (ratedW > 0 ? (20 * Math.min(powerW, ratedW)) / ratedW : 0);
}
