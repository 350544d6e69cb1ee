// One charger's part of the message log in memory: the last id it gave out, a short ring of its
// newest frames (the live view, and every frame not yet in PostgreSQL), and whoever watches it
// live. Created on its first frame or watcher, so a charger that never logs costs nothing here.
import type { LogItemFields } from './log-item.ts';

/** A captured frame; the same object sits in its charger's ring and in the write-behind buffer. */
export class LogEntry implements LogItemFields {
  /** Written to PostgreSQL (or given up on): the ring may let it go. */
  durable = false;

  constructor(
    readonly owner: ChargerLog,
    readonly id: number,
    readonly at: number,
    readonly direction: 'in' | 'out',
    readonly type: number | null,
    readonly messageId: string | null,
    readonly action: string | null,
    readonly frame: string,
    readonly error: string | null,
    readonly injected: string | null = null,
  ) {}
}

/** Told of each new entry of a watched charger, with its item JSON (built once for all watchers). */
export type LogListener = (entry: LogEntry, json: string) => void;

export class ChargerLog {
  lastId = 0;
  /** Epoch ms of the newest frame (0: none yet). */
  lastAt = 0;
  /** Rows written since this charger was last pruned by count. */
  sincePrune = 0;
  #ring: LogEntry[] | null = null;
  listeners: Set<LogListener> | null = null;

  constructor(readonly key: string) {}

  /** The next id: increasing, and from the clock so that it keeps increasing across restarts. */
  nextId(nowMs: number): number {
    const id = Math.max(this.lastId + 1, nowMs * 1000);
    this.lastId = id;
    this.lastAt = nowMs;
    return id;
  }

  /** Keeps the newest `size` entries, and older ones only while they are not durable yet. */
  push(entry: LogEntry, size: number): void {
    const ring = (this.#ring ??= []);
    ring.push(entry);
    while (ring.length > size && ring[0].durable) ring.shift();
  }

  /** The ring, oldest first (a copy). */
  recent(): LogEntry[] {
    return this.#ring ? [...this.#ring] : [];
  }

  /** Whether everything this charger logged is in PostgreSQL. */
  get settled(): boolean {
    return !this.#ring || this.#ring.every((e) => e.durable);
  }

  get hasEntries(): boolean {
    return !!this.#ring && this.#ring.length > 0;
  }
}
