// OCPP 2.1 charging-station-initiated actions answered by the built-in central system: 2.0.1's
// handlers (2.1 keeps those messages; a 2.1 payload is read through them), the transaction's cost
// when the charger prices it itself (block I, local cost calculation: the CSMS confirms the
// charger's total), and an acknowledgement of the 2.1 notifications a CPO's central system takes
// without acting on them. What a 2.1 charger asks that needs a decision this central system does
// not make (PullDynamicScheduleUpdate, VatNumberValidation, GetCertificateChainStatus) stays
// NotImplemented.
import { acknowledge, type HandlerTable, type Handlers } from './handler-types.ts';
import { OCPP2_HANDLERS } from './ocpp2-handlers.ts';

const HANDLERS_2: HandlerTable = OCPP2_HANDLERS;

const ADDED_21: Handlers<'ocpp2.1'> = {
  // I12: the charger's own cost of the transaction, answered as the total (what the driver pays).
  async TransactionEvent(conn, p, deps) {
    const answer = (await OCPP2_HANDLERS.TransactionEvent!(conn, p as never, deps)) as object;
    const total = p.costDetails?.totalCost.total;
    const cost = total?.inclTax ?? total?.exclTax;
    return { ...answer, ...(cost !== undefined ? { totalCost: cost } : {}) };
  },
  OpenPeriodicEventStream: () => ({ status: 'Accepted' }),
  ClosePeriodicEventStream: acknowledge,
  NotifyPeriodicEventStream: acknowledge,
  NotifyPriorityCharging: acknowledge,
  NotifySettlement: acknowledge,
  NotifyDERAlarm: acknowledge,
  NotifyDERStartStop: acknowledge,
  ReportDERControl: acknowledge,
  BatterySwap: acknowledge,
};

const ADDED: HandlerTable = ADDED_21;

export const OCPP21_HANDLERS: HandlerTable = { ...HANDLERS_2, ...ADDED };
