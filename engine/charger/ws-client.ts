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
  /** Security profile 3 (client certificate), custom trust and revocation lists (`crl`). */
  tls?: { cert?: string; key?: string; ca?: string; crl?: string; rejectUnauthorized?: boolean };
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
  /**
   * Half-open on purpose (link conditions): no pings sent or answered, and nothing received counts
   * as a sign of life, so the keep-alive ends the connection after one or two periods.
   */
  setHalfOpen(on: boolean): void;
}

/** Where the charger connects: the base URL without trailing slashes, then the encoded identity. */
export function chargerUrl(url: string, identity: string): string {
  return `${url.replace(/\/+$/, '')}/${encodeURIComponent(identity)}`;
}

// OpenSSL's verdicts when the charger holds CRLs (security.crl_pem): a TLS_ERROR whose hint starts
// with OpenSSL's code, so a revoked certificate is told apart from an untrusted one at a glance.
const crlNotSigned = () =>
  'a CRL in security.crl_pem is not signed by the key of the CA it names as its issuer';
const CRL_HINTS: Record<string, (host: string) => string> = {
  CERT_REVOKED: (host) =>
    `a certificate of ${host}'s chain is revoked by a CRL the charger holds (security.crl_pem): the central system must present one that is not revoked`,
  UNABLE_TO_GET_CRL: (host) =>
    `the charger holds no CRL of an issuer in ${host}'s certificate chain: with security.crl_pem every certificate of the chain is checked, so give a CRL from each issuer (root and intermediates)`,
  CRL_HAS_EXPIRED: () => 'a CRL in security.crl_pem is past its nextUpdate: give a current one',
  CRL_NOT_YET_VALID: () => 'a CRL in security.crl_pem is not valid yet (thisUpdate is in the future)',
  CRL_SIGNATURE_FAILURE: crlNotSigned,
  UNABLE_TO_DECRYPT_CRL_SIGNATURE: crlNotSigned,
};

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
  ...Object.keys(CRL_HINTS),
]);

// Hints say what to change through the API: the `security` object of a deployment (docs/security.md).
const FIX_PASSWORD =
  'delete the deployment and deploy it again with security.password set to the password the central system expects (username = the identity)';
const GIVE_PASSWORD =
  "deploy it with security {profile: 1, password} on a ws:// URL or {profile: 2, password, ca_pem} on wss://; without ws_url the built-in central system issues the charger's credentials itself";

function httpHint(status: number, target: string, opts: ChargerSocketOptions): string {
  const { identity } = opts;
  switch (status) {
    case 401:
      return opts.password === undefined
        ? `The central system requires credentials from ${identity} (HTTP 401) and the charger has none: ${GIVE_PASSWORD}.`
        : `The central system refused the password of ${identity} (HTTP 401): ${FIX_PASSWORD}.`;
    case 403:
      return `The central system does not allow ${identity} to connect (HTTP 403): is the charger registered there, under this identity?`;
    case 404:
      return `No OCPP endpoint at ${target} (HTTP 404): check the central system URL and the charger identity (at the built-in central system: is the charge point registered in your organization?).`;
    default:
      return `The central system answered the WebSocket upgrade at ${target} with HTTP ${status}.`;
  }
}

/** OpenSSL's reason of a message such as '...:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:...'. */
function tlsReason(message: string): string {
  return /SSL routines:[^:]*:([^:]+):/.exec(message)?.[1] ?? message;
}

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

