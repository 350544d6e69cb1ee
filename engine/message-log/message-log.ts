// The OCPP message log of one process: every frame the virtual chargers' links and the built-in
// central system's connections exchange, captured through their RpcEndpoint's frame observer.
// Per frame: an id, a mask check, one entry object in the charger's ring and in the write-behind
// buffer (one multi-row INSERT per flush, through the one BatchWriter), and nothing else unless
// someone watches that charger live. Pruning by age and by count per charger is one periodic pair
// of statements. Off (OCPP_LOG=off), no observer is handed out and capture costs nothing.
//
//   const messageLog = new MessageLog({ db, log, retentionHours: 24, maxPerCharger: 1000 });
//   new RpcEndpoint({ ..., onFrame: messageLog.observer(deploymentId) });
//   const sub = messageLog.subscribe(deploymentId, (entry, json) => ...);  // live, this node only
import type { FrameObserver } from '../../protocols/ocpp/index.ts';
import { BatchWriter } from '../platform/db/batch-writer.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';
import { ChargerLog, LogEntry, type LogListener } from './charger-log.ts';
import { mayHoldSecret, maskSecrets, unreadableFrame } from './frame-mask.ts';
import { itemJson, typeOfUnreadable } from './log-item.ts';
import { OcppLogStore } from './ocpp-log-store.ts';

export interface MessageLogOptions {
  db: Queryable;
  log: Logger;
  /** false: nothing is captured (reads and streams still answer from what is stored). */
  enabled?: boolean;
  retentionHours: number;
  maxPerCharger: number;
  /** Newest frames kept per charger in memory (default 8). */
  ringSize?: number;
  /** Write-behind delay (default 250 ms). */
  flushMs?: number;
  /** How often the pruning statements run (default 60 s). */
  pruneMs?: number;
  /** Frames waiting for PostgreSQL beyond this are dropped, oldest first (default 100,000). */
  maxPending?: number;
}

export interface LogSubscription {
  /** The charger's ring when the subscription began, oldest first. */
  recent: LogEntry[];
  close(): void;
}

/** Rows per INSERT: keeps one statement's parameter to a few hundred KB. */
const CHUNK = 1000;
/** A charger that logged nothing for this long, watched by nobody and fully written, leaves memory. */
const IDLE_MS = 10 * 60_000;

export class MessageLog {
  readonly enabled: boolean;
  readonly store: OcppLogStore;
  readonly #opts: MessageLogOptions;
  readonly #ringSize: number;
  readonly #maxPending: number;
  readonly #chargers = new Map<string, ChargerLog>();
  #pending: LogEntry[] = [];
  #dropped = 0;
  /** Chargers that wrote enough rows since their last count pruning to need another. */
  #toPrune = new Set<string>();
  readonly #pruneEvery: number;
  readonly #batch: BatchWriter;
  #pruneTimer: ReturnType<typeof setInterval> | undefined;
  #pruning: Promise<void> | undefined;
  readonly #ends = new Set<() => void>();
  #closed = false;

