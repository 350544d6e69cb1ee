/**
 * A strict OCPP central system for tests, built on ocpp-rpc's RPCServer with `strictMode: true`:
 * every CALL and CALLRESULT crossing the wire is checked by an implementation independent of ours,
 * and whatever it flags ends up in `schemaErrors` (so a test can assert it stayed empty).
 *
 *   const csms = await startStrictCsms();                  // ws://127.0.0.1:<port>, ocpp1.6 + ocpp2.0.1
 *   // connect a charger to `${csms.url}/<identity>` ...
 *   await csms.waitFor(() => csms.received.find((r) => r.action === 'BootNotification'));
 *   const answer = await csms.call('CP-1', 'GetConfiguration', {});   // the CSMS calls the charger
 *   csms.sendRaw('CP-1', '[2,"x","Reset",{}]');           // bypasses strict mode on purpose
 *   assert.deepEqual(csms.schemaErrors, []);
 *   await csms.close();                                     // always, e.g. in after()/t.after()
 *
 * Options:
 * - protocols: subprotocols offered (default ocpp1.6 and ocpp2.0.1; ocpp2.1 works too), first
 *   mutual one wins.
 * - handlers: per-action handlers `(params, client) => result`, over the defaults below; throw
 *   `createRPCError(code)` (from ocpp-rpc) to answer with a CALLERROR. `client.protocol` says the version.
 * - auth: `(identity, password) => boolean`; false refuses the upgrade with HTTP 401. Without it,
 *   every identity is accepted.
 * - port: listen there instead of on a free port (restart a server where chargers expect it).
 * - tls: serve wss:// (security profiles 2 and 3) with this PEM cert/key; `requestCert` demands a
 *   client certificate signed by `ca`. The url is then `wss://127.0.0.1:<port>` (put IP:127.0.0.1
 *   in the certificate's subjectAltName).
 *
 * Default answers (both versions where the action exists): BootNotification Accepted, interval 300;
 * Heartbeat; StatusNotification; Authorize Accepted; StartTransaction with transactionIds 1, 2, ...;
 * StopTransaction; MeterValues; TransactionEvent; NotifyReport; NotifyEvent; DataTransfer Accepted;
 * SecurityEventNotification; FirmwareStatusNotification; DiagnosticsStatusNotification;
 * LogStatusNotification; ReservationStatusUpdate; ReportChargingProfiles; NotifyDisplayMessages;
 * NotifyCustomerInformation; NotifyMonitoringReport; NotifyChargingLimit; ClearedChargingLimit.
 * Anything else answers NotImplemented.
 *
 * Records (all in arrival order):
 * - received: CALLs that passed strict validation and reached a handler.
 * - frames: every raw text message in and out, per identity.
 * - schemaErrors: ocpp-rpc `strictValidationFailure` events, inbound or outbound.
 * - badMessages: ocpp-rpc `badMessage` events (frames that are not OCPP-J, answers to unknown ids).
 * `waitFor(predicate)` re-checks the predicate each time any of these change (and on connect and
 * disconnect), so it never polls; it rejects after `timeoutMs` (default 5000).
 */
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { RPCServer, createRPCError, createValidator } from 'ocpp-rpc';
import type * as ServerClientModule from 'ocpp-rpc/lib/server-client.js';
import type { OcppVersion } from '../../protocols/ocpp/index.ts';

// ocpp-rpc is CommonJS: its class is the `default` of the module as TypeScript sees it from ESM.
export type RPCServerClient = ServerClientModule.default;

// Test payloads are free-form JSON.
type Json = any;

export type CsmsHandler = (params: Json, client: RPCServerClient) => unknown;

export interface StrictCsmsOptions {
  protocols?: OcppVersion[];
  handlers?: Record<string, CsmsHandler>;
  auth?: (identity: string, password: string | undefined) => boolean;
  tls?: { cert: string; key: string; ca?: string; requestCert?: boolean };
  /** Listen on this port (default: any free one), e.g. to restart a central system where it was. */
  port?: number;
}

