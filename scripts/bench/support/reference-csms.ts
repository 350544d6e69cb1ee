// A minimal, fast central system for benchmarks: `ws` plus our RpcEndpoint with schema validation
// on, answering what a charger sends in normal operation. Not the product's central system: it
// keeps no state beyond counters, so what a benchmark measures is the chargers.
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { RpcEndpoint, SUBPROTOCOLS, isOcppVersion, type OcppVersion } from '../../../protocols/ocpp/index.ts';

export interface ReferenceCsmsStats {
  connections: number;
  calls: Record<string, number>;
  schemaErrors: number;
}

export interface ReferenceCsms {
  url: string;
  stats(): ReferenceCsmsStats;
  close(): Promise<void>;
}

type Handler = (payload: Record<string, unknown>) => object;

function handlersFor(version: OcppVersion, nextTransactionId: () => number): Record<string, Handler> {
  const now = () => new Date().toISOString();
  const accepted =
    version === 'ocpp1.6' ? { idTagInfo: { status: 'Accepted' } } : { idTokenInfo: { status: 'Accepted' } };
  return {
    BootNotification: () => ({ status: 'Accepted', currentTime: now(), interval: 300 }),
    Heartbeat: () => ({ currentTime: now() }),
    StatusNotification: () => ({}),
    Authorize: () => accepted,
    StartTransaction: () => ({ transactionId: nextTransactionId(), idTagInfo: { status: 'Accepted' } }),
    StopTransaction: () => ({ idTagInfo: { status: 'Accepted' } }),
    MeterValues: () => ({}),
    TransactionEvent: (p) => (p.idToken ? accepted : {}),
    NotifyReport: () => ({}),
  };
}

export async function startReferenceCsms(
  opts: { host?: string; port?: number } = {},
): Promise<ReferenceCsms> {
  const host = opts.host ?? '127.0.0.1';
  const stats: ReferenceCsmsStats = { connections: 0, calls: {}, schemaErrors: 0 };
  let transactionId = 0;
  const nextTransactionId = () => ++transactionId;
  const handlers = {
    'ocpp1.6': handlersFor('ocpp1.6', nextTransactionId),
    'ocpp2.0.1': handlersFor('ocpp2.0.1', nextTransactionId),
    'ocpp2.1': handlersFor('ocpp2.1', nextTransactionId),
  } satisfies Record<OcppVersion, Record<string, Handler>>;

  const server = new WebSocketServer({
    host,
    port: opts.port ?? 0,
    perMessageDeflate: false,
    handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  server.on('connection', (ws) => {
    const version = ws.protocol;
    if (!isOcppVersion(version)) {
      ws.close(1002, 'unsupported subprotocol');
      return;
    }
    stats.connections++;
    const table = handlers[version];
    const rpc = new RpcEndpoint({
      version,
      send: (text) => ws.send(text),
      onCall: (action, payload) => {
        stats.calls[action] = (stats.calls[action] ?? 0) + 1;
        const handler = table[action];
        return handler ? handler(payload) : {};
      },
      onSchemaError: () => stats.schemaErrors++,
    });
    ws.on('message', (data: Buffer) => rpc.receive(data.toString('utf8')));
    ws.on('close', () => {
      stats.connections--;
      rpc.close();
    });
    ws.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
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
