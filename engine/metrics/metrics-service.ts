// The fleet's measurements of the central system under test, as the API serves them (issue 36):
// this node writes its figures to its row every few seconds (one statement, whatever the number
// of chargers and frames), and GET /metrics and the csms-latency endpoint sum this node's figures
// (taken now, from memory) with the rows of the other live nodes.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Logger } from '../platform/log/logger.ts';
import { BUCKET_BOUNDS_MS, BUCKETS, N, SUM, TIMEOUTS } from './answer-cells.ts';
import type { CsmsMeasurements, NodeFigures, WindowName } from './csms-measurements.ts';
import type { FiguresStore } from './figures-store.ts';
import { latencyItems, sumFleet, type LatencyItem } from './fleet-figures.ts';
import { Exposition } from './prometheus-text.ts';

export interface MetricsServiceOptions {
  measurements: CsmsMeasurements;
  store: FiguresStore;
  nodeId: string;
  /** An engine node writes its figures (an API-only node runs no charger). */
  engine: boolean;
  /** Connectors of this node's running chargers by status. */
  connectors: () => Record<string, number>;
  log: Logger;
  /** How often the node's row is rewritten (default 5000 ms). */
  writeEveryMs?: number;
}

const LE = BUCKET_BOUNDS_MS.map((ms) => String(ms / 1000));

/** One sample per entry of `map`, whose keys are the label values joined by newlines, sorted. */
function samples(out: Exposition, name: string, labels: string[], map: Map<string, number>): void {
  for (const [key, n] of [...map].sort(([a], [b]) => a.localeCompare(b))) {
    const values = key.split('\n');
    out.sample(name, Object.fromEntries(labels.map((label, i) => [label, values[i]])), n);
  }
}

export class MetricsService {
  readonly #loop: IntervalHistogram;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #closed = false;

  constructor(private readonly opts: MetricsServiceOptions) {
    this.#loop = monitorEventLoopDelay({ resolution: 10 });
    this.#loop.enable();
  }

