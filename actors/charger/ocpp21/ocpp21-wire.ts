// OCPP 2.1: the charger's messages are 2.0.1's (2.1 keeps them, every one valid under the 2.1
// schemas), plus what 2.1 adds to them: a transaction priced by a tariff the charger holds
// (block I, local cost calculation) names its tariff (transactionInfo.tariffId) and carries its
// cost so far in every TransactionEvent (costDetails: the running cost in Updated, the final cost
// in Ended), computed by blocks/tariff-pricing.ts from the registers the messages report.
import type { Connector } from '../core/context.ts';
import type { Answer, OcppWire, OutboundCall } from '../core/wire.ts';
import { iso } from '../wire/basics.ts';
import { ocpp2Wire } from '../ocpp2/ocpp2-wire.ts';
import { cents, type Price, type SessionCost } from '../blocks/tariff-pricing.ts';
import { costOfSession, usageOf } from '../blocks/tariffs.ts';
import { V2X_WIRE } from './v2x.ts';
import { DER_WIRE } from './der-control.ts';

const price = (p: Price | undefined) =>
  p ? { exclTax: cents(p.exclTax), inclTax: cents(p.inclTax) } : undefined;

/** 2.1 CostDetailsType of a session's cost (one charging period: one tariff for the session). */
export function costDetails(c: Connector, cost: SessionCost, at: number): Record<string, unknown> {
  const u = usageOf(c, at);
  const parts = {
    fixed: price(cost.fixed),
    energy: price(cost.energy),
    chargingTime: price(cost.chargingTime),
    idleTime: price(cost.idleTime),
  };
  return {
    chargingPeriods: [
      {
        tariffId: c.tx!.tariff!.tariffId,
        startPeriod: iso(c.tx!.startedAt),
        dimensions: [
          { type: 'Energy', volume: u.energyWh },
          { type: 'ChargingTime', volume: Math.max(0, u.durationS - u.idleS) },
          // The schema's spelling.
          { type: 'IdleTIme', volume: u.idleS },
        ],
      },
    ],
    totalCost: {
      currency: cost.currency,
      typeOfCost: cost.typeOfCost,
      ...Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)),
      total: price(cost.total),
    },
    totalUsage: { energy: u.energyWh, chargingTime: u.durationS, idleTime: u.idleS },
  };
}

/** The TransactionEvent with the 2.1 tariff fields of a priced transaction. */
function priced(call: OutboundCall, c: Connector, at: number): OutboundCall {
  const cost = costOfSession(c, at);
  if (!cost) return call;
  const info = call.payload.transactionInfo as Record<string, unknown>;
  return {
    ...call,
    payload: {
      ...call.payload,
      transactionInfo: { ...info, tariffId: c.tx!.tariff!.tariffId },
      costDetails: costDetails(c, cost, at),
    },
  };
}

export const ocpp21Wire: OcppWire = {
  ...(ocpp2Wire as OcppWire),
  // Q: NotifyEVChargingNeeds of a bidirectional EV (v2x.ts)
  ...V2X_WIRE,
  // R04: NotifyDERAlarm of a grid event (der-control.ts)
  ...DER_WIRE,
  txStarted: (ctx, c, cause, at) => priced(ocpp2Wire.txStarted(ctx, c, cause, at), c, at),
  txUpdated: (ctx, c, cause, at) => {
    const call = ocpp2Wire.txUpdated(ctx, c, cause, at);
    return call && priced(call, c, at);
  },
  txEnded: (ctx, c, cause, at) => priced(ocpp2Wire.txEnded(ctx, c, cause, at), c, at),
  // I08: the CSMS may give the driver's own tariff with the token.
  authorizeTariff: (p) => (p as Answer<'Authorize', 'ocpp2.1'> | undefined)?.tariff,
};
