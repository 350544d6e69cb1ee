/**
 * Runs many periodic tasks from one timer. Thousands of sockets each pinging every N seconds would
 * otherwise hold thousands of intervals; here each task sits in the bucket of the tick it is due
 * at, and a single timer empties one bucket per tick. Tasks added at different moments land in
 * different buckets, so their work stays spread over the interval instead of firing all at once.
 */
export interface WheelTimers {
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: never) => void;
}

interface Task {
  due: number;
  everyTicks: number;
  cancelled: boolean;
  run: () => void;
}

export class KeepaliveWheel {
  readonly #tickMs: number;
  readonly #timers: WheelTimers;
  readonly #buckets = new Map<number, Set<Task>>();
  #tick = 0;
  #count = 0;
  #handle: unknown = null;

  constructor(tickMs = 1000, timers?: WheelTimers) {
    this.#tickMs = tickMs;
    this.#timers = timers ?? {
      // unref: keep-alive pings must not keep a finished process running.
      setInterval: (fn, ms) => setInterval(fn, ms).unref(),
      clearInterval: (handle) => clearInterval(handle as unknown as ReturnType<typeof setInterval>),
    };
  }

  /** Number of scheduled tasks. */
  get size(): number {
    return this.#count;
  }

  /** Runs `run` every `intervalMs` (rounded to whole ticks, at least one); returns a cancel function. */
  every(intervalMs: number, run: () => void): () => void {
    const everyTicks = Math.max(1, Math.round(intervalMs / this.#tickMs));
    const task: Task = { due: 0, everyTicks, cancelled: false, run };
    this.#schedule(task);
    this.#count++;
    if (this.#handle === null) this.#handle = this.#timers.setInterval(this.#onTick, this.#tickMs);
    return () => {
      if (task.cancelled) return;
      task.cancelled = true;
      this.#buckets.get(task.due)?.delete(task);
      if (--this.#count === 0 && this.#handle !== null) {
        this.#timers.clearInterval(this.#handle as never);
        this.#handle = null;
      }
    };
  }

  #schedule(task: Task): void {
    task.due = this.#tick + task.everyTicks;
    let bucket = this.#buckets.get(task.due);
    if (!bucket) this.#buckets.set(task.due, (bucket = new Set()));
    bucket.add(task);
  }

  readonly #onTick = (): void => {
    this.#tick++;
    const bucket = this.#buckets.get(this.#tick);
    if (!bucket) return;
    this.#buckets.delete(this.#tick);
    for (const task of bucket) {
      if (task.cancelled) continue; // cancelled by an earlier task of this same tick
      // Rescheduled before running, so a task that cancels itself is removed from its next bucket.
      this.#schedule(task);
      task.run();
    }
  };
}

/** The process-wide wheel the charger sockets use for their keep-alive pings. */
export const keepaliveWheel = new KeepaliveWheel();
