// The one write-behind schedule: callers buffer what they have to write and call schedule(); the
// writer runs their `write` once per batch, never two at a time, and only while something waits
// (no idle timer). Whatever arrives during a write goes into the next one. A failed write is
// logged; the `write` function itself puts back what it could not store, and another write follows.
//
//   const batch = new BatchWriter({ name: 'stage events', log, delayMs: 250,
//     pending: () => buffer.length > 0,
//     write: async () => { const rows = buffer.splice(0); try { await insert(rows) } catch (e) { buffer.unshift(...rows); throw e } } });
//   buffer.push(row); batch.schedule();
import type { Logger } from '../log/logger.ts';

export interface BatchWriterOptions {
  /** Names the writer in logs. */
  name: string;
  log: Logger;
  /** How long a write waits to gather more; 0 = the next turn of the event loop. */
  delayMs: number;
  /** Whether anything waits to be written. */
  pending(): boolean;
  /** Takes what waits and writes it; puts back (and throws) what it could not write. */
  write(): Promise<void>;
  /** Delay before another write when one failed (default: delayMs, at least 100 ms). */
  retryMs?: number;
}

export class BatchWriter {
  #cancel: (() => void) | undefined;
  #timerUrgent = false;
  /** An urgent schedule() came while a write ran: the next write follows at once. */
  #urgentAfter = false;
  #writing: Promise<void> | undefined;
  #failed = false;

  constructor(private readonly opts: BatchWriterOptions) {}

  /** Something waits: write it within delayMs (urgent: on the next turn). */
  schedule(urgent = false): void {
    if (this.#writing) {
      // The running write schedules the next one.
      if (urgent) this.#urgentAfter = true;
      return;
    }
    if (this.#cancel && (this.#timerUrgent || !urgent)) return;
    this.#clearTimer();
    this.#timerUrgent = urgent;
    const delay = urgent
      ? 0
      : this.#failed
        ? (this.opts.retryMs ?? Math.max(100, this.opts.delayMs))
        : this.opts.delayMs;
    if (delay <= 0) {
      const immediate = setImmediate(this.#fire);
      this.#cancel = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(this.#fire, delay);
      timer.unref();
      this.#cancel = () => clearTimeout(timer);
    }
  }

  /** Writes everything waiting now and resolves once it is written (or a write failed). */
  async flush(): Promise<void> {
    for (;;) {
      if (this.#writing) {
        await this.#writing;
        continue;
      }
      this.#clearTimer();
      if (!this.opts.pending()) return;
      await this.#run();
      if (this.#failed) return;
    }
  }

  /** Resolves when the write in progress, if any, is done. */
  async idle(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  readonly #fire = (): void => {
    this.#cancel = undefined;
    if (!this.#writing) void this.#run();
  };

  #clearTimer(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #run(): Promise<void> {
    this.#writing = this.opts
      .write()
      .then(() => {
        this.#failed = false;
      })
      .catch((err: unknown) => {
        this.#failed = true;
        this.opts.log.warn({ err }, `${this.opts.name}: batched write failed, retrying`);
      })
      .finally(() => {
        this.#writing = undefined;
        const urgent = this.#urgentAfter;
        this.#urgentAfter = false;
        if (this.opts.pending()) this.schedule(urgent);
      });
    return this.#writing;
  }
}
