// A minimal, fast central system for load tests and benchmarks: `ws` plus our RpcEndpoint with
// schema validation on, answering what a charger sends in normal operation and counting what it
// receives. Not the product's central system: it keeps no state beyond counters and the open
// transactions (to catch lost or duplicated ones), so what a load test measures is the chargers.
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { RpcEndpoint, SUBPROTOCOLS, isOcppVersion, type OcppVersion } from '../../protocols/ocpp/index.ts';

export interface TransactionStats {
  started: number;
  stopped: number;
  /** Started and not stopped (yet). */
  open: number;
  /** A start for a transaction already started (2.0.1 id seen twice; 1.6 connector already busy). */
  duplicateStarts: number;
  /** A stop for a transaction already stopped. */
  duplicateStops: number;
  /** A stop or update naming a transaction this central system never started. */
  unknown: number;
}

export interface ReferenceCsmsStats {
  /** Open connections now. */
  connections: number;
  /** Connections accepted since start. */
  accepted: number;
  /** Connections that ended since start. */
  closed: number;
  /** CALLs received, per action. */
  calls: Record<string, number>;
  /** CALLERRORs this central system answered with, per error code (schema errors, NotImplemented). */
  callErrors: Record<string, number>;
  /** Messages that broke their schema (either direction). */
  schemaErrors: number;
  /** What the schema errors were, the first few of them. */
  schemaErrorSamples: string[];
  /** Frames that were not OCPP-J. */
  badFrames: number;
  transactions: TransactionStats;
  /** CPU time of the central system's process so far (ms, user + system), when it runs alone. */
  processCpuMs?: number;
}

export interface ReferenceCsmsOptions {
  host?: string;
  port?: number;
  /** The heartbeat interval the BootNotification answer gives (seconds, default 300). */
  heartbeatSec?: number;
}

export interface ReferenceCsms {
  url: string;
  stats(): ReferenceCsmsStats;
  close(): Promise<void>;
}

type Handler = (identity: string, payload: Record<string, unknown>) => object;

const SAMPLE_LIMIT = 10;

/** Open transactions, to tell lost, duplicated and unknown ones apart. */
class TransactionLedger {
  readonly stats: TransactionStats = {
    started: 0,
    stopped: 0,
    open: 0,
    duplicateStarts: 0,
    duplicateStops: 0,
    unknown: 0,
  };
  // transaction id -> `${identity}:${connector}` while open; ids stopped so far.
  readonly #open = new Map<string, string>();
  readonly #busy = new Set<string>();
  readonly #stopped = new Set<string>();

  start(id: string, where: string): void {
    if (this.#open.has(id) || this.#stopped.has(id) || this.#busy.has(where)) {
      this.stats.duplicateStarts++;
      return;
    }
    this.#open.set(id, where);
    this.#busy.add(where);
    this.stats.started++;
    this.stats.open++;
  }

