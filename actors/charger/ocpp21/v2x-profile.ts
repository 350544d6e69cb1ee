// A 2.1 charging profile in the charger's terms, V2X fields included: each schedule period may
// carry an operation mode, a signed setpoint, a discharge limit and a frequency-watt curve
// (core/power.ts applies them). 2.1 made a period's `limit` optional where the mode does not need
// it; the charger then takes its own rating as the limit.
import type { ChargingProfile, OperationMode } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';
import { wattsToAmps } from '../core/power.ts';
import { PURPOSE } from '../ocpp2/ocpp2-names.ts';

export type Profile21 = OcppRequest<'ocpp2.1', 'SetChargingProfile'>['chargingProfile'];
type Period21 = Profile21['chargingSchedule'][number]['chargingSchedulePeriod'][number];

/** Modes that say nothing without a setpoint (2.1: setpoint required for them). */
const NEEDS_SETPOINT: readonly OperationMode[] = ['CentralSetpoint', 'ExternalSetpoint'];

/**
 * The profile as the charger keeps it; a string when the charger refuses it (a purpose it does not
 * keep, a setpoint mode without a setpoint).
 */
export function profile21(s: Step, evseId: number, p: Profile21): ChargingProfile | string {
  const purpose = PURPOSE[p.chargingProfilePurpose];
  if (!purpose) return `purpose ${p.chargingProfilePurpose} is not supported`;
  const sched = p.chargingSchedule[0];
  const rated = s.ctx.model.max_power_kw * 1000;
  const fill = sched.chargingRateUnit === 'W' ? rated : Math.floor(wattsToAmps(s.ctx, rated));
  const periods: ChargingProfile['periods'] = [];
  for (const x of sched.chargingSchedulePeriod) {
    if (x.operationMode && NEEDS_SETPOINT.includes(x.operationMode) && x.setpoint === undefined)
      return `${x.operationMode} needs a setpoint`;
    periods.push(period(x, fill));
  }
  return {
    id: p.id,
    connectorId: evseId,
    stackLevel: p.stackLevel,
    purpose,
    unit: sched.chargingRateUnit,
    periods,
    startAt:
      p.chargingProfileKind === 'Relative'
        ? 0
        : sched.startSchedule
          ? Date.parse(sched.startSchedule)
          : s.now,
    ...(sched.duration !== undefined ? { duration: sched.duration } : {}),
    ...(p.validTo ? { validTo: Date.parse(p.validTo) } : {}),
    ...(p.transactionId !== undefined ? { transactionId: p.transactionId } : {}),
  };
}

function period(x: Period21, fill: number): ChargingProfile['periods'][number] {
  return {
    startPeriod: x.startPeriod,
    limit: x.limit ?? fill,
    ...(x.numberPhases ? { numberPhases: x.numberPhases } : {}),
    ...(x.operationMode ? { operationMode: x.operationMode } : {}),
    ...(x.setpoint !== undefined ? { setpoint: x.setpoint } : {}),
    ...(x.dischargeLimit !== undefined ? { dischargeLimit: x.dischargeLimit } : {}),
    ...(x.v2xBaseline !== undefined ? { v2xBaseline: x.v2xBaseline } : {}),
    ...(x.v2xFreqWattCurve?.length
      ? { v2xFreqWattCurve: x.v2xFreqWattCurve.map((c) => ({ frequency: c.frequency, power: c.power })) }
      : {}),
  };
}
