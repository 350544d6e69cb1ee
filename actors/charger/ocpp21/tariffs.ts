// OCPP 2.1 block I, the CSMS's tariff calls (the behaviour is blocks/tariffs.ts's): I07
// SetDefaultTariff, I09 GetTariffs, I10 ClearTariffs, I11 ChangeTransactionTariff.
import type { CsmsCalls } from '../core/csms-calls.ts';
import { connectorByTxId } from '../blocks/transactions.ts';
import { changeTransactionTariff, clearTariffs, setDefaultTariff, tariffsOf } from '../blocks/tariffs.ts';

export const TARIFF_21_CALLS: CsmsCalls<'ocpp2.1'> = {
  SetDefaultTariff: (p, s) => ({ status: setDefaultTariff(s, p.evseId, p.tariff) }),
  GetTariffs: (p, s) => {
    const found = tariffsOf(s, p.evseId);
    if (!found.length) return { status: 'NoTariff' };
    return {
      status: 'Accepted',
      tariffAssignments: found.map((t) => ({
        tariffId: t.tariffId,
        tariffKind: t.kind,
        ...(t.validFrom ? { validFrom: t.validFrom } : {}),
        evseIds: t.evseIds,
      })),
    };
  },
  ClearTariffs: (p, s) => ({ clearTariffsResult: clearTariffs(s, p.tariffIds, p.evseId) }),
  ChangeTransactionTariff: (p, s) => ({
    status: changeTransactionTariff(s, connectorByTxId(s, p.transactionId), p.tariff),
  }),
};