  stop(id: string): void {
    const where = this.#open.get(id);
    if (where === undefined) {
      if (this.#stopped.has(id)) this.stats.duplicateStops++;
      else this.stats.unknown++;
      return;
    }
    this.#open.delete(id);
    this.#busy.delete(where);
    this.#stopped.add(id);
    this.stats.stopped++;
    this.stats.open--;
  }

  update(id: string): void {
    if (!this.#open.has(id) && !this.#stopped.has(id)) this.stats.unknown++;
  }
}

function handlersFor(
  version: OcppVersion,
  heartbeatSec: number,
  ledger: TransactionLedger,
  nextTransactionId: () => number,
): Record<string, Handler> {
  const now = () => new Date().toISOString();
  const accepted =
    version === 'ocpp1.6' ? { idTagInfo: { status: 'Accepted' } } : { idTokenInfo: { status: 'Accepted' } };
  return {
    BootNotification: () => ({ status: 'Accepted', currentTime: now(), interval: heartbeatSec }),
    Heartbeat: () => ({ currentTime: now() }),
    StatusNotification: () => ({}),
    Authorize: () => accepted,
    StartTransaction: (identity, p) => {
      const transactionId = nextTransactionId();
      ledger.start(String(transactionId), `${identity}:${String(p.connectorId)}`);
      return { transactionId, idTagInfo: { status: 'Accepted' } };
    },
    StopTransaction: (_identity, p) => {
      ledger.stop(String(p.transactionId));
      return { idTagInfo: { status: 'Accepted' } };
    },
    MeterValues: (_identity, p) => {
      if (p.transactionId !== undefined) ledger.update(String(p.transactionId));
      return {};
    },
    TransactionEvent: (identity, p) => {
      const info = p.transactionInfo as { transactionId: string };
      const evse = p.evse as { id?: number; connectorId?: number } | undefined;
      const id = `${identity}/${info.transactionId}`;
      if (p.eventType === 'Started') ledger.start(id, `${identity}:${evse?.id ?? '?'}`);
      else if (p.eventType === 'Ended') ledger.stop(id);
      else ledger.update(id);
      return p.idToken ? accepted : {};
    },
    NotifyReport: () => ({}),
  };
}

export async function startReferenceCsms(opts: ReferenceCsmsOptions = {}): Promise<ReferenceCsms> {
  const host = opts.host ?? '127.0.0.1';
  const heartbeatSec = opts.heartbeatSec ?? 300;
  const ledger = new TransactionLedger();
  const stats: ReferenceCsmsStats = {
    connections: 0,
    accepted: 0,
    closed: 0,
    calls: {},
    callErrors: {},
    schemaErrors: 0,
    schemaErrorSamples: [],
    badFrames: 0,
    transactions: ledger.stats,
  };
  let transactionId = 0;
  const nextTransactionId = () => ++transactionId;
  const handlers = {
    'ocpp1.6': handlersFor('ocpp1.6', heartbeatSec, ledger, nextTransactionId),
    'ocpp2.0.1': handlersFor('ocpp2.0.1', heartbeatSec, ledger, nextTransactionId),
    'ocpp2.1': handlersFor('ocpp2.1', heartbeatSec, ledger, nextTransactionId),
  } satisfies Record<OcppVersion, Record<string, Handler>>;

  const server = new WebSocketServer({
    host,
    port: opts.port ?? 0,
    // A connect storm of thousands: the default backlog (511) drops SYNs, which costs 1 s retries.
    backlog: 4096,
    perMessageDeflate: false,
    handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  server.on('connection', (ws, req) => {
    const version = ws.protocol;
    if (!isOcppVersion(version)) {
      ws.close(1002, 'unsupported subprotocol');
      return;
    }
    const identity = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
    stats.connections++;
    stats.accepted++;
    const table = handlers[version];
    const rpc = new RpcEndpoint({
      version,
      send: (text) => {
        // [4, id, code, ...]: count the CALLERRORs we answer with, whatever the reason.
        if (text.charCodeAt(1) === 52 && text.charCodeAt(2) === 44) {
          const code = (JSON.parse(text) as unknown[])[2] as string;
          stats.callErrors[code] = (stats.callErrors[code] ?? 0) + 1;
        }
        ws.send(text);
      },
      onCall: (action, payload) => {
        stats.calls[action] = (stats.calls[action] ?? 0) + 1;
        const handler = table[action];
        return handler ? handler(identity, payload) : {};
      },
      onSchemaError: (report) => {
        stats.schemaErrors++;
        if (stats.schemaErrorSamples.length < SAMPLE_LIMIT)
          stats.schemaErrorSamples.push(
            `${identity} ${report.direction} ${report.kind} ${report.action}: ${report.code} ${report.message}`,
          );
      },
      onBadFrame: () => stats.badFrames++,
    });
    ws.on('message', (data: Buffer) => rpc.receive(data.toString('utf8')));
    ws.on('close', () => {
      stats.connections--;
      stats.closed++;
      rpc.close();
    });
    ws.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `ws://${host}:${port}`,
    stats: () => structuredClone(stats),
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of server.clients) ws.terminate();
        server.close(() => resolve());
      }),
  };
}
