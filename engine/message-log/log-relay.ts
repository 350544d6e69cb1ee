// Live message-log frames across nodes, over the broker: a node serving a stream of a charger it
// may not hold publishes a watch for it (renewed while the stream is open, withdrawn when it
// closes); the node holding the charger answers with its newest frames and then publishes each new
// frame of that charger while watched. Nothing is published for a charger nobody watches.
//
//   {prefix}/ocpp-log/{key}/watch    {"node": "...", "ttl_ms": 30000}     (ttl_ms 0: withdrawn)
//   {prefix}/ocpp-log/{key}/frames   "f <id> <item>" live, "s <id> <item>" newest frames, "e" end of those
import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { Logger } from '../platform/log/logger.ts';
import type { LogSubscription, MessageLog } from './message-log.ts';
import { itemJson } from './log-item.ts';

export interface RemoteFrames {
  /** A frame of the watched charger; `newest`: one of the holder's newest frames, sent on a watch. */
  item(id: number, json: string, newest: boolean): void;
  /** The holder has sent its newest frames. */
  newestSent(): void;
}

export interface LogRelayOptions {
  mqtt: MqttClient;
  topicPrefix: string;
  log: Logger;
  messageLog: MessageLog;
  /** How long a watch lasts unless renewed (default 30 s; renewed every third of it). */
  watchTtlMs?: number;
}

interface Watched {
  /** Watching node -> epoch ms its watch ends. */
  watchers: Map<string, number>;
  subscription: LogSubscription;
}

interface Streams {
  handlers: Set<RemoteFrames>;
  renew: ReturnType<typeof setInterval> | undefined;
  subscribed: Promise<boolean>;
}

