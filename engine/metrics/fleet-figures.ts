// The nodes' figures summed into the fleet's: per version and action for /metrics (every
// organization) and for the csms-latency endpoint (one organization, optionally one location,
// over a window). Pure functions of NodeFigures, so the sum over nodes is tested without nodes.
import { ERRORS, MAX, N, TIMEOUTS, addEncoded, newCell, percentile, type Cell } from './answer-cells.ts';
import type { NodeFigures, WindowName } from './csms-measurements.ts';

export interface ActionFigures {
  version: string;
  action: string;
  cell: Cell;
  /** CALLERRORs by code (since start; the windows count them in the cell only). */
  codes: Map<string, number>;
}

export interface FleetFigures {
  actions: ActionFigures[];
  boots: Map<string, number>;
  calls: Map<string, number>;
  connectors: Map<string, number>;
  /** Keys `version\naction`. */
  late: Map<string, number>;
  /** By version. */
  connects: Map<string, number>;
  connected: Map<string, number>;
  /** Keys `version\ncode`. */
  closes: Map<string, number>;
  failures: Map<string, number>;
}

const CELL_OF = { all: 'all', '1m': 'm1', '15m': 'm15' } as const;

/** Sums the series of these nodes kept by `keep`, per version and action, in that window. */
export function sumSeries(
  nodes: NodeFigures[],
  window: WindowName = 'all',
  keep: (org: string, loc: string | null) => boolean = () => true,
): ActionFigures[] {
  const out = new Map<string, ActionFigures>();
  for (const node of nodes)
    for (const s of node.series ?? []) {
      if (!keep(s.org, s.loc)) continue;
      const key = `${s.version}\n${s.action}`;
      let figures = out.get(key);
      if (!figures)
        out.set(key, (figures = { version: s.version, action: s.action, cell: newCell(), codes: new Map() }));
      addEncoded(figures.cell, s[CELL_OF[window]]);
      if (window === 'all')
        for (const [code, n] of Object.entries(s.codes ?? {}))
          figures.codes.set(code, (figures.codes.get(code) ?? 0) + n);
    }
  return [...out.values()].sort((a, b) =>
    a.version === b.version ? a.action.localeCompare(b.action) : a.version.localeCompare(b.version),
  );
}

/** Everything /metrics shows of the central system, summed over these nodes. */
export function sumFleet(nodes: NodeFigures[]): FleetFigures {
  const boots = new Map<string, number>();
  const calls = new Map<string, number>();
  const connectors = new Map<string, number>();
  const late = new Map<string, number>();
  const connects = new Map<string, number>();
  const connected = new Map<string, number>();
  const closes = new Map<string, number>();
  const failures = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  for (const node of nodes) {
    for (const b of node.boots ?? []) add(boots, `${b.version}\n${b.status}`, b.n);
    for (const c of node.calls ?? []) add(calls, `${c.version}\n${c.action}\n${c.status}`, c.n);
    for (const [status, n] of Object.entries(node.connectors ?? {})) add(connectors, status, n);
    for (const l of node.late ?? []) add(late, `${l.version}\n${l.action}`, l.n);
    for (const l of node.links ?? []) {
      add(connects, l.version, l.connects);
      add(connected, l.version, l.connected);
      for (const [code, n] of Object.entries(l.closes)) add(closes, `${l.version}\n${code}`, n);
      for (const [code, n] of Object.entries(l.failures)) add(failures, `${l.version}\n${code}`, n);
    }
  }
  return { actions: sumSeries(nodes), boots, calls, connectors, late, connects, connected, closes, failures };
}

export interface LatencyItem {
  version: string;
  action: string;
  count: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  callerrors: number;
  timeouts: number;
}

const ms = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

/** The csms-latency endpoint's items: one per version and action with an answer or a timeout. */
export function latencyItems(
  nodes: NodeFigures[],
  window: WindowName,
  keep: (org: string, loc: string | null) => boolean,
): LatencyItem[] {
  return sumSeries(nodes, window, keep)
    .filter(({ cell }) => cell[N] > 0 || cell[TIMEOUTS] > 0)
    .map(({ version, action, cell }) => ({
      version,
      action,
      count: cell[N],
      p50_ms: ms(percentile(cell, 0.5)),
      p95_ms: ms(percentile(cell, 0.95)),
      p99_ms: ms(percentile(cell, 0.99)),
      max_ms: cell[N] > 0 ? ms(cell[MAX]) : null,
      callerrors: cell[ERRORS],
      timeouts: cell[TIMEOUTS],
    }));
}
