// Retention of the stage-event log (E10), like the message log's: each charger keeps its newest
// STAGE_EVENTS_MAX_PER_CHARGER events and no event outlives STAGE_EVENTS_RETENTION_HOURS. A charger
// that reconnects all day would otherwise grow the table for as long as its deployment lives.
// One timer per process; a charger is pruned by count only after it wrote a tenth of its maximum
// since, so a boot storm (7 events per charger) adds no statement.
import type { Logger } from '../platform/log/logger.ts';
import type { StageEventStore } from './stage-event-store.ts';

/** What the retention counts on a running charger. */
export interface CountedCharger {
  deploymentId: string;
  stageEventsSincePrune: number;
}

export interface StageEventRetentionOptions {
  store: StageEventStore;
  log: Logger;
  retentionHours: number;
  maxPerCharger: number;
}

const PRUNE_EVERY_MS = 60_000;

export class StageEventRetention {
  #toPrune = new Set<string>();
  readonly #every: number;
  readonly #timer: ReturnType<typeof setInterval>;
  #pruning: Promise<void> | undefined;

  constructor(private readonly opts: StageEventRetentionOptions) {
    this.#every = Math.max(1, Math.floor(opts.maxPerCharger / 10));
    this.#timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.#timer.unref();
  }

  /** The charger produced one more stage event. */
  counted(charger: CountedCharger): void {
    if (++charger.stageEventsSincePrune < this.#every) return;
    charger.stageEventsSincePrune = 0;
    this.#toPrune.add(charger.deploymentId);
  }

  /** By count for the chargers that wrote enough since, then by age. */
  prune(): Promise<void> {
    this.#pruning ??= this.#prune().finally(() => (this.#pruning = undefined));
    return this.#pruning;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#pruning;
  }

  async #prune(): Promise<void> {
    const ids = [...this.#toPrune];
    this.#toPrune.clear();
    try {
      await this.opts.store.pruneCount(ids, this.opts.maxPerCharger);
      await this.opts.store.pruneAge(this.opts.retentionHours);
    } catch (err) {
      for (const id of ids) this.#toPrune.add(id);
      this.opts.log.warn({ err }, 'stage events: pruning failed, retrying later');
    }
  }
}
