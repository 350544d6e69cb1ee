// A charging profile from the CSMS in the charger's terms. Both versions carry the same schedule
// fields; they differ in where the id, the schedule and the purpose are (the adapter passes them).
import type { ChargingProfile } from '../core/context.ts';
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';

/** A charging profile as either version writes it (1.6 csChargingProfiles, 2.0.1 chargingProfile). */
type WireProfile =
  | OcppRequest<'ocpp1.6', 'SetChargingProfile'>['csChargingProfiles']
  | OcppRequest<'ocpp2.0.1', 'SetChargingProfile'>['chargingProfile'];
/** Its schedule (1.6 has one, 2.0.1 a list: the adapter passes the one it takes). */
type WireSchedule =
  | OcppRequest<'ocpp1.6', 'SetChargingProfile'>['csChargingProfiles']['chargingSchedule']
  | OcppRequest<'ocpp2.0.1', 'SetChargingProfile'>['chargingProfile']['chargingSchedule'][number];

export function chargingProfile(
  at: { id: number; connectorId: number; purpose: ChargingProfile['purpose']; schedule: WireSchedule },
  p: WireProfile,
  now: number,
): ChargingProfile {
  const sched = at.schedule;
  return {
    id: at.id,
    connectorId: at.connectorId,
    stackLevel: p.stackLevel,
    purpose: at.purpose,
    unit: sched.chargingRateUnit,
    periods: sched.chargingSchedulePeriod.map((x) => ({
      startPeriod: x.startPeriod,
      limit: x.limit,
      ...(x.numberPhases ? { numberPhases: x.numberPhases } : {}),
    })),
    startAt:
      p.chargingProfileKind === 'Relative' ? 0 : sched.startSchedule ? Date.parse(sched.startSchedule) : now,
    ...(sched.duration !== undefined ? { duration: sched.duration } : {}),
    ...(p.validTo ? { validTo: Date.parse(p.validTo) } : {}),
    ...(p.transactionId !== undefined ? { transactionId: p.transactionId } : {}),
  };
}

/** The charger's purpose for a version's wire name (`null` when the name maps to none). */
export function purposeFrom(
  wireNames: Record<ChargingProfile['purpose'], string>,
  wire: string | undefined,
): ChargingProfile['purpose'] | null | undefined {
  if (wire === undefined) return undefined;
  const found = (Object.keys(wireNames) as ChargingProfile['purpose'][]).find((k) => wireNames[k] === wire);
  return found ?? null;
}

/** K10 ClearChargingProfile's answer (both versions): Unknown when no profile matched. */
export const clearedAnswer = (cleared: boolean): { status: 'Accepted' | 'Unknown' } => ({
  status: cleared ? 'Accepted' : 'Unknown',
});

/**
 * K08 GetCompositeSchedule: the composite limit from now as one period, the fields both versions'
 * schedules share (each wraps them with its own connector / EVSE and start field).
 */
export function compositePeriod(composite: { unit: 'A' | 'W'; limit: number }, duration: number) {
  return {
    duration,
    chargingRateUnit: composite.unit,
    chargingSchedulePeriod: [{ startPeriod: 0, limit: composite.limit }],
  };
}
