// What the fake central system received from a charger, read the same way for every version.
import type { Harness, SentCall } from './charger-harness.ts';

/** The energy register (Wh) in a message's first MeterValue. */
export const energyOf = (call: { payload: Record<string, any> }): number =>
  Number(
    call.payload.meterValue[0].sampledValue.find((x: any) => x.measurand === 'Energy.Active.Import.Register')
      .value,
  );

/** J02: the periodic meter samples of running transactions. */
export const samples = (h: Harness): SentCall[] =>
  h.version === 'ocpp1.6'
    ? h.callsOf('MeterValues')
    : h.callsOf('TransactionEvent').filter((c) => c.payload.triggerReason === 'MeterValuePeriodic');

/** The statuses StatusNotification said for one connector (1.6) / EVSE (2.x), in order. */
export const statusesOf = (h: Harness, connectorId: number): string[] =>
  h
    .callsOf('StatusNotification')
    .filter((c) => (h.version === 'ocpp1.6' ? c.payload.connectorId : c.payload.evseId) === connectorId)
    .map((c) => c.payload.status ?? c.payload.connectorStatus);

/** The last status StatusNotification said (any connector). */
export const lastStatus = (h: Harness): string => {
  const p = h.callsOf('StatusNotification').at(-1)!.payload;
  return p.status ?? p.connectorStatus;
};
