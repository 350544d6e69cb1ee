// The built-in central system: OCPP-J 1.6, 2.0.1 and 2.1 at /ocpp/{charge_point_id} on the API's
// HTTP server. Only registered charge points get in (404 otherwise), and only with valid Basic
// auth (401 otherwise; E22 says a charger needs credentials before it can connect). Presence, heartbeats and connector status go through a write-behind batch;
// one keepalive sweep serves every connection; CSMS-to-charger calls arrive over MQTT, so any
// process can ask the node that holds a charger's connection.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MqttClient } from 'mqtt';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  RpcClosedError,
  RpcError,
  RpcTimeoutError,
  OCPP_VERSIONS,
  isOcppVersion,
  type FrameObserver,
  type OcppVersion,
} from '../../protocols/ocpp/index.ts';
import type { Database } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';
import { passwordMatches } from '../platform/secrets/password-hash.ts';
import { CsmsConnection } from './csms-connection.ts';
import { CsmsStore, type KnownChargePoint } from './csms-store.ts';
import { IdentityLookup } from './identity-lookup.ts';
import { callSubscription, type CallReply, type CallRequest } from './topics.ts';
import { basicCredentials, refuseUpgrade } from './upgrade-refusal.ts';
import { WriteBehind, type Presence } from './write-behind.ts';

export interface CentralSystemOptions {
  db: Database;
  mqtt: MqttClient;
  log: Logger;
  topicPrefix: string;
  heartbeatIntervalSeconds: number;
  callTimeoutMs: number;
  /** Write-behind interval for heartbeats and status (default 1000 ms). */
  flushIntervalMs?: number;
  /** Ping every connection this often; one missed pong closes it (default 60000 ms). */
  keepaliveMs?: number;
  /** The OCPP message log: each connection's frames, keyed by the charge point's id. */
  frames?: (chargePointPk: string) => FrameObserver | undefined;
  /** What the charge points' rows record as the node of their connection (the engine node's id / run); random when unset. */
  nodeId?: string;
}

const PATH = /^\/ocpp\/([^/?]+)\/?(?:\?.*)?$/;
// Newest first: a charger offering several versions gets the newest we share.
const PREFERENCE: readonly OcppVersion[] = [...OCPP_VERSIONS].reverse();
const CLOSE_REPLACED = 4000;

interface Attempt {
  id: string;
  version?: OcppVersion;
  at: Date;
}

