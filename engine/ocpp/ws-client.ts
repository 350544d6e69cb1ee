import type { ClientRequest, IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import type { OcppVersion } from '../../protocols/ocpp/index.ts';
import { keepaliveWheel } from './keepalive-wheel.ts';

export interface ChargerSocketOptions {
  /** Base ws(s) URL of the central system; the charger connects to `${url}/${identity}`. */
  url: string;
  identity: string;
  version: OcppVersion;
  /** Security profile 1/2: HTTP Basic auth with username = identity. */
  password?: string;
  /** Security profile 3 (client certificate) and custom trust. */
  tls?: { cert?: string; key?: string; ca?: string; rejectUnauthorized?: boolean };
  /** Keep-alive ping period; 0 disables. No pong within one period terminates the socket. */
  pingIntervalSec?: number;
  /** Default 10000. */
  connectTimeoutMs?: number;
  /** Source address, to spread many chargers over several 127.0.0.x (ephemeral port limit). */
  localAddress?: string;
}

export type ChargerSocketFailureCode =
  | 'WS_CONNECT_REFUSED'
  | 'WS_CONNECT_TIMEOUT'
  | 'DNS_NOT_FOUND'
  | 'TLS_ERROR'
  | 'SUBPROTOCOL_REJECTED'
  | 'WS_ERROR'
  | `HTTP_${number}`;

export interface ChargerSocketEvents {
  onOpen(): void;
  onMessage(text: string): void;
  /** The open connection ended (either side, or `drop`). Not called when the connection never opened. */
  onClose(info: { code: number; reason: string }): void;
  /** The connection could not be opened; `hint` is a sentence for the user. Called at most once. */
  onFailure(f: { code: ChargerSocketFailureCode; hint: string }): void;
}

export interface ChargerSocket {
  /** Writes one text frame; throws when the socket is not open. */
  send(text: string): void;
  /** Closing handshake; before the connection is open it just abandons it (no events). */
  close(code?: number, reason?: string): void;
  /** Ends the connection without a closing handshake, like a network loss (onClose code 1006). */
  drop(): void;
}

/** Where the charger connects: the base URL without trailing slashes, then the encoded identity. */
export function chargerUrl(url: string, identity: string): string {
  return `${url.replace(/\/+$/, '')}/${encodeURIComponent(identity)}`;
}

const TLS_ERROR_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function httpHint(status: number, target: string, identity: string): string {
  switch (status) {
    case 401:
      return `The central system refused the credentials of ${identity} (HTTP 401): check the charger's password (security profile 1/2).`;
    case 403:
      return `The central system does not allow ${identity} to connect (HTTP 403): is the charger registered there?`;
    case 404:
      return `No OCPP endpoint at ${target} (HTTP 404): check the central system URL and the charger identity.`;
    default:
      return `The central system answered the WebSocket upgrade at ${target} with HTTP ${status}.`;
  }
}

function failureOf(
  error: Error & { code?: string },
  opts: ChargerSocketOptions,
  target: string,
): { code: ChargerSocketFailureCode; hint: string } {
  const host = new URL(target).host;
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') {
    return {
      code: 'WS_CONNECT_REFUSED',
      hint: `Nothing accepts connections at ${host}: is the central system running, and is the URL right?`,
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return {
      code: 'DNS_NOT_FOUND',
      hint: `The host name of ${host} does not resolve: check the central system URL.`,
    };
  }
  if (code === 'ETIMEDOUT' || error.message.includes('handshake has timed out')) {
    return {
      code: 'WS_CONNECT_TIMEOUT',
      hint: `${host} did not complete the WebSocket handshake within ${opts.connectTimeoutMs ?? 10_000} ms.`,
    };
  }
  if (TLS_ERROR_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
    return { code: 'TLS_ERROR', hint: `The TLS handshake with ${host} failed: ${error.message}.` };
  }
  if (error.message.includes('subprotocol')) {
    return {
      code: 'SUBPROTOCOL_REJECTED',
      hint: `The central system at ${host} does not speak ${opts.version} (it did not accept the ${opts.version} subprotocol).`,
    };
  }
  return { code: 'WS_ERROR', hint: `The WebSocket connection to ${host} failed: ${error.message}.` };
}

/**
 * Opens one charger's OCPP-J WebSocket. Reports through `events` only: a failed connect ends in
 * exactly one onFailure, an opened connection in exactly one onClose. Reconnecting is the
 * caller's business (the charger machine decides when).
 */
export function openChargerSocket(opts: ChargerSocketOptions, events: ChargerSocketEvents): ChargerSocket {
  const target = chargerUrl(opts.url, opts.identity);
  const headers: Record<string, string> = {};
  if (opts.password !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${opts.identity}:${opts.password}`).toString('base64')}`;
  }
  const ws = new WebSocket(target, [opts.version], {
    // Measured: deflate costs ~10x memory and time per connection, and OCPP frames are small.
    perMessageDeflate: false,
    handshakeTimeout: opts.connectTimeoutMs ?? 10_000,
    headers,
    localAddress: opts.localAddress,
    ...opts.tls,
  });

  let opened = false;
  let finished = false; // onFailure or onClose delivered, or the caller gave up
  let alive = true;
  let stopPinging: (() => void) | null = null;

  const fail = (failure: { code: ChargerSocketFailureCode; hint: string }): void => {
    if (finished) return;
    finished = true;
    ws.terminate();
    events.onFailure(failure);
  };

  ws.on('unexpected-response', (req: ClientRequest, res: IncomingMessage) => {
    const status = res.statusCode ?? 0;
    res.resume(); // drain the body so the socket can be freed
    req.destroy();
    fail({ code: `HTTP_${status}`, hint: httpHint(status, target, opts.identity) });
  });

  ws.on('error', (error: Error) => {
    // After open, 'close' follows every 'error' and reports the end of the connection.
    if (!opened) fail(failureOf(error, opts, target));
  });

  ws.on('open', () => {
    if (finished) return;
    // ws already refuses a subprotocol we did not ask for; this also catches a server echoing none.
    if (ws.protocol !== opts.version) {
      fail(failureOf(new Error('the server did not select the subprotocol'), opts, target));
      return;
    }
    opened = true;
    const intervalSec = opts.pingIntervalSec ?? 0;
    if (intervalSec > 0) {
      stopPinging = keepaliveWheel.every(intervalSec * 1000, () => {
        if (!alive) {
          ws.terminate(); // no pong for a whole interval: treat the link as lost
          return;
        }
        alive = false;
        ws.ping();
      });
    }
    events.onOpen();
  });

  ws.on('pong', () => {
    alive = true;
  });

  ws.on('message', (data: Buffer, _isBinary: boolean) => {
    alive = true;
    events.onMessage(data.toString('utf8'));
  });

  ws.on('close', (code: number, reason: Buffer) => {
    stopPinging?.();
    stopPinging = null;
    if (!opened || finished) return;
    finished = true;
    events.onClose({ code, reason: reason.toString('utf8') });
  });

  return {
    send(text: string): void {
      if (ws.readyState !== WebSocket.OPEN) throw new Error(`WebSocket of ${opts.identity} is not open`);
      ws.send(text);
    },
    close(code = 1000, reason = ''): void {
      if (!opened) {
        finished = true; // the caller gave up on connecting: nothing to report
        ws.terminate();
        return;
      }
      ws.close(code, reason);
    },
    drop(): void {
      if (!opened) finished = true;
      ws.terminate();
    },
  };
}