export interface ReceivedCall {
  identity: string;
  protocol: string;
  action: string;
  params: Json;
  at: number;
}

export interface RecordedFrame {
  identity: string;
  outbound: boolean;
  text: string;
}

export interface SchemaFailure {
  identity: string;
  outbound: boolean;
  isCall: boolean;
  method: string;
  code: string;
  message: string;
  params: Json;
  result: Json;
}

export interface StrictCsms {
  url: string;
  received: ReceivedCall[];
  frames: RecordedFrame[];
  schemaErrors: SchemaFailure[];
  badMessages: Array<{ identity: string; text: string; error: string }>;
  clients: Map<string, RPCServerClient>;
  /** The CSMS calls a connected charger (strict: invalid params reject before sending). */
  call(identity: string, action: string, params: Json, opts?: { timeoutMs?: number }): Promise<Json>;
  /** Writes a frame exactly as given, past strict mode (to send chargers invalid messages). */
  sendRaw(identity: string, text: string): void;
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const now = (): string => new Date().toISOString();

/**
 * ocpp-rpc 2.2 ships the OCPP 2.1 schemas with ids `urn:<Action>Request` but looks them up as
 * `urn:<Action>.req`, so strict mode refuses every 2.1 message. Same schemas, ids renamed.
 */
function ocpp21Validator() {
  const require = createRequire(import.meta.url);
  const schemas = require('ocpp-rpc/lib/schemas/ocpp2_1.json') as Array<{ $id: string }>;
  return createValidator(
    'ocpp2.1',
    schemas.map((schema) => ({
      ...schema,
      $id: schema.$id.replace(/Request$/, '.req').replace(/Response$/, '.conf'),
    })),
  );
}

function defaultHandlers(): Record<string, CsmsHandler> {
  let nextTransactionId = 1;
  return {
    BootNotification: () => ({ status: 'Accepted', currentTime: now(), interval: 300 }),
    Heartbeat: () => ({ currentTime: now() }),
    StatusNotification: () => ({}),
    Authorize: (_params, client) =>
      client.protocol === 'ocpp1.6'
        ? { idTagInfo: { status: 'Accepted' } }
        : { idTokenInfo: { status: 'Accepted' } },
    StartTransaction: () => ({ transactionId: nextTransactionId++, idTagInfo: { status: 'Accepted' } }),
    StopTransaction: () => ({ idTagInfo: { status: 'Accepted' } }),
    MeterValues: () => ({}),
    TransactionEvent: (params) => (params.idToken ? { idTokenInfo: { status: 'Accepted' } } : {}),
    NotifyReport: () => ({}),
    NotifyEvent: () => ({}),
    DataTransfer: () => ({ status: 'Accepted' }),
    SecurityEventNotification: () => ({}),
    FirmwareStatusNotification: () => ({}),
    DiagnosticsStatusNotification: () => ({}),
    LogStatusNotification: () => ({}),
    // Reservations (2.0.1 H04)
    ReservationStatusUpdate: () => ({}),
    // Reports that follow a CSMS call (2.0.1 K09, O04)
    ReportChargingProfiles: () => ({}),
    NotifyDisplayMessages: () => ({}),
    NotifyCustomerInformation: () => ({}),
    NotifyMonitoringReport: () => ({}),
    NotifyChargingLimit: () => ({}),
    ClearedChargingLimit: () => ({}),
    // What an EV needs (2.0.1 K15, 2.1 Q01 with the V2X parameters)
    NotifyEVChargingNeeds: () => ({ status: 'Accepted' }),
    // DER control (2.1 block R)
    ReportDERControl: () => ({}),
    NotifyDERStartStop: () => ({}),
    NotifyDERAlarm: () => ({}),
    // firmware: the 1.6 security extension's signed update
    SignedFirmwareStatusNotification: () => ({}),
  };
}

export async function startStrictCsms(opts: StrictCsmsOptions = {}): Promise<StrictCsms> {
  const handlers = { ...defaultHandlers(), ...opts.handlers };
  const server = new RPCServer({
    protocols: opts.protocols ?? ['ocpp1.6', 'ocpp2.0.1'],
    strictMode: true,
    strictModeValidators: [ocpp21Validator()],
    callTimeoutMs: 5000,
  });

  const received: ReceivedCall[] = [];
  const frames: RecordedFrame[] = [];
  const schemaErrors: SchemaFailure[] = [];
  const badMessages: StrictCsms['badMessages'] = [];
  const clients = new Map<string, RPCServerClient>();
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const check of [...waiters]) check();
  };

  if (opts.auth) {
    const auth = opts.auth;
    server.auth((accept, reject, handshake) => {
      if (auth(handshake.identity, handshake.password?.toString('utf8'))) accept();
      else reject(401, 'Unauthorized');
    });
  }

  server.on('client', (client: RPCServerClient) => {
    const identity = client.identity ?? '';
    clients.set(identity, client);
    client.on('message', ({ message, outbound }: { message: string | Buffer; outbound: boolean }) => {
      frames.push({ identity, outbound, text: message.toString() });
      changed();
    });
    client.on('strictValidationFailure', (e: Json) => {
      schemaErrors.push({
        identity,
        outbound: e.outbound,
        isCall: e.isCall,
        method: e.method,
        code: e.error?.rpcErrorCode ?? 'Unknown',
        message: e.error?.message ?? String(e.error),
        params: e.params,
        result: e.result,
      });
      changed();
    });
    client.on('badMessage', (e: { buffer: Buffer; error: Error }) => {
      badMessages.push({ identity, text: e.buffer.toString(), error: e.error.message });
      changed();
    });
    client.on('close', () => {
      if (clients.get(identity) === client) clients.delete(identity);
      changed();
    });
    client.handle(async ({ method = '', params }) => {
      received.push({ identity, protocol: client.protocol ?? '', action: method, params, at: Date.now() });
      changed();
      const handler = handlers[method];
      if (!handler) throw createRPCError('NotImplemented', `strict-csms has no handler for ${method}`);
      return (await handler(params, client)) as Record<string, unknown>;
    });
    changed();
  });

  let url: string;
  let closeTls = async (): Promise<void> => {};
  if (opts.tls) {
    const { requestCert = false, ...pem } = opts.tls;
    const httpsServer = createHttpsServer({ ...pem, requestCert, rejectUnauthorized: requestCert });
    httpsServer.on('upgrade', server.handleUpgrade);
    await new Promise<void>((resolve) => httpsServer.listen(opts.port ?? 0, '127.0.0.1', resolve));
    url = `wss://127.0.0.1:${(httpsServer.address() as AddressInfo).port}`;
    closeTls = () =>
      new Promise<void>((resolve) => {
        httpsServer.closeAllConnections();
        httpsServer.close(() => resolve());
      });
  } else {
    const httpServer = await server.listen(opts.port ?? 0, '127.0.0.1');
    url = `ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  }

  function clientOf(identity: string): RPCServerClient {
    const client = clients.get(identity);
    if (!client) throw new Error(`strict-csms: ${identity} is not connected`);
    return client;
  }

  return {
    url,
    received,
    frames,
    schemaErrors,
    badMessages,
    clients,
    call: (identity, action, params, callOpts) =>
      clientOf(identity).call(action, params, { callTimeoutMs: callOpts?.timeoutMs ?? 5000 }),
    sendRaw: (identity, text) => clientOf(identity).sendRaw(text),
    waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs = 5000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = (): void => {
          const value = predicate();
          if (value === undefined || value === null || value === false) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`strict-csms: waitFor timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await server.close({ code: 1001, force: true });
      await closeTls();
    },
  };
}