function tlsFailure(code: string, error: Error, opts: ChargerSocketOptions, host: string) {
  const reason = tlsReason(error.message);
  let hint: string;
  if (CRL_HINTS[code]) hint = `${code}: ${CRL_HINTS[code](host)} (${reason}).`;
  else if (UNTRUSTED.has(code))
    hint = `The charger does not trust the certificate of ${host} (${reason}): give the CA certificate that signed it as security.ca_pem (profiles 2 and 3).`;
  else if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    hint = `The certificate of ${host} is not issued for that host name (${reason}): use a ws_url with a host the certificate names.`;
  else if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    hint = `The certificate of ${host} is not valid now (${reason}): the central system must renew it.`;
  else if (/certificate required/i.test(reason))
    hint = `${host} requires a client certificate (${reason}): deploy the charger with security profile 3 (client_cert_pem, client_key_pem).`;
  else if (
    /unknown ca|bad certificate|certificate unknown|ECONNRESET/i.test(`${reason} ${code}`) &&
    opts.tls?.cert
  )
    hint = `${host} refused the client certificate of ${opts.identity} (${reason}): give a client_cert_pem signed by a CA the central system trusts.`;
  else hint = `The TLS handshake with ${host} failed: ${reason}.`;
  return { code: 'TLS_ERROR' as const, hint };
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
  if (TLS_ERROR_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL'))
    return tlsFailure(code, error, opts, host);
  // TLS 1.3: a server that rejects the client certificate resets the connection after the handshake.
  if (code === 'ECONNRESET' && target.startsWith('wss:') && opts.tls?.cert)
    return tlsFailure(code, error, opts, host);
  if (error.message.includes('subprotocol')) {
    return {
      code: 'SUBPROTOCOL_REJECTED',
      hint: `The central system at ${host} does not speak ${opts.version} (it did not accept the ${opts.version} subprotocol).`,
    };
  }
  return { code: 'WS_ERROR', hint: `The WebSocket connection to ${host} failed: ${error.message}.` };
}

/**
 * One charger's WebSocket. `ws` calls listeners with the socket as `this`, so the listeners are
 * shared module functions and each connection pays for its fields, not for a set of closures.
 */
class ChargerWebSocket extends WebSocket {
  events!: ChargerSocketEvents;
  opts!: ChargerSocketOptions;
  target!: string;
  opened = false;
  finished = false; // onFailure or onClose delivered, or the caller gave up
  alive = true;
  halfOpen = false;
  stopPinging: (() => void) | null = null;

  fail(failure: { code: ChargerSocketFailureCode; hint: string }): void {
    if (this.finished) return;
    this.finished = true;
    this.terminate();
    this.events.onFailure(failure);
  }

  /** One keep-alive period passed: no pong or message since the last one means the link is lost. */
  keepalive(): void {
    if (!this.alive) {
      this.terminate();
      return;
    }
    this.alive = false;
    if (!this.halfOpen) this.ping();
  }
}

function onUnexpectedResponse(this: WebSocket, req: ClientRequest, res: IncomingMessage): void {
  const ws = this as ChargerWebSocket;
  const status = res.statusCode ?? 0;
  res.resume(); // drain the body so the socket can be freed
  req.destroy();
  ws.fail({ code: `HTTP_${status}`, hint: httpHint(status, ws.target, ws.opts) });
}

function onError(this: WebSocket, error: Error): void {
  const ws = this as ChargerWebSocket;
  // After open, 'close' follows every 'error' and reports the end of the connection.
  if (!ws.opened) ws.fail(failureOf(error, ws.opts, ws.target));
}

function onOpen(this: WebSocket): void {
  const ws = this as ChargerWebSocket;
  if (ws.finished) return;
  // ws already refuses a subprotocol we did not ask for; this also catches a server echoing none.
  if (ws.protocol !== ws.opts.version) {
    ws.fail(failureOf(new Error('the server did not select the subprotocol'), ws.opts, ws.target));
    return;
  }
  ws.opened = true;
  const intervalSec = ws.opts.pingIntervalSec ?? 0;
  if (intervalSec > 0) ws.stopPinging = keepaliveWheel.every(intervalSec * 1000, ws.keepalive.bind(ws));
  ws.events.onOpen();
}

function onPong(this: WebSocket): void {
  const ws = this as ChargerWebSocket;
  if (!ws.halfOpen) ws.alive = true;
}

/** ws answers pings itself unless told not to (autoPong: false): a half-open socket does not. */
function onPing(this: WebSocket, data: Buffer): void {
  const ws = this as ChargerWebSocket;
  if (!ws.halfOpen && ws.readyState === WebSocket.OPEN) ws.pong(data);
}

function onMessage(this: WebSocket, data: Buffer): void {
  const ws = this as ChargerWebSocket;
  if (!ws.halfOpen) ws.alive = true;
  ws.events.onMessage(data.toString('utf8'));
}

function onClose(this: WebSocket, code: number, reason: Buffer): void {
  const ws = this as ChargerWebSocket;
  ws.stopPinging?.();
  ws.stopPinging = null;
  if (!ws.opened || ws.finished) return;
  ws.finished = true;
  ws.events.onClose({ code, reason: reason.toString('utf8') });
}

/** What the caller holds: the socket's three operations, on a prototype. */
class ChargerSocketHandle implements ChargerSocket {
  constructor(private readonly ws: ChargerWebSocket) {}

  send(text: string): void {
    if (this.ws.readyState !== WebSocket.OPEN)
      throw new Error(`WebSocket of ${this.ws.opts.identity} is not open`);
    this.ws.send(text);
  }

  close(code = 1000, reason = ''): void {
    if (!this.ws.opened) {
      this.ws.finished = true; // the caller gave up on connecting: nothing to report
      this.ws.terminate();
      return;
    }
    this.ws.close(code, reason);
  }

  drop(): void {
    if (!this.ws.opened) this.ws.finished = true;
    this.ws.terminate();
  }

  setHalfOpen(on: boolean): void {
    this.ws.halfOpen = on;
  }
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
  const ws = new ChargerWebSocket(target, [opts.version], {
    // Measured: deflate costs ~10x memory and time per connection, and OCPP frames are small.
    perMessageDeflate: false,
    autoPong: false, // onPing answers, unless the socket is half-open on purpose
    handshakeTimeout: opts.connectTimeoutMs ?? 10_000,
    headers,
    localAddress: opts.localAddress,
    ...opts.tls,
  });
  ws.events = events;
  ws.opts = opts;
  ws.target = target;
  ws.on('unexpected-response', onUnexpectedResponse);
  ws.on('error', onError);
  ws.on('open', onOpen);
  ws.on('pong', onPong);
  ws.on('ping', onPing);
  ws.on('message', onMessage);
  ws.on('close', onClose);
  return new ChargerSocketHandle(ws);
}
