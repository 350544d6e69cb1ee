// Tariffs the charger holds (OCPP 2.1 block I, local cost calculation): I07 default tariffs per
// EVSE (evseId 0: every EVSE), I09 what is held, I10 clearing them, I11 the tariff of a running
// transaction. A transaction takes its tariff when it starts (the EVSE's own default tariff, else
// the charger-wide one, the latest whose validFrom has come) and keeps it: clearing the defaults
// later does not reprice it. While it runs the charger counts its idle time (not charging) and
// keeps its running cost (blocks/tariff-cost.ts's `costs`, which the detail view shows); the
// cost itself is tariff-pricing.ts's, written by the 2.1 wire into every TransactionEvent.
import type { Connector } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import {
  cents,
  priceSession,
  unsupportedCondition,
  type SessionCost,
  type Tariff,
  type Usage,
} from './tariff-pricing.ts';
import { costUpdated } from './tariff-cost.ts';
import type { DisplayMessage } from './display-messages.ts';

export interface HeldTariff {
  /** 0: every EVSE. */
  evseId: number;
  tariff: Tariff;
}

declare module '../core/context.ts' {
  interface ChargerContext {
    /** I07: the default tariffs the CSMS set, in the order it set them. */
    tariffs?: HeldTariff[];
  }
  interface Connector {
    /** I08: the tariff the CSMS gave with this token's Authorize answer, for its next transaction here. */
    driverTariff?: { idTag: string; tariff: Tariff };
  }
  interface Transaction {
    /** The tariff this transaction is priced by (2.1 local cost calculation). */
    tariff?: Tariff;
    /** Idle time counted so far (ms) and, while idle now, since when. */
    idleMs?: number;
    idleSince?: number;
  }
}

/** How long the final cost of a session stays on the display after it ended (ms). */
export const FINAL_COST_SHOWN_MS = 60_000;

/** TariffCostCtrlr.MaxElements[Tariff]: price elements a tariff may have per dimension. */
export const TARIFF_MAX_ELEMENTS = 10;
/** How many default tariffs the charger keeps. */
export const TARIFFS_MAX = 16;

type SetStatus = 'Accepted' | 'Rejected' | 'TooManyElements' | 'ConditionNotSupported' | 'DuplicateTariffId';

function judge(t: Tariff): 'TooManyElements' | 'ConditionNotSupported' | undefined {
  const counts = [t.energy, t.chargingTime, t.idleTime, t.fixedFee].map((d) => d?.prices.length ?? 0);
  if (counts.some((n) => n > TARIFF_MAX_ELEMENTS)) return 'TooManyElements';
  if (unsupportedCondition(t)) return 'ConditionNotSupported';
  return undefined;
}

/** I07: keeps a default tariff for an EVSE (0: all); the same id elsewhere is a duplicate. */
export function setDefaultTariff(s: Step, evseId: number, tariff: Tariff): SetStatus {
  if (evseId > 0 && !s.connector(evseId)) return 'Rejected';
  const problem = judge(tariff);
  if (problem) return problem;
  const held = s.ctx.tariffs ?? [];
  if (held.some((h) => h.tariff.tariffId === tariff.tariffId && h.evseId !== evseId))
    return 'DuplicateTariffId';
  // A tariff of the same id on the same EVSE is replaced; another with the same validFrom too.
  const kept = held.filter(
    (h) =>
      !(
        h.evseId === evseId &&
        (h.tariff.tariffId === tariff.tariffId || h.tariff.validFrom === tariff.validFrom)
      ),
  );
  if (kept.length >= TARIFFS_MAX) return 'Rejected';
  s.patch({ tariffs: [...kept, { evseId, tariff }] });
  return 'Accepted';
}

/** I09: the tariffs held for an EVSE (0: all), default ones and those of running transactions. */
interface TariffAssignment {
  tariffId: string;
  kind: 'DefaultTariff' | 'DriverTariff';
  validFrom?: string;
  evseIds: number[];
}

export function tariffsOf(s: Step, evseId: number): TariffAssignment[] {
  const out: TariffAssignment[] = (s.ctx.tariffs ?? [])
    .filter((h) => evseId === 0 || h.evseId === evseId || h.evseId === 0)
    .map((h) => ({
      tariffId: h.tariff.tariffId,
      kind: 'DefaultTariff',
      ...(h.tariff.validFrom ? { validFrom: h.tariff.validFrom } : {}),
      evseIds: [h.evseId],
    }));
  const defaults = new Set(out.map((t) => t.tariffId));
  for (const c of s.ctx.connectors) {
    const t = c.tx?.tariff;
    if (!t || defaults.has(t.tariffId) || (evseId !== 0 && c.id !== evseId)) continue;
    out.push({ tariffId: t.tariffId, kind: 'DriverTariff', evseIds: [c.id] });
  }
  return out;
}

/** I10: clears default tariffs by id (all when none given), at one EVSE or everywhere. */
export function clearTariffs(
  s: Step,
  ids: string[] | undefined,
  evseId: number | undefined,
): { tariffId?: string; status: 'Accepted' | 'NoTariff' }[] {
  const held = s.ctx.tariffs ?? [];
  const hit = (h: HeldTariff) =>
    (ids === undefined || ids.includes(h.tariff.tariffId)) && (evseId === undefined || h.evseId === evseId);
  const cleared = held.filter(hit);
  s.patch({ tariffs: held.filter((h) => !hit(h)) });
  if (ids === undefined)
    return cleared.length
      ? cleared.map((h) => ({ tariffId: h.tariff.tariffId, status: 'Accepted' }))
      : [{ status: 'NoTariff' }];
  return ids.map((id) => ({
    tariffId: id,
    status: cleared.some((h) => h.tariff.tariffId === id) ? 'Accepted' : 'NoTariff',
  }));
}

