// OCPP 2.1 bidirectional charging (block Q), as a part of the 2.1 call table and wire: a
// SetChargingProfile (or RequestStartTransaction) whose periods carry operation modes and signed
// setpoints (Q03-Q10), NotifyAllowedEnergyTransfer (Q01), and NotifyEVChargingNeeds with the V2X
// parameters when a bidirectional EV plugs in (Q01). The behaviour is core/power.ts's and
// blocks/bidirectional.ts's.
import type { ChargerContext, Connector } from '../core/context.ts';
import type { CsmsCalls } from '../core/csms-calls.ts';
import type { OcppWire } from '../core/wire.ts';
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';
import { call, iso } from '../wire/basics.ts';
import { DEFAULT_MIN_SOC, packVoltage } from '../core/ev-battery.ts';
import { phasesOf, ratedW } from '../core/power.ts';
import { setProfile } from '../blocks/smart-charging.ts';
import { requestStart } from '../ocpp2/ocpp2-calls.ts';
import { allowEnergyTransfer } from '../blocks/bidirectional.ts';
import { profile21 } from './v2x-profile.ts';

export const V2X_CALLS: CsmsCalls<'ocpp2.1'> = {
  SetChargingProfile: (p, s) => {
    const profile = profile21(s, p.evseId, p.chargingProfile);
    if (typeof profile === 'string')
      return { status: 'Rejected', statusInfo: { reasonCode: 'InvalidSchedule', additionalInfo: profile } };
    return { status: setProfile(s, profile) };
  },
  // F01/K05 with a 2.1 profile: its V2X period fields are kept (a refused profile refuses the start).
  RequestStartTransaction: (p, s) => {
    const profile = p.chargingProfile ? profile21(s, p.evseId ?? 0, p.chargingProfile) : undefined;
    if (typeof profile === 'string')
      return { status: 'Rejected', statusInfo: { reasonCode: 'InvalidProfile', additionalInfo: profile } };
    return requestStart(p, s, profile);
  },
  NotifyAllowedEnergyTransfer: (p, s) =>
    allowEnergyTransfer(s, p.transactionId, p.allowedEnergyTransfer)
      ? { status: 'Accepted' }
      : { status: 'Rejected', statusInfo: { reasonCode: 'TxNotFound' } },
};

type Needs = OcppRequest<'ocpp2.1', 'NotifyEVChargingNeeds'>;

/** Energy (Wh) from `soc` to `to` % of the battery: negative when the EV would give it. */
const energyTo = (c: Connector, to: number) => Math.round(((to - (c.soc ?? 0)) / 100) * (c.batteryWh ?? 0));

/** Q01/Q02: what a bidirectional EV needs and offers, in ISO 15118-20's terms as 2.1 writes them. */
export function evChargingNeeds(ctx: ChargerContext, c: Connector, at: number): Needs | undefined {
  if (!c.evBidirectional) return undefined;
  const dc = ctx.model.current_type === 'DC';
  const rated = ratedW(ctx);
  const charge = Math.min(c.evMaxW > 0 ? c.evMaxW : rated, rated);
  const discharge = Math.min(c.evMaxDischargeW ? c.evMaxDischargeW : rated, rated);
  const minSoc = c.evMinSoc ?? DEFAULT_MIN_SOC;
  const volts = dc ? packVoltage(100) : 230;
  const ac = phasesOf(ctx) === 1 ? 'AC_single_phase' : 'AC_three_phase';
  return {
    evseId: c.id,
    timestamp: iso(at),
    chargingNeeds: {
      requestedEnergyTransfer: dc ? 'DC_BPT' : 'AC_BPT',
      availableEnergyTransfer: dc ? ['DC', 'DC_BPT'] : [ac, 'AC_BPT'],
      controlMode: 'DynamicControl',
      mobilityNeedsMode: 'EVCC',
      v2xChargingParameters: {
        minChargePower: 0,
        maxChargePower: charge,
        minDischargePower: 0,
        maxDischargePower: discharge,
        evTargetEnergyRequest: energyTo(c, 100),
        evMinEnergyRequest: energyTo(c, minSoc),
        evMaxEnergyRequest: energyTo(c, 100),
        evMinV2XEnergyRequest: energyTo(c, minSoc),
        evMaxV2XEnergyRequest: energyTo(c, 100),
        targetSoC: 100,
      },
      ...(dc
        ? {
            dcChargingParameters: {
              evMaxCurrent: Math.round(charge / volts),
              evMaxVoltage: volts,
              evMaxPower: charge,
              ...(c.batteryWh ? { evEnergyCapacity: c.batteryWh } : {}),
              ...(c.soc !== undefined ? { stateOfCharge: Math.floor(c.soc) } : {}),
            },
          }
        : {}),
    },
  };
}

/** The 2.1 wire's V2X messages, laid over the 2.x adapter (ocpp-wires.ts). */
export const V2X_WIRE: Pick<OcppWire, 'evChargingNeeds'> = {
  evChargingNeeds: (ctx, c, at) => {
    const needs = evChargingNeeds(ctx, c, at);
    return needs ? call('NotifyEVChargingNeeds', needs as unknown as Record<string, unknown>) : undefined;
  },
};