  start(): void {
    if (!this.opts.engine || this.#timer) return;
    this.#timer = setInterval(() => void this.write(), this.opts.writeEveryMs ?? 5000);
    this.#timer.unref();
  }

  /** Writes this node's figures now (the timer does it every few seconds). */
  write(): Promise<void> {
    if (this.#closed || !this.opts.engine) return Promise.resolve();
    this.#writing ??= this.opts.store
      .write(this.opts.nodeId, this.own())
      .catch((err: unknown) => this.opts.log.warn({ err }, 'metrics: the node figures were not written'))
      .finally(() => (this.#writing = undefined));
    return this.#writing;
  }

  /** This node's figures, taken now. */
  own(): NodeFigures {
    return this.opts.measurements.figures(this.opts.engine ? this.opts.connectors() : {});
  }

  /** This node's figures and the live other nodes' rows. */
  async nodes(): Promise<NodeFigures[]> {
    return [this.own(), ...(await this.opts.store.othersLive(this.opts.nodeId))];
  }

  /** The organization's figures (of one location when given) over the window, per version and action. */
  async latency(org: string, locationId: string | undefined, window: WindowName): Promise<LatencyItem[]> {
    const keep = (o: string, loc: string | null) =>
      o === org && (locationId === undefined || loc === locationId);
    return latencyItems(await this.nodes(), window, keep);
  }

  /** GET /metrics: the fleet's series and this process's own. */
  async prometheus(): Promise<string> {
    const [nodes, stages, liveNodes] = await Promise.all([
      this.nodes(),
      this.opts.store.stages(),
      this.opts.store.liveNodes(),
    ]);
    const fleet = sumFleet(nodes);
    const out = new Exposition();

    out.family(
      'evsim_csms_answer_seconds',
      'histogram',
      "Time from a charger's CALL to the central system's answer (CALLRESULT or CALLERROR), by OCPP version and action",
    );
    for (const { version, action, cell } of fleet.actions) {
      let cumulative = 0;
      for (let i = 0; i < BUCKETS - 1; i++) {
        cumulative += cell[i];
        out.sample('evsim_csms_answer_seconds_bucket', { version, action, le: LE[i] }, cumulative);
      }
      out.sample('evsim_csms_answer_seconds_bucket', { version, action, le: '+Inf' }, cell[N]);
      out.sample('evsim_csms_answer_seconds_sum', { version, action }, cell[SUM] / 1000);
      out.sample('evsim_csms_answer_seconds_count', { version, action }, cell[N]);
    }

    out.family(
      'evsim_csms_callerrors_total',
      'counter',
      "CALLERRORs the central system answered the chargers' CALLs with, by OCPP version, action and error code",
    );
    for (const { version, action, codes } of fleet.actions)
      for (const [code, n] of codes) out.sample('evsim_csms_callerrors_total', { version, action, code }, n);

    out.family(
      'evsim_csms_timeouts_total',
      'counter',
      "The chargers' CALLs the central system did not answer within the call timeout, by OCPP version and action",
    );
    for (const { version, action, cell } of fleet.actions)
      if (cell[TIMEOUTS] > 0) out.sample('evsim_csms_timeouts_total', { version, action }, cell[TIMEOUTS]);

    out.family(
      'evsim_csms_late_answers_total',
      'counter',
      "Answers of the central system to the chargers' CALLs that came after the call timeout (ignored, as OCPP-J says), by OCPP version and action",
    );
    samples(out, 'evsim_csms_late_answers_total', ['version', 'action'], fleet.late);

    out.family(
      'evsim_csms_boot_answers_total',
      'counter',
      "The central system's answers to BootNotification by OCPP version and status",
    );
    for (const [key, n] of fleet.boots) {
      const [version, status] = key.split('\n');
      out.sample('evsim_csms_boot_answers_total', { version, status }, n);
    }

    out.family(
      'evsim_csms_calls_total',
      'counter',
      "CALLs the central system sent to the chargers, by OCPP version, action and the charger's answer status (`error` for a CALLERROR, `answered` for an answer without a status)",
    );
    for (const [key, n] of fleet.calls) {
      const [version, action, status] = key.split('\n');
      out.sample('evsim_csms_calls_total', { version, action, status }, n);
    }

    out.family(
      'evsim_csms_connections',
      'gauge',
      "The chargers' open connections to the central system, by OCPP version",
    );
    samples(out, 'evsim_csms_connections', ['version'], fleet.connected);
    out.family(
      'evsim_csms_connects_total',
      'counter',
      'Connections the chargers opened to the central system, by OCPP version',
    );
    samples(out, 'evsim_csms_connects_total', ['version'], fleet.connects);
    out.family(
      'evsim_csms_disconnects_total',
      'counter',
      'Connections closed other than by the charger stopping (by the central system, or lost: 1006), by OCPP version and WebSocket close code',
    );
    samples(out, 'evsim_csms_disconnects_total', ['version', 'code'], fleet.closes);
    out.family(
      'evsim_csms_connect_failures_total',
      'counter',
      'Connection attempts that failed before opening, by OCPP version and code (HTTP_401, HTTP_404, TLS_ERROR, ECONNREFUSED, ...)',
    );
    samples(out, 'evsim_csms_connect_failures_total', ['version', 'code'], fleet.failures);

    out.family('evsim_chargers', 'gauge', 'Deployed chargers of every organization by stage');
    for (const [stage, n] of Object.entries(stages).sort()) out.sample('evsim_chargers', { stage }, n);

    out.family(
      'evsim_connectors',
      'gauge',
      "Connectors of the running chargers by status (the charger's own)",
    );
    for (const [status, n] of [...fleet.connectors].sort()) out.sample('evsim_connectors', { status }, n);

    out.family(
      'evsim_engine_nodes',
      'gauge',
      'Live nodes sharing the database (whose figures are summed here)',
    );
    out.sample('evsim_engine_nodes', {}, liveNodes);

    this.#process(out);
    return out.text();
  }

  /** This process's own figures, labelled with its node id. */
  #process(out: Exposition): void {
    const node = { node: this.opts.nodeId };
    const mem = process.memoryUsage();
    const cpu = process.cpuUsage();
    out.family(
      'evsim_process_event_loop_delay_seconds',
      'gauge',
      "This process's event-loop delay since the previous scrape, by quantile",
    );
    for (const q of [0.5, 0.9, 0.99]) {
      const ns = this.#loop.count > 0 ? this.#loop.percentile(q * 100) : 0;
      out.sample('evsim_process_event_loop_delay_seconds', { ...node, quantile: String(q) }, ns / 1e9);
    }
    out.family(
      'evsim_process_event_loop_delay_max_seconds',
      'gauge',
      'Largest event-loop delay since the previous scrape',
    );
    out.sample(
      'evsim_process_event_loop_delay_max_seconds',
      node,
      this.#loop.count > 0 ? this.#loop.max / 1e9 : 0,
    );
    this.#loop.reset();
    out.family('evsim_process_heap_used_bytes', 'gauge', 'V8 heap in use');
    out.sample('evsim_process_heap_used_bytes', node, mem.heapUsed);
    out.family('evsim_process_heap_total_bytes', 'gauge', 'V8 heap reserved');
    out.sample('evsim_process_heap_total_bytes', node, mem.heapTotal);
    out.family('evsim_process_resident_memory_bytes', 'gauge', 'Resident set size');
    out.sample('evsim_process_resident_memory_bytes', node, mem.rss);
    out.family('evsim_process_cpu_seconds_total', 'counter', 'User and system CPU time spent');
    out.sample('evsim_process_cpu_seconds_total', node, (cpu.user + cpu.system) / 1e6);
    out.family('evsim_process_start_time_seconds', 'gauge', 'Start time of the process since the epoch');
    out.sample('evsim_process_start_time_seconds', node, Math.round(Date.now() / 1000 - process.uptime()));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#timer);
    await this.#writing;
    this.#closed = true;
    this.#loop.disable();
    // The node leaves: its figures leave the fleet's sums with it (its presence ends too).
    if (this.opts.engine) await this.opts.store.remove(this.opts.nodeId).catch(() => undefined);
  }
}