export class LogRelay {
  readonly nodeId = randomBytes(8).toString('hex');
  readonly #opts: LogRelayOptions;
  readonly #ttlMs: number;
  readonly #head: string;
  /** Holding side: chargers other nodes watch. */
  readonly #watched = new Map<string, Watched>();
  /** Watching side: chargers this node streams to its clients. */
  readonly #streams = new Map<string, Streams>();
  #sweep: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(opts: LogRelayOptions) {
    this.#opts = opts;
    this.#ttlMs = opts.watchTtlMs ?? 30_000;
    this.#head = `${opts.topicPrefix}/ocpp-log/`;
  }

  async start(): Promise<void> {
    const { mqtt } = this.#opts;
    mqtt.on('message', this.#onMessage);
    this.#sweep = setInterval(() => this.#expire(), Math.max(1000, this.#ttlMs / 3));
    this.#sweep.unref();
    const subscribe = () =>
      mqtt
        .subscribeAsync(`${this.#head}+/watch`, { qos: 1 })
        .then(() => undefined)
        .catch((err: unknown) => this.#opts.log.warn({ err }, 'ocpp message log: watch subscription failed'));
    if (mqtt.connected) await subscribe();
    else mqtt.once('connect', () => void subscribe());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweep);
    const { mqtt } = this.#opts;
    mqtt.off('message', this.#onMessage);
    for (const key of [...this.#watched.keys()]) this.#unwatched(key);
    for (const streams of this.#streams.values()) clearInterval(streams.renew);
    this.#streams.clear();
    if (mqtt.connected) await mqtt.unsubscribeAsync(`${this.#head}+/watch`).catch(() => undefined);
  }

  /**
   * Receives the frames of charger `key` from whichever node holds it, until the returned function
   * is called. Asks the holder for its newest frames (answered through `newestSent`).
   */
  watch(key: string, handler: RemoteFrames): () => void {
    let streams = this.#streams.get(key);
    if (!streams) {
      const created: Streams = { handlers: new Set(), renew: undefined, subscribed: Promise.resolve(false) };
      created.subscribed = this.#opts.mqtt.subscribeAsync(this.#framesTopic(key), { qos: 0 }).then(
        () => {
          if (this.#streams.get(key) === created) {
            created.renew = setInterval(() => this.#publishWatch(key, this.#ttlMs), this.#ttlMs / 3);
            created.renew.unref();
          }
          return true;
        },
        (err: unknown) => {
          this.#opts.log.warn({ err }, 'ocpp message log: frames subscription failed');
          return false;
        },
      );
      this.#streams.set(key, created);
      streams = created;
    }
    streams.handlers.add(handler);
    // Each new stream asks again: the holder answers every watch with its newest frames.
    void streams.subscribed.then((ok) => {
      if (ok && streams.handlers.has(handler)) this.#publishWatch(key, this.#ttlMs);
    });
    return () => {
      if (!streams.handlers.delete(handler) || streams.handlers.size > 0) return;
      clearInterval(streams.renew);
      if (this.#streams.get(key) === streams) this.#streams.delete(key);
      if (this.#closed) return;
      this.#publishWatch(key, 0);
      void this.#opts.mqtt.unsubscribeAsync(this.#framesTopic(key)).catch(() => undefined);
    };
  }

  #framesTopic(key: string): string {
    return `${this.#head}${key}/frames`;
  }

  #publishWatch(key: string, ttlMs: number): void {
    if (this.#closed) return;
    const message = JSON.stringify({ node: this.nodeId, ttl_ms: ttlMs });
    this.#opts.mqtt.publishAsync(`${this.#head}${key}/watch`, message, { qos: 1 }).catch((err: unknown) => {
      this.#opts.log.warn({ err }, 'ocpp message log: could not publish a watch');
    });
  }

  readonly #onMessage = (topic: string, payload: Buffer): void => {
    if (this.#closed || !topic.startsWith(this.#head)) return;
    const rest = topic.slice(this.#head.length);
    const slash = rest.indexOf('/');
    if (slash < 0) return;
    const key = rest.slice(0, slash);
    const kind = rest.slice(slash + 1);
    if (kind === 'frames') this.#onFrames(key, payload.toString());
    else if (kind === 'watch') this.#onWatch(key, payload.toString());
  };

  #onFrames(key: string, text: string): void {
    const streams = this.#streams.get(key);
    if (!streams) return;
    if (text === 'e') {
      for (const h of streams.handlers) h.newestSent();
      return;
    }
    const space = text.indexOf(' ', 2);
    const id = Number(text.slice(2, space));
    if (space < 0 || !Number.isSafeInteger(id)) return;
    const json = text.slice(space + 1);
    const newest = text[0] === 's';
    for (const h of streams.handlers) h.item(id, json, newest);
  }

  #onWatch(key: string, text: string): void {
    let watch: { node?: unknown; ttl_ms?: unknown };
    try {
      watch = JSON.parse(text) as typeof watch;
    } catch {
      return;
    }
    const { node, ttl_ms: ttl } = watch;
    // This node's own streams are fed by its message log directly.
    if (typeof node !== 'string' || typeof ttl !== 'number' || node === this.nodeId) return;
    let watched = this.#watched.get(key);
    if (ttl <= 0) {
      watched?.watchers.delete(node);
      if (watched && watched.watchers.size === 0) this.#unwatched(key);
      return;
    }
    const recent = this.#opts.messageLog.recent(key);
    if (!watched) {
      const topic = this.#framesTopic(key);
      const subscription = this.#opts.messageLog.subscribe(key, (entry, json) => {
        if (this.#stillWatched(key)) this.#publish(topic, `f ${entry.id} ${json}`);
      });
      watched = { watchers: new Map(), subscription };
      this.#watched.set(key, watched);
    }
    watched.watchers.set(node, Date.now() + Math.min(ttl, 5 * 60_000));
    // Only a node that has frames of the charger answers: the one holding it.
    if (recent.length === 0) return;
    const topic = this.#framesTopic(key);
    for (const entry of recent) this.#publish(topic, `s ${entry.id} ${itemJson(entry)}`);
    this.#publish(topic, 'e');
  }

  #publish(topic: string, message: string): void {
    this.#opts.mqtt.publish(topic, message, { qos: 0 });
  }

  #stillWatched(key: string): boolean {
    const watched = this.#watched.get(key);
    if (!watched) return false;
    const now = Date.now();
    for (const [node, until] of watched.watchers) if (until <= now) watched.watchers.delete(node);
    if (watched.watchers.size > 0) return true;
    this.#unwatched(key);
    return false;
  }

  #unwatched(key: string): void {
    this.#watched.get(key)?.subscription.close();
    this.#watched.delete(key);
  }

  #expire(): void {
    for (const key of [...this.#watched.keys()]) this.#stillWatched(key);
  }
}
