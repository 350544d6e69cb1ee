// Bidirectional charging (V2X; OCPP 2.1 block Q): what the charger does beyond its power, which
// core/power.ts computes from the operation mode of the profile in force. The grid frequency that
// the frequency modes follow (set through the API), and the transfer modes the CSMS allows a
// session (Q: NotifyAllowedEnergyTransfer): a session allowed no bidirectional mode never discharges.
import type { CommandOf } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import { connectorByTxId, refreshAllCharging } from './transactions.ts';

/** The grid's frequency changed (API command grid-frequency): every session follows it at once. */
export function gridFrequency(s: Step, e: CommandOf<'GRID_FREQUENCY'>): void {
  s.patch({ gridHz: e.hz });
  refreshAllCharging(s);
  s.result(e.commandId, e.type, { ok: true, payload: { frequency_hz: e.hz } });
}

/**
 * The CSMS allows the transaction `txId` these energy transfer modes (ISO 15118 names: DC,
 * DC_BPT, AC_BPT, ...). False when no running transaction has that id.
 */
export function allowEnergyTransfer(s: Step, txId: string, modes: string[]): boolean {
  const c = connectorByTxId(s, txId);
  if (!c) return false;
  s.putConnector({ ...c, allowedTransfer: [...modes] });
  refreshAllCharging(s);
  return true;
}
