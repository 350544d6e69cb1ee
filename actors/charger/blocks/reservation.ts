// Reservation: a connector (or any connector of the charger) held for one driver until a deadline.
// OCPP 1.6 Reservation profile: ReserveNow / CancelReservation (connector 0 when
// ReserveConnectorZeroSupported); 2.0.1 block H: H01 reserve an EVSE, a connector type or any
// EVSE, H02 cancel, H03 use a reserved EVSE, H04 the reservation ends (ReservationStatusUpdate).
// A reservation is used up by the transaction its token (or a token of its parent/group) starts;
// any other token is refused on a reserved connector, and connector-0 reservations keep enough
// connectors free for their holders: once the free connectors are no more than those reservations,
// each is shown Reserved (OCTT TC_H_14), and Available again when that is no longer so.
import type { Connector } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import { moveConnector, pending } from '../core/connector-status.ts';
import { boolSetting } from '../core/settings.ts';

declare module '../core/context.ts' {
  interface ChargerContext {
    /** Reservations held (absent: none). */
    reservations?: Reservation[];
    /** Free connectors shown Reserved because the connector-0 reservations need every one of them. */
    reservedForAny?: number[];
  }
  interface ChargerTimers {
    /** The earliest reservation's expiry. */
    reservation?: number;
  }
  interface Connector {
    /** The reservation holding this connector. */
    reservationId?: number;
  }
  interface Transaction {
    /** The reservation this transaction used up (1.6 StartTransaction / 2.0.1 TransactionEvent say it). */
    reservationId?: number;
  }
}

export interface Reservation {
  id: number;
  /** The connector held; 0: any connector (of `connectorType`, when given). */
  connectorId: number;
  idTag: string;
  /** 1.6 parentIdTag / 2.0.1 groupIdToken: any token of this group may use the reservation. */
  parentIdTag?: string;
  /** A token the CSMS said belongs to parentIdTag (its Authorize answer). */
  viaParent?: string;
  /** 2.0.1: the connector type asked for (ConnectorEnumType). */
  connectorType?: string;
  expiresAt: number;
}

export type ReserveStatus = 'Accepted' | 'Faulted' | 'Occupied' | 'Rejected' | 'Unavailable';

/** May a token use this connector, given the reservations: yes, no, or ask the CSMS for its group. */
export type ReservationVerdict = 'yes' | 'no' | 'ask';

const held = (s: Step): Reservation[] => s.ctx.reservations ?? [];

const matches = (r: Reservation, idTag: string) => r.idTag === idTag || r.viaParent === idTag;

/** 2.0.1 connector types name the model's types with a c/s (cable/socket) prefix: cType2 ~ Type2. */
function fitsType(s: Step, c: Connector, type: string | undefined): boolean {
  if (!type) return true;
  const model = s.ctx.model.connector_types?.[c.id - 1];
  return !!model && type.replace(/^[cs](?=[A-Z])/, '').toLowerCase() === model.toLowerCase();
}

/** Free for a connector-0 reservation: in service, idle, nobody's (or shown Reserved for them). */
const isFree = (s: Step, c: Connector) =>
  !c.tx &&
  !c.inoperative &&
  c.reservationId === undefined &&
  (c.status === 'Available' || (c.status === 'Reserved' && !!s.ctx.reservedForAny?.includes(c.id)));

function store(s: Step, reservations: Reservation[]): void {
  s.patch({ reservations: reservations.length > 0 ? reservations : undefined });
  let next: number | undefined;
  for (const r of reservations) if (next === undefined || r.expiresAt < next) next = r.expiresAt;
  if (next === undefined) s.clearTimer('reservation');
  else s.setTimer('reservation', next);
}

