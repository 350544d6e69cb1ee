// What this engine node measures of the central system under test, for its own chargers (issue
// 36): for each organization, location, OCPP version and action the chargers send, the answer
// times (a histogram since start and over the last minute and 15 minutes), CALLERRORs by code and
// timeouts and answers later than the timeout; BootNotification answers by status; for each action
// the central system sends, the chargers' answers by status; and the connections: opened, open
// now, closed (by close code), failed before opening (by code).
//
// The chargers of one (organization, location, version) share one meter, asked for once per
// connection (charger-link.ts); an answer is then a map lookup and a few counter bumps in arrays
// made when the action was first seen. Windows are rings of slots (10 s for the minute, 60 s for
// the 15 minutes) that are cleared when reused: no timer anywhere. Labels stay bounded: at most
// MAX_METERS meters (later ones share one that no organization reads, so the fleet's sums stay
// right), MAX_LABELS actions, codes or statuses per table (later ones count as `other`).
//
//   const m = new CsmsMeasurements();
//   const meter = m.meter('org-a', locationId, 'ocpp1.6');   // the link's CallMeter
//   meter.onCallAnswered('Authorize', 301, 'result', { idTagInfo: { status: 'Accepted' } });
//   m.figures()                                              // NodeFigures, for the node's row
import type { CallMeter } from '../charger/charger-runtime.ts';
import type { CallOutcome } from '../../protocols/ocpp/index.ts';
import {
  CELL,
  addCell,
  encodeCell,
  newCell,
  recordAnswer,
  recordTimeout,
  type Cell,
} from './answer-cells.ts';

export const MAX_METERS = 1000;
export const MAX_LABELS = 64;
const MAX_LABEL_LENGTH = 64;

/** The windows the latency endpoint offers, by name: slot length and slots. */
export const WINDOWS = {
  '1m': { slotMs: 10_000, slots: 6 },
  '15m': { slotMs: 60_000, slots: 15 },
} as const;
export type WindowName = keyof typeof WINDOWS | 'all';

/** A ring of cells, one per slot of time; a slot is cleared when the ring comes round to it. */
class Ring {
  readonly #cells: Float64Array;
  readonly #views: Cell[] = [];
  /** The slot number (time / slotMs) each cell holds, -1 when none. */
  readonly #held: Float64Array;

  constructor(
    readonly slotMs: number,
    readonly slots: number,
  ) {
    this.#cells = new Float64Array(slots * CELL);
    this.#held = new Float64Array(slots).fill(-1);
    for (let i = 0; i < slots; i++) this.#views.push(this.#cells.subarray(i * CELL, (i + 1) * CELL));
  }

  /** The cell of the slot of `now`, cleared if it held an older slot. */
  at(now: number): Cell {
    const slot = Math.floor(now / this.slotMs);
    const i = slot % this.slots;
    const cell = this.#views[i];
    if (this.#held[i] !== slot) {
      cell.fill(0);
      this.#held[i] = slot;
    }
    return cell;
  }