export class CentralSystem {
  readonly nodeId: string;
  readonly #opts: CentralSystemOptions;
  readonly #store: CsmsStore;
  readonly #lookup: IdentityLookup;
  readonly #writer: WriteBehind;
  readonly #wss: WebSocketServer;
  /** The live connection per OCPP identity. */
  readonly #connections = new Map<string, CsmsConnection>();
  /** The connection attempt that owns each charge point's presence (by primary key). */
  readonly #owners = new Map<string, Attempt>();
  /** Registered version per upgrade request, read while choosing the subprotocol. */
  readonly #registered = new WeakMap<IncomingMessage, string | null>();
  #sweep: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(opts: CentralSystemOptions) {
    this.#opts = opts;
    // Node id / run: a gone node's connections are set offline by the others (engine/cluster).
    this.nodeId = opts.nodeId ?? randomBytes(8).toString('hex');
    this.#store = new CsmsStore(opts.db);
    this.#lookup = new IdentityLookup(opts.db);
    this.#writer = new WriteBehind(opts.db, opts.log, this.nodeId, this.#presenceOf, opts.flushIntervalMs);
    this.#wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: 1024 * 1024,
      handleProtocols: (offered, req) => this.#chooseProtocol(offered, req),
    });
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  async start(): Promise<void> {
    this.#opts.mqtt.on('message', this.#onMqttMessage);
    await this.#opts.mqtt.subscribeAsync(callSubscription(this.#opts.topicPrefix), { qos: 1 });
    const keepaliveMs = this.#opts.keepaliveMs ?? 60_000;
    this.#sweep = setInterval(() => this.#keepalive(), keepaliveMs);
    this.#sweep.unref();
  }

  /** Writes batched presence, heartbeats and status now. */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  /** The HTTP server's 'upgrade' handler. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    this.#upgrade(req, socket, head).catch((err) => {
      this.#opts.log.error({ err }, 'central system: upgrade failed');
      refuseUpgrade(socket, 500, 'Internal Server Error');
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sweep) clearInterval(this.#sweep);
    this.#opts.mqtt.off('message', this.#onMqttMessage);
    if (this.#opts.mqtt.connected)
      await this.#opts.mqtt.unsubscribeAsync(callSubscription(this.#opts.topicPrefix)).catch(() => undefined);
    const closing = [...this.#connections.values()].map(
      (c) =>
        new Promise<void>((resolve) => {
          c.ws.once('close', () => resolve());
          c.ws.close(1001, 'central system shutting down');
          setTimeout(() => {
            c.ws.terminate();
            resolve();
          }, 1_000).unref();
        }),
    );
    await Promise.all(closing);
    await this.#writer.flush();
    // Whatever this node still shows online (a connection closing mid-write) is offline now.
    await this.#opts.db
      .query('UPDATE cpo_charge_points SET is_online = false, node_id = NULL WHERE node_id = $1', [
        this.nodeId,
      ])
      .catch((err) => this.#opts.log.warn({ err }, 'central system: could not clear presence'));
    this.#wss.close();
  }

  async #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const match = PATH.exec(req.url ?? '');
    if (!match || this.#closed) return refuseUpgrade(socket, 404, 'Not Found');
    let identity: string;
    try {
      identity = decodeURIComponent(match[1]);
    } catch {
      return refuseUpgrade(socket, 404, 'Not Found');
    }
    const cp = await this.#lookup.find(identity);
    if (!cp) return refuseUpgrade(socket, 404, `Unknown charge point '${identity}'`);
    if (!this.#authorized(cp, req.headers.authorization))
      return refuseUpgrade(
        socket,
        401,
        cp.password_hash
          ? 'Basic authentication with the charge point identity and its password required'
          : `Charge point '${identity}' has no credentials yet: POST /cpo/charge-points/${identity}/credentials issues them`,
        { 'WWW-Authenticate': 'Basic realm="OCPP", charset="UTF-8"' },
      );
    if (socket.destroyed) return;

    // Online in the database before the handshake completes: once the charger is connected,
    // everyone reading its row sees it online.
    const attempt: Attempt = { id: randomBytes(6).toString('hex'), at: new Date() };
    attempt.version = this.#negotiate(req, cp.ocpp_version);
    this.#connections.get(identity)?.ws.close(CLOSE_REPLACED, 'replaced by a newer connection');
    this.#owners.set(cp.pk, attempt);
    socket.once('close', () => this.#released(cp.pk, attempt));
    await this.#writer.presenceChanged(cp.pk);
    if (socket.destroyed || this.#owners.get(cp.pk) !== attempt) return;

    this.#registered.set(req, cp.ocpp_version);
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, cp, attempt));
  }

  #accept(ws: WebSocket, cp: KnownChargePoint, attempt: Attempt): void {
    const offeredAny = ws.protocol !== '';
    const version = offeredAny ? (ws.protocol as OcppVersion) : attempt.version;
    if (!version) {
      // OCPP-J: no shared subprotocol -> complete the handshake without one, then close.
      ws.close(1002, 'no supported OCPP subprotocol offered');
      return;
    }
    const connection = new CsmsConnection(
      {
        pk: cp.pk,
        chargePointId: cp.charge_point_id,
        version,
        useStatusNotification0: cp.use_status_notification_0,
        connectorCount: cp.connector_count,
      },
      ws,
      {
        store: this.#store,
        writer: this.#writer,
        heartbeatIntervalSeconds: this.#opts.heartbeatIntervalSeconds,
      },
      this.#opts.log,
      this.#opts.callTimeoutMs,
      this.#opts.frames?.(cp.pk),
    );
    this.#connections.set(cp.charge_point_id, connection);
    ws.on('error', () => ws.terminate());
    ws.once('close', () => {
      connection.endpoint.close(new Error('connection closed'));
      if (this.#connections.get(cp.charge_point_id) === connection)
        this.#connections.delete(cp.charge_point_id);
    });
    this.#opts.log.debug({ chargePointId: cp.charge_point_id, version }, 'charge point connected');
  }

  #released(pk: string, attempt: Attempt): void {
    if (this.#owners.get(pk) !== attempt) return; // a newer connection owns the presence now
    this.#owners.delete(pk);
    void this.#writer.presenceChanged(pk);
  }

  readonly #presenceOf = (pk: string): Presence | undefined => {
    const owner = this.#owners.get(pk);
    return owner ? { online: true, version: owner.version, at: owner.at } : undefined;
  };

  #authorized(cp: KnownChargePoint, header: string | undefined): boolean {
    const creds = basicCredentials(header);
    return (
      !!creds &&
      !!cp.password_hash &&
      creds.username === cp.charge_point_id &&
      passwordMatches(creds.password, cp.password_salt ?? '', cp.password_hash ?? '')
    );
  }

  /** The version this upgrade will speak, as handleProtocols will choose it (undefined: none shared). */
  #negotiate(req: IncomingMessage, registered: string | null): OcppVersion | undefined {
    const header = req.headers['sec-websocket-protocol'];
    // No subprotocol offered: the charge point's registered version, else the oldest (OCPP 1.6J
    // predates the subprotocol header being required).
    if (!header) return registered && isOcppVersion(registered) ? registered : OCPP_VERSIONS[0];
    return this.#pick(new Set(header.split(',').map((s) => s.trim())), registered);
  }

  #chooseProtocol(offered: Set<string>, req: IncomingMessage): string | false {
    return this.#pick(offered, this.#registered.get(req) ?? null) ?? false;
  }

  #pick(offered: Set<string>, registered: string | null): OcppVersion | undefined {
    if (registered && isOcppVersion(registered) && offered.has(registered)) return registered;
    return PREFERENCE.find((v) => offered.has(v));
  }

  #keepalive(): void {
    for (const c of this.#connections.values()) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  readonly #onMqttMessage = (topic: string, message: Buffer): void => {
    if (!topic.startsWith(`${this.#opts.topicPrefix}/csms/`) || !topic.endsWith('/call')) return;
    let request: CallRequest;
    try {
      request = JSON.parse(message.toString()) as CallRequest;
    } catch {
      return;
    }
    const connection = this.#connections.get(request.charge_point_id);
    if (!connection) return; // another node holds it (or nobody: the asker's deadline answers)
    void this.#relay(connection, request);
  };

  async #relay(connection: CsmsConnection, request: CallRequest): Promise<void> {
    let reply: CallReply;
    try {
      const payload = await connection.endpoint.call(request.action, request.payload, {
        timeoutMs: request.timeout_ms,
      });
      reply = { tracking_id: request.tracking_id, outcome: 'result', payload };
    } catch (err) {
      if (err instanceof RpcTimeoutError) reply = { tracking_id: request.tracking_id, outcome: 'timeout' };
      else if (err instanceof RpcClosedError) reply = { tracking_id: request.tracking_id, outcome: 'closed' };
      else if (err instanceof RpcError)
        reply = {
          tracking_id: request.tracking_id,
          outcome: 'error',
          code: err.code,
          description: err.description,
          details: err.details,
        };
      else
        reply = {
          tracking_id: request.tracking_id,
          outcome: 'error',
          code: 'InternalError',
          description: (err as Error).message,
        };
    }
    await this.#opts.mqtt
      .publishAsync(request.reply_to, JSON.stringify(reply), { qos: 1 })
      .catch((err) => this.#opts.log.warn({ err }, 'central system: could not publish a call reply'));
  }
}