/** Lets go of a reservation: its connector settles where its cable, token and availability put it. */
function release(s: Step, r: Reservation): void {
  store(
    s,
    held(s).filter((x) => x.id !== r.id),
  );
  const c = r.connectorId > 0 ? s.connector(r.connectorId) : undefined;
  if (c?.reservationId !== r.id) return;
  const freed = { ...c, reservationId: undefined };
  s.putConnector(freed);
  moveConnector(s, c.id, ['unreserved', ...pending(freed)], freed.errorCode);
}

/** Why a connector cannot be reserved now, as the ReserveNow answer says it; undefined when it can. */
function refusal(s: Step, c: Connector, id: number): ReserveStatus | undefined {
  if (c.status === 'Faulted') return 'Faulted';
  if (c.inoperative || c.status === 'Unavailable' || s.ctx.chargerStatus === 'Unavailable')
    return 'Unavailable';
  if (c.reservationId !== undefined) return c.reservationId === id ? undefined : 'Occupied';
  return c.status === 'Available' && !c.tx ? undefined : 'Occupied';
}

/** 1.6 ReserveNow / 2.0.1 H01: a known id is replaced by the new reservation (if it can be had). */
export function reserve(s: Step, r: Omit<Reservation, 'viaParent'>): ReserveStatus {
  const before = held(s).find((x) => x.id === r.id);
  const others = held(s).filter((x) => x.id !== r.id);
  if (r.connectorId === 0) {
    if (!boolSetting(s.ctx, 'ReserveConnectorZeroSupported')) return 'Rejected';
    const fitting = s.ctx.connectors.filter((c) => fitsType(s, c, r.connectorType));
    if (fitting.length === 0) return 'Rejected';
    if (
      s.ctx.chargerStatus === 'Unavailable' ||
      fitting.every((c) => c.inoperative || c.status === 'Unavailable')
    )
      return 'Unavailable';
    if (fitting.every((c) => c.status === 'Faulted')) return 'Faulted';
    const taken = others.filter((x) => x.connectorId === 0).length;
    if (fitting.filter((c) => isFree(s, c)).length <= taken) return 'Occupied';
  } else {
    const c = s.connector(r.connectorId);
    if (!c || !fitsType(s, c, r.connectorType)) return 'Rejected';
    const no = refusal(s, c, r.id);
    if (no) return no;
  }
  if (before && before.connectorId !== r.connectorId) release(s, before);
  store(s, [...held(s).filter((x) => x.id !== r.id), r]);
  const c = r.connectorId > 0 ? s.connector(r.connectorId) : undefined;
  if (c && c.reservationId !== r.id) {
    s.putConnector({ ...c, reservationId: r.id });
    moveConnector(s, c.id, ['reserved']);
  }
  return 'Accepted';
}

/** 1.6 CancelReservation / 2.0.1 H02. */
export function cancelReservation(s: Step, id: number): 'Accepted' | 'Rejected' {
  const r = held(s).find((x) => x.id === id);
  if (!r) return 'Rejected';
  release(s, r);
  return 'Accepted';
}

/** Timer `reservation`: H04 the reservations past their expiry end (2.0.1 tells the CSMS: Expired). */
export function reservationDue(s: Step): void {
  for (const r of held(s)) {
    if (r.expiresAt > s.now) continue;
    release(s, r);
    const update = s.wire.reservationUpdate(r.id, 'Expired');
    if (update) s.call(update);
  }
  store(s, held(s));
}

/**
 * A connector that faults or goes out of service ends its reservations (connector 0: the whole
 * charger, every reservation); 2.0.1 tells the CSMS: ReservationStatusUpdate Removed. The connector's
 * status is the fault's or the availability's, so it does not move here.
 */
export function reservationLost(s: Step, connectorId: number): void {
  const reservations = s.ctx.reservations;
  if (!reservations) return;
  for (const r of reservations) {
    if (connectorId !== 0 && r.connectorId !== connectorId) continue;
    store(
      s,
      held(s).filter((x) => x.id !== r.id),
    );
    const c = r.connectorId > 0 ? s.connector(r.connectorId) : undefined;
    if (c?.reservationId === r.id) s.putConnector({ ...c, reservationId: undefined });
    const update = s.wire.reservationUpdate(r.id, 'Removed');
    if (update) s.call(update);
  }
}