  /** The sum of the slots of the last `slots * slotMs` up to now (the current slot included). */
  window(now: number): Cell {
    const slot = Math.floor(now / this.slotMs);
    const sum = newCell();
    for (let i = 0; i < this.slots; i++) {
      const held = this.#held[i];
      if (held > slot - this.slots && held <= slot) addCell(sum, this.#views[i]);
    }
    return sum;
  }
}

/** The figures of one action sent by the chargers of one meter. */
class ActionSeries {
  readonly all = newCell();
  readonly m1 = new Ring(WINDOWS['1m'].slotMs, WINDOWS['1m'].slots);
  readonly m15 = new Ring(WINDOWS['15m'].slotMs, WINDOWS['15m'].slots);
  /** CALLERRORs since start by code. */
  readonly codes = new Map<string, number>();
}

/** What the node counts per OCPP version, whatever the location: boot answers, the CSMS's calls. */
class VersionCounts {
  /** BootNotification CALLRESULTs by status. */
  readonly boots = new Map<string, number>();
  /** The CSMS's CALLs by action, then by the charger's answer status (or `error`). */
  readonly calls = new Map<string, Map<string, number>>();
  /** Answers to CALLs that had timed out, by action. */
  readonly late = new Map<string, number>();
  /** Connections opened, and open now. */
  connects = 0;
  connected = 0;
  /** Connections closed other than by the charger stopping, by WebSocket close code. */
  readonly closes = new Map<string, number>();
  /** Connection attempts that failed before opening, by code (HTTP_401, TLS_ERROR, ...). */
  readonly failures = new Map<string, number>();
}

/** One series of a node's figures: one action of one meter. Cells as encodeCell writes them. */
export interface SeriesFigures {
  org: string;
  loc: string | null;
  version: string;
  action: string;
  all: number[];
  m1: number[];
  m15: number[];
  codes: Record<string, number>;
}

/** Everything a node measured, as it writes it to its row (and /metrics reads it back). */
export interface NodeFigures {
  /** When these figures were taken (ms since the epoch): the windows end there. */
  at: number;
  series: SeriesFigures[];
  boots: Array<{ version: string; status: string; n: number }>;
  calls: Array<{ version: string; action: string; status: string; n: number }>;
  /** Connectors of the node's running chargers by status. */
  connectors: Record<string, number>;
  /** Answers later than the call timeout (absent in rows of older nodes). */
  late?: Array<{ version: string; action: string; n: number }>;
  /** The chargers' connections to the central system, per version (absent in rows of older nodes). */
  links?: Array<{
    version: string;
    connects: number;
    connected: number;
    closes: Record<string, number>;
    failures: Record<string, number>;
  }>;
}

// Made once: a closure written inside a hook would be a new function object per frame.
const newSeries = (): ActionSeries => new ActionSeries();
const newCounts = (): Map<string, number> => new Map();

/** A label value as written, or `other` past the table's bound or when it is not a short string. */
function bounded<V>(map: Map<string, V>, label: string, make: () => V): V {
  const found = map.get(label);
  if (found !== undefined) return found;
  const key = map.size < MAX_LABELS && label.length > 0 && label.length <= MAX_LABEL_LENGTH ? label : 'other';
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

function bump(map: Map<string, number>, label: string): void {
  const key =
    map.has(label) || (map.size < MAX_LABELS && label.length > 0 && label.length <= MAX_LABEL_LENGTH)
      ? label
      : 'other';
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The status of a CALLRESULT payload (`status` or 1.6's `idTagInfo.status`-less answers: `answered`). */
function statusOf(payload: unknown): string {
  const status = (payload as { status?: unknown } | null)?.status;
  return typeof status === 'string' ? status : 'answered';
}

/** The chargers of one organization, location and version: the link's CallMeter. */
class Meter implements CallMeter {
  readonly actions = new Map<string, ActionSeries>();

  constructor(
    readonly org: string,
    readonly loc: string | null,
    readonly version: string,
    private readonly counts: VersionCounts,
    private readonly clock: () => number,
  ) {}

  readonly onCallAnswered = (action: string, ms: number, outcome: CallOutcome, answer: unknown): void => {
    const s = bounded(this.actions, action, newSeries);
    const now = this.clock();
    if (outcome === 'timeout') {
      recordTimeout(s.all);
      recordTimeout(s.m1.at(now));
      recordTimeout(s.m15.at(now));
      return;
    }
    const error = outcome === 'error';
    recordAnswer(s.all, ms, error);
    recordAnswer(s.m1.at(now), ms, error);
    recordAnswer(s.m15.at(now), ms, error);
    if (error) bump(s.codes, typeof answer === 'string' ? answer : 'other');
    else if (action === 'BootNotification') bump(this.counts.boots, statusOf(answer));
  };

  readonly onCallReplied = (action: string, payload: unknown, errorCode: string | null): void => {
    bump(bounded(this.counts.calls, action, newCounts), errorCode === null ? statusOf(payload) : 'error');
  };

  readonly onLateAnswer = (action: string): void => {
    bump(this.counts.late, action);
  };

  readonly onConnected = (): void => {
    this.counts.connects++;
    this.counts.connected++;
  };

  readonly onDisconnected = (code: number | null): void => {
    this.counts.connected--;
    if (code !== null) bump(this.counts.closes, String(code));
  };

  readonly onConnectFailed = (code: string): void => {
    bump(this.counts.failures, code);
  };
}

export class CsmsMeasurements {
  readonly #meters = new Map<string, Meter>();
  readonly #versions = new Map<string, VersionCounts>();
  readonly #clock: () => number;

  constructor(opts: { clock?: () => number } = {}) {
    this.#clock = opts.clock ?? Date.now;
  }

  /** The meter of these chargers (once per connection, not per frame). */
  meter(org: string, loc: string | null, version: string): CallMeter {
    const key = `${org}\n${loc ?? ''}\n${version}`;
    let meter = this.#meters.get(key);
    if (meter) return meter;
    let counts = this.#versions.get(version);
    if (!counts) this.#versions.set(version, (counts = new VersionCounts()));
    if (this.#meters.size >= MAX_METERS) {
      // Past the bound: counted for the fleet, read by no organization.
      const overflow = `\n\n${version}`;
      meter = this.#meters.get(overflow);
      if (!meter) this.#meters.set(overflow, (meter = new Meter('', null, version, counts, this.#clock)));
      return meter;
    }
    meter = new Meter(org, loc, version, counts, this.#clock);
    this.#meters.set(key, meter);
    return meter;
  }

  /** Everything measured so far, the windows ending now. */
  figures(connectors: Record<string, number> = {}): NodeFigures {
    const at = this.#clock();
    const series: SeriesFigures[] = [];
    for (const m of this.#meters.values())
      for (const [action, s] of m.actions)
        series.push({
          org: m.org,
          loc: m.loc,
          version: m.version,
          action,
          all: encodeCell(s.all),
          m1: encodeCell(s.m1.window(at)),
          m15: encodeCell(s.m15.window(at)),
          codes: Object.fromEntries(s.codes),
        });
    const boots: NodeFigures['boots'] = [];
    const calls: NodeFigures['calls'] = [];
    const late: NonNullable<NodeFigures['late']> = [];
    const links: NonNullable<NodeFigures['links']> = [];
    for (const [version, counts] of this.#versions) {
      for (const [status, n] of counts.boots) boots.push({ version, status, n });
      for (const [action, statuses] of counts.calls)
        for (const [status, n] of statuses) calls.push({ version, action, status, n });
      for (const [action, n] of counts.late) late.push({ version, action, n });
      const { connects, connected } = counts;
      links.push({
        version,
        connects,
        connected,
        closes: Object.fromEntries(counts.closes),
        failures: Object.fromEntries(counts.failures),
      });
    }
    return { at, series, boots, calls, connectors, late, links };
  }
}
