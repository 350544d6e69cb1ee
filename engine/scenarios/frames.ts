// What a scenario reads from the message log: each frame of its chargers, parsed once, and the
// questions expectations ask of it (a partial payload match, a connector's status, a meter value).
// No OCPP version check: 1.6 and 2.0.1 field names are both looked at where they differ.
import type { LogEntry } from '../message-log/charger-log.ts';
import { itemJson } from '../message-log/log-item.ts';

export const TYPE_NAMES = { 2: 'CALL', 3: 'CALLRESULT', 4: 'CALLERROR' } as const;
export type FrameType = 'CALL' | 'CALLRESULT' | 'CALLERROR' | 'OTHER';

export interface SeenFrame {
  /** The message log's item id. */
  id: string;
  at: number;
  /** Seen from the charger: `out` = sent by the charger. */
  direction: 'in' | 'out';
  type: FrameType;
  messageId: string | null;
  action: string | null;
  payload: unknown;
  /** The item as the message log's API shows it (frame embedded verbatim). */
  item: string;
}

export function seen(entry: LogEntry): SeenFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(entry.frame);
  } catch {
    frame = null;
  }
  const arr = Array.isArray(frame) ? frame : [];
  const type: FrameType = (entry.type !== null && TYPE_NAMES[entry.type as 2 | 3 | 4]) || 'OTHER';
  const payload =
    type === 'CALL' ? arr[3] : type === 'CALLRESULT' ? arr[2] : type === 'CALLERROR' ? arr.slice(2) : null;
  return {
    id: String(entry.id),
    at: entry.at,
    direction: entry.direction,
    type,
    messageId: entry.messageId,
    action: entry.action,
    payload,
    item: itemJson(entry),
  };
}

/**
 * Whether `actual` holds everything `expected` says: objects by their keys (extra keys allowed),
 * arrays element by element (as a prefix), anything else equal; a string pattern `/re/` matches as
 * a regular expression.
 */
export function matches(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') {
    if (
      typeof expected === 'string' &&
      expected.length > 2 &&
      expected.startsWith('/') &&
      expected.endsWith('/')
    )
      return typeof actual === 'string' || typeof actual === 'number'
        ? new RegExp(expected.slice(1, -1)).test(String(actual))
        : false;
    // A number written as a string in OCPP 1.6 (meter values) matches the number and vice versa.
    return (
      actual === expected ||
      (actual !== null &&
        actual !== undefined &&
        String(actual) === String(expected) &&
        typeof actual !== 'object')
    );
  }
  if (Array.isArray(expected))
    return Array.isArray(actual) && expected.every((e, i) => matches(actual[i], e));
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([k, v]) => matches((actual as Record<string, unknown>)[k], v));
}

// Payloads are read field by field where 1.6 and 2.0.1 differ, each field checked for its type:
// the log holds frames as they crossed the wire, which need not be valid (a raw PROXY_CALL, an
// external central system's answer), so no schema's type is assumed.
type Fields = Record<string, unknown>;
const obj = (v: unknown): Fields => (v && typeof v === 'object' ? (v as Fields) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * The statuses a frame the charger sent reports: [connector, status, track], the track being the
 * connector's status (StatusNotification) or, in 2.0.1, the transaction's charging state.
 */
export function statusesOf(f: SeenFrame): Array<[number, string, 'connector' | 'charging']> {
  if (f.direction !== 'out' || f.type !== 'CALL') return [];
  const p = obj(f.payload);
  if (f.action === 'StatusNotification') {
    // 1.6: connectorId + status; 2.0.1: evseId (one connector per EVSE) + connectorStatus.
    const connector = p.evseId ?? p.connectorId;
    const status = p.connectorStatus ?? p.status;
    return typeof connector === 'number' && typeof status === 'string'
      ? [[connector, status, 'connector']]
      : [];
  }
  if (f.action === 'TransactionEvent') {
    const state = obj(p.transactionInfo).chargingState;
    const evse = obj(p.evse).id;
    return typeof state === 'string' && typeof evse === 'number' ? [[evse, state, 'charging']] : [];
  }
  return [];
}

/** Values of `measurand` (in Wh / W: kWh and kW are scaled) a frame the charger sent carries for a connector. */
export function meterValuesOf(f: SeenFrame, connector: number, measurand: string): number[] {
  if (f.direction !== 'out' || f.type !== 'CALL') return [];
  const p = obj(f.payload);
  let values: unknown[];
  let on: unknown;
  if (f.action === 'MeterValues') {
    values = list(p.meterValue);
    on = p.evseId ?? p.connectorId;
  } else if (f.action === 'TransactionEvent') {
    values = list(p.meterValue);
    on = obj(p.evse).id ?? connector;
  } else if (f.action === 'StopTransaction') {
    values = list(p.transactionData);
    on = connector;
    if (measurand === 'Energy.Active.Import.Register' && typeof p.meterStop === 'number')
      return [p.meterStop];
  } else return [];
  if (on !== connector) return [];
  const out: number[] = [];
  for (const mv of values)
    for (const sv of list(obj(mv).sampledValue)) {
      const s = obj(sv);
      if ((s.measurand ?? 'Energy.Active.Import.Register') !== measurand) continue;
      const unit = s.unit ?? obj(s.unitOfMeasure).unit;
      const n = Number(s.value) * (unit === 'kWh' || unit === 'kW' ? 1000 : 1);
      if (Number.isFinite(n)) out.push(n);
    }
  return out;
}

/** A payload value at a dotted path (`idTagInfo.status`, `meterValue.0.timestamp`). */
export function at(payload: unknown, path: string): unknown {
  let v: unknown = payload;
  for (const part of path.split('.')) v = obj(v)[part];
  return v;
}