/**
 * H03: may this token start on this connector? A reserved connector takes its holder's token
 * only ('ask': the reservation has a parent/group the CSMS must confirm for the token); an
 * unreserved one must leave a free connector for each connector-0 reservation of another holder.
 */
export function reservationVerdict(s: Step, connectorId: number, idTag: string): ReservationVerdict {
  const reservations = s.ctx.reservations;
  if (!reservations) return 'yes';
  const c = s.connector(connectorId);
  if (!c) return 'yes';
  if (c.reservationId !== undefined) {
    const r = reservations.find((x) => x.id === c.reservationId);
    if (!r || matches(r, idTag)) return 'yes';
    return r.parentIdTag ? 'ask' : 'no';
  }
  const others = reservations.filter((r) => r.connectorId === 0 && !matches(r, idTag));
  if (others.length === 0 || reservations.some((r) => r.connectorId === 0 && matches(r, idTag))) return 'yes';
  const freeAfter = s.ctx.connectors.filter((x) => x.id !== connectorId && isFree(s, x)).length;
  if (freeAfter >= others.length) return 'yes';
  return others.some((r) => r.parentIdTag) ? 'ask' : 'no';
}

/** The CSMS said which group a token belongs to (Authorize): it may use that group's reservations. */
export function tokenGroup(s: Step, idTag: string, group: string | undefined): void {
  if (!group || !s.ctx.reservations?.some((r) => r.parentIdTag === group)) return;
  store(
    s,
    held(s).map((r) => (r.parentIdTag === group ? { ...r, viaParent: idTag } : r)),
  );
}

/**
 * A transaction starts on this connector for this token: the reservation it used is used up.
 * Returns its id (the transaction's start message carries it).
 */
export function reservationUsed(s: Step, connectorId: number, idTag: string): number | undefined {
  const reservations = s.ctx.reservations;
  if (!reservations) return undefined;
  const c = s.connector(connectorId);
  if (!c) return undefined;
  const r =
    c.reservationId !== undefined
      ? reservations.find((x) => x.id === c.reservationId)
      : reservations.find((x) => x.connectorId === 0 && matches(x, idTag) && fitsType(s, c, x.connectorType));
  if (!r) return undefined;
  store(
    s,
    reservations.filter((x) => x.id !== r.id),
  );
  // The transaction moves the connector on (Reserved -> Charging ...): no status of its own here.
  if (c.reservationId !== undefined) s.putConnector({ ...c, reservationId: undefined });
  return r.id;
}

/**
 * H01 (OCTT TC_H_14), after every event: when the free connectors are no more than the
 * connector-0 reservations, each of them is shown Reserved (none is left for anyone else); when
 * that ends (a reservation ends or is used, a connector frees up), they go back where their cable,
 * token and availability put them. A charger without reservations pays one comparison.
 */
export function showReservedForAny(s: Step): void {
  const shown = s.ctx.reservedForAny;
  const reservations = s.ctx.reservations;
  if (!shown && !reservations) return;
  let wanted = 0;
  for (const r of reservations ?? []) if (r.connectorId === 0) wanted++;
  const free = wanted > 0 ? s.ctx.connectors.filter((c) => isFree(s, c)) : [];
  const hold = free.length > 0 && free.length <= wanted ? free.map((c) => c.id) : undefined;
  if (shown?.join() === hold?.join()) return;
  s.patch({ reservedForAny: hold });
  for (const id of shown ?? []) {
    const c = s.connector(id);
    if (hold?.includes(id) || !c || c.status !== 'Reserved' || c.reservationId !== undefined) continue;
    moveConnector(s, id, ['unreserved', ...pending(c)], c.errorCode);
  }
  for (const id of hold ?? []) if (!shown?.includes(id)) moveConnector(s, id, ['reserved']);
}
