// The charger machine's `link` actor made real: one WebSocket (engine/ocpp/ws-client.ts) and one
// RpcEndpoint per connection. Built once per process as a callback-actor logic; each invocation
// holds only its socket, its endpoint and a short buffer, so thousands run side by side.
import { fromCallback } from 'xstate';
import type { LinkCommand, LinkEvent, LinkInput } from '../../actors/charger/charger-ports.ts';
import {
  RpcEndpoint,
  RpcError,
  RpcTimeoutError,
  type SchemaErrorReport,
} from '../../protocols/ocpp/index.ts';
import { openChargerSocket, type ChargerSocket } from '../ocpp/ws-client.ts';
import type { Logger } from '../logger.ts';

/** Per-charger connection secrets and transport options (security profiles 1-3). */
export interface ChargerConnectionSettings {
  password?: string;
  tls?: { cert?: string; key?: string; ca?: string; rejectUnauthorized?: boolean };
  localAddress?: string;
}

export interface ChargerLinkOptions {
  log: Logger;
  connectionSettings?: (identity: string) => ChargerConnectionSettings | undefined;
  defaultCsmsUrl?: () => string | undefined;
  callTimeoutMs?: number;
  /** Overrides every charger's WebSocketPingInterval when set. */
  pingIntervalSec?: number;
  onSchemaError?: (identity: string, report: SchemaErrorReport) => void;
}

const DEFAULT_PING_SEC = 60;

/** The machine's error code for a failed outgoing CALL. */
function errorEvent(id: string, error: unknown): LinkEvent {
  if (error instanceof RpcError)
    return { type: 'ocpp.error', id, code: error.code, description: error.description };
  if (error instanceof RpcTimeoutError)
    return { type: 'ocpp.error', id, code: 'Timeout', description: error.message };
  const description = error instanceof Error ? error.message : String(error);
  return { type: 'ocpp.error', id, code: 'GenericError', description };
}

export function createChargerLink(opts: ChargerLinkOptions) {
  const callTimeoutMs = opts.callTimeoutMs ?? 30_000;

  return fromCallback<LinkCommand, LinkInput>(({ input, sendBack, receive }) => {
    const { identity, version } = input;
    let stopped = false;
    let socket: ChargerSocket | null = null;
    let rpc: RpcEndpoint | null = null;
    let opened = false;
    // CALLs the machine sends while it answers a CSMS CALL wait until that CALLRESULT is written:
    // the machine answers before it sends follow-ups (NotifyReport, StartTransaction), and OCPP
    // peers expect them in that order.
    let answering = false;
    let held: Array<Extract<LinkCommand, { type: 'ocpp.call' }>> | null = null;

    const call = (cmd: Extract<LinkCommand, { type: 'ocpp.call' }>): void => {
      if (!rpc) return;
      rpc.call(cmd.action, cmd.payload).then(
        (payload) => sendBack({ type: 'ocpp.result', id: cmd.id, payload }),
        (error) => sendBack(errorEvent(cmd.id, error)),
      );
    };

    const release = (): void => {
      answering = false;
      const calls = held;
      held = null;
      if (calls) for (const cmd of calls) call(cmd);
    };

    const onCall = (action: string, payload: unknown): unknown => {
      answering = true;
      let done = false;
      let result: object | undefined;
      let failure: RpcError | undefined;
      let settle: ((ok: boolean) => void) | undefined;
      sendBack({
        type: 'csms.call' as const,
        action,
        payload,
        respond(r: object) {
          if (done) return;
          done = true;
          result = r;
          settle?.(true);
        },
        reject(code: string, description?: string) {
          if (done) return;
          done = true;
          failure = new RpcError(code, description);
          settle?.(false);
        },
      });
      if (done) {
        // The usual path: the machine answered synchronously, the endpoint writes the answer as
        // soon as we return, and the held CALLs follow in the next microtask.
        queueMicrotask(release);
        if (failure) throw failure;
        return result;
      }
      // The machine was busy; the endpoint writes the answer in a promise reaction, so the held
      // CALLs wait for the next turn of the event loop.
      return new Promise((resolve, reject) => {
        settle = (ok) => {
          setImmediate(release);
          if (ok) resolve(result);
          else reject(failure);
        };
      });
    };

    receive((cmd) => {
      if (cmd.type === 'link.drop') {
        if (opened) socket?.drop();
        else {
          // Not connected yet: give up on this attempt as a lost network would.
          socket?.drop();
          sendBack({ type: 'link.closed', code: 1006, reason: 'dropped before the connection opened' });
        }
        return;
      }
      if (answering) (held ??= []).push(cmd);
      else call(cmd);
    });

    const open = (): void => {
      if (stopped) return;
      const base = input.url ?? opts.defaultCsmsUrl?.();
      if (!base) {
        sendBack({
          type: 'link.failed',
          code: 'NO_CSMS_URL',
          hint: `${identity} has no central system URL and no built-in central system is configured.`,
        });
        return;
      }
      const settings = opts.connectionSettings?.(identity);
      const endpoint = new RpcEndpoint({
        version,
        send: (text) => socket!.send(text),
        onCall,
        callTimeoutMs,
        onSchemaError: (report) => {
          opts.log.warn({ identity, ...report }, 'OCPP message broke its schema');
          opts.onSchemaError?.(identity, report);
        },
        onBadFrame: (report) => opts.log.debug({ identity, ...report }, 'bad OCPP-J frame from the CSMS'),
      });
      rpc = endpoint;
      socket = openChargerSocket(
        {
          url: base,
          identity,
          version,
          pingIntervalSec: opts.pingIntervalSec ?? input.pingIntervalSec ?? DEFAULT_PING_SEC,
          ...(settings?.password !== undefined ? { password: settings.password } : {}),
          ...(settings?.tls ? { tls: settings.tls } : {}),
          ...(settings?.localAddress ? { localAddress: settings.localAddress } : {}),
        },
        {
          onOpen: () => {
            opened = true;
            sendBack({ type: 'link.open' });
          },
          onMessage: (text) => endpoint.receive(text),
          onClose: ({ code, reason }) => {
            endpoint.close();
            sendBack({ type: 'link.closed', code, reason });
          },
          onFailure: (f) => {
            endpoint.close();
            opts.log.debug({ identity, code: f.code }, f.hint);
            sendBack({ type: 'link.failed', code: f.code, hint: f.hint });
          },
        },
      );
    };

    // A restored charger starts its old link and re-enters the stage (RESUME) in the same tick:
    // opening on the next microtask spares that first link a socket it would drop at once.
    queueMicrotask(open);

    return () => {
      stopped = true;
      held = null;
      rpc?.close();
      socket?.close(1000, 'charger stopped');
    };
  });
}