/** I11: the running transaction on `c` is priced by `tariff` from now on (its whole session). */
export function changeTransactionTariff(
  s: Step,
  c: Connector | undefined,
  tariff: Tariff,
): 'Accepted' | 'TooManyElements' | 'ConditionNotSupported' | 'TxNotFound' | 'NoCurrencyChange' {
  if (!c?.tx) return 'TxNotFound';
  if (c.tx.tariff && c.tx.tariff.currency !== tariff.currency) return 'NoCurrencyChange';
  const problem = judge(tariff);
  if (problem) return problem;
  s.putConnector({ ...c, tx: { ...c.tx, tariff } });
  return 'Accepted';
}

/** I08: an Authorize answer gave the token a tariff of its own: it prices the token's next transaction here. */
export function driverTariff(s: Step, id: number, idTag: string, tariff: Tariff | undefined): void {
  const c = s.connector(id);
  if (!c || c.tx) return;
  if (tariff && !judge(tariff)) s.putConnector({ ...c, driverTariff: { idTag, tariff } });
  else if (c.driverTariff) {
    const { driverTariff: _gone, ...rest } = c;
    s.putConnector(rest);
  }
}

/**
 * The tariff a transaction of `idTag` starting now on connector `id` takes, if any: the token's
 * own (I08), else the EVSE's default one, else the charger-wide one.
 */
export function tariffAtStart(s: Step, id: number, idTag: string): { tariff?: Tariff } {
  const own = s.connector(id)?.driverTariff;
  if (own?.idTag === idTag) return { tariff: own.tariff };
  const due = (s.ctx.tariffs ?? []).filter(
    (h) => h.tariff.validFrom === undefined || Date.parse(h.tariff.validFrom) <= s.now,
  );
  const latest = (evse: number) =>
    due
      .filter((h) => h.evseId === evse)
      .sort((a, b) => Date.parse(a.tariff.validFrom ?? '0') - Date.parse(b.tariff.validFrom ?? '0'))
      .at(-1);
  const t = (latest(id) ?? latest(0))?.tariff;
  return t ? { tariff: t } : {};
}

/** What the transaction on `c` used up to `at`: the registers as reported, the clock, idle time. */
export function usageOf(c: Connector, at: number): Usage {
  const tx = c.tx!;
  const idleMs = (tx.idleMs ?? 0) + (tx.idleSince !== undefined ? at - tx.idleSince : 0);
  return {
    energyWh: Math.max(0, Math.floor(c.meterWh) - tx.startWh),
    durationS: Math.round((at - tx.startedAt) / 1000),
    idleS: Math.round(idleMs / 1000),
  };
}

/** The cost so far of the transaction on `c`, when it has a tariff. */
export function costOfSession(c: Connector, at: number): SessionCost | undefined {
  return c.tx?.tariff ? priceSession(c.tx.tariff, usageOf(c, at)) : undefined;
}

/**
 * A change during a priced transaction (its charging state, a meter sample): counts idle time
 * (the EV not charging) and keeps the running cost. Nothing for a transaction without a tariff.
 */
export function tariffTick(s: Step, id: number): void {
  const c = s.connector(id);
  const tx = c?.tx;
  if (!c || !tx?.tariff) return;
  const charging = c.status === 'Charging';
  if (charging && tx.idleSince !== undefined) {
    const { idleSince, ...rest } = tx;
    s.putConnector({ ...c, tx: { ...rest, idleMs: (tx.idleMs ?? 0) + s.now - idleSince } });
  } else if (!charging && tx.idleSince === undefined)
    s.putConnector({ ...c, tx: { ...tx, idleSince: s.now } });
  const cost = costOfSession(s.connector(id)!, s.now);
  if (!cost) return;
  costUpdated(s, tx.ref, cents(cost.total.inclTax));
  show(s, id, `Cost so far: ${money(cost.total.inclTax, cost.currency)}`, {
    priority: 'NormalCycle',
    txRef: tx.ref,
  });
}

/** A priced transaction on `c` ends now: its final cost goes on the display for a minute. */
export function tariffEnded(s: Step, c: Connector): void {
  const cost = costOfSession(c, s.now);
  if (!cost) return;
  show(s, c.id, `Total cost: ${money(cost.total.inclTax, cost.currency)} incl. tax`, {
    priority: 'InFront',
    endAt: s.now + FINAL_COST_SHOWN_MS,
  });
}

const money = (x: number, currency: string) => `${cents(x).toFixed(2)} ${currency}`;

/** The charger's own message of connector `id` on the display (one each; the expired ones go). */
function show(
  s: Step,
  id: number,
  content: string,
  o: Pick<DisplayMessage, 'priority' | 'txRef' | 'endAt'>,
): void {
  const running = new Set(s.ctx.connectors.flatMap((c) => (c.tx ? [c.tx.ref] : [])));
  const kept = (s.ctx.chargerMessages ?? []).filter(
    (m) =>
      m.id !== id &&
      (m.endAt === undefined || m.endAt > s.now) &&
      (m.txRef === undefined || running.has(m.txRef)),
  );
  s.patch({ chargerMessages: [...kept, { id, format: 'UTF8', content, setAt: s.now, ...o }] });
}