  constructor(opts: MessageLogOptions) {
    this.#opts = opts;
    this.enabled = opts.enabled ?? true;
    this.store = new OcppLogStore(opts.db);
    this.#ringSize = opts.ringSize ?? 8;
    this.#maxPending = opts.maxPending ?? 100_000;
    this.#pruneEvery = Math.max(1, Math.floor(opts.maxPerCharger / 10));
    this.#batch = new BatchWriter({
      name: 'ocpp message log',
      log: opts.log,
      delayMs: opts.flushMs ?? 250,
      pending: () => this.#pending.length > 0,
      write: () => this.#write(),
    });
    if (this.enabled) {
      this.#pruneTimer = setInterval(() => void this.prune(), opts.pruneMs ?? 60_000);
      this.#pruneTimer.unref();
    }
  }

  /**
   * The frame observer of one connection of the charger `key` (a deployment id or a charge point's
   * id); undefined when the log is off.
   */
  observer(key: string): FrameObserver | undefined {
    if (!this.enabled || this.#closed) return undefined;
    return (direction, text, type, messageId, action, error, injected) =>
      this.record(key, direction, text, type, messageId, action, error, injected);
  }

  record(
    key: string,
    direction: 'in' | 'out',
    text: string,
    type: number | null,
    messageId: string | null,
    action: string | null,
    error: string | null,
    injected?: string | null,
  ): void {
    if (this.#closed) return;
    const now = Date.now();
    const charger = this.#charger(key);
    let frame = text;
    if (type === null) {
      frame = unreadableFrame(text);
      type = typeOfUnreadable(text);
    } else if (mayHoldSecret(action, frame) || (injected && action === null)) {
      // An injected fault's copy of an answer does not know its action: masked to be safe.
      frame = maskSecrets(frame);
    }
    const entry = new LogEntry(
      charger,
      charger.nextId(now),
      now,
      direction,
      type,
      messageId,
      action,
      frame,
      error,
      injected ?? null,
    );
    charger.push(entry, this.#ringSize);
    this.#pending.push(entry);
    if (this.#pending.length > this.#maxPending) this.#drop();
    this.#batch.schedule();
    const listeners = charger.listeners;
    if (listeners) {
      const json = itemJson(entry);
      for (const listener of listeners) listener(entry, json);
    }
  }

  /** Whether this process logged frames of the charger recently (it holds it, or did). */
  holds(key: string): boolean {
    return this.#chargers.get(key)?.hasEntries ?? false;
  }

  /** The charger's newest frames in this process, oldest first. */
  recent(key: string): LogEntry[] {
    return this.#chargers.get(key)?.recent() ?? [];
  }

  /** Live frames of one charger captured in this process, from now on. */
  subscribe(key: string, listener: LogListener): LogSubscription {
    const charger = this.#charger(key);
    (charger.listeners ??= new Set()).add(listener);
    return {
      recent: charger.recent(),
      close: () => {
        const listeners = charger.listeners;
        if (!listeners) return;
        listeners.delete(listener);
        if (listeners.size === 0) charger.listeners = null;
      },
    };
  }

  /** Called when the log closes (live streams end then). */
  onClose(end: () => void): () => void {
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  /** Writes every captured frame now. */
  flush(): Promise<void> {
    return this.#batch.flush();
  }

  /** The periodic pruning: by count for the chargers that wrote enough since, then by age. */
  prune(): Promise<void> {
    this.#pruning ??= this.#prune().finally(() => (this.#pruning = undefined));
    return this.#pruning;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#pruneTimer);
    for (const end of [...this.#ends]) end();
    this.#ends.clear();
    await this.#pruning;
    await this.#batch.flush();
  }

  #charger(key: string): ChargerLog {
    let charger = this.#chargers.get(key);
    if (!charger) {
      charger = new ChargerLog(key);
      this.#chargers.set(key, charger);
    }
    return charger;
  }

  /** PostgreSQL is out of reach for long: the oldest waiting frames go, and the log says how many. */
  #drop(): void {
    const n = Math.ceil(this.#maxPending / 10);
    for (const entry of this.#pending.splice(0, n)) entry.durable = true;
    if (this.#dropped === 0)
      this.#opts.log.warn({ dropped: n }, 'ocpp message log: database unreachable, dropping oldest frames');
    this.#dropped += n;
  }

  async #write(): Promise<void> {
    const entries = this.#pending;
    this.#pending = [];
    for (let i = 0; i < entries.length; i += CHUNK) {
      const chunk = entries.slice(i, i + CHUNK);
      try {
        await this.store.insert(chunk);
      } catch (err) {
        if (!isDataError(err)) {
          this.#pending = entries.slice(i).concat(this.#pending);
          throw err;
        }
        // PostgreSQL refuses something in these frames: retrying would block the log for good.
        this.#opts.log.warn({ err, frames: chunk.length }, 'ocpp message log: frames refused, dropped');
      }
      for (const entry of chunk) {
        entry.durable = true;
        const charger = entry.owner;
        if (++charger.sincePrune >= this.#pruneEvery) {
          charger.sincePrune = 0;
          this.#toPrune.add(charger.key);
        }
      }
    }
    if (this.#dropped > 0) {
      this.#opts.log.warn(
        { dropped: this.#dropped },
        'ocpp message log: writing again after dropping frames',
      );
      this.#dropped = 0;
    }
  }

  async #prune(): Promise<void> {
    const keys = [...this.#toPrune];
    this.#toPrune.clear();
    try {
      await this.store.pruneCount(keys, this.#opts.maxPerCharger);
      await this.store.pruneAge(this.#opts.retentionHours);
    } catch (err) {
      for (const key of keys) this.#toPrune.add(key);
      this.#opts.log.warn({ err }, 'ocpp message log: pruning failed, retrying later');
    }
    const idleBefore = Date.now() - IDLE_MS;
    for (const [key, charger] of this.#chargers)
      if (charger.lastAt < idleBefore && !charger.listeners && charger.settled) this.#chargers.delete(key);
  }
}

/** SQLSTATE class 22 (data exception): the rows themselves are the problem. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
