// Runs background jobs a chunk of targets at a time (a deployment chunk is one multi-row insert,
// not a round trip per charger), writing progress after each chunk so a restart resumes where the
// job was (a chunk redone after a crash is harmless: every step is idempotent or, for restart,
// merely repeated). Jobs of a location being deleted, or of a closing process, are cancelled
// between chunks.
import type { Logger } from '../platform/log/logger.ts';
import type { Job, JobStore } from './job-store.ts';

/** Consecutive targets of a job; failures are the step's own business (it records them). */
export interface JobStep {
  run: (job: Job, targets: unknown[]) => Promise<void>;
  /** Targets per call (and per progress write). */
  chunk: number;
  /** Jobs of this kind wait for the one before them. */
  serial?: boolean;
}

interface RunningJob {
  locationId: string;
  cancelled: boolean;
  finished: Promise<void>;
}

export class JobRunner {
  #running = new Map<string, RunningJob>();

  constructor(
    private readonly jobs: JobStore,
    private readonly steps: Record<Job['kind'], JobStep>,
    private readonly log: Logger,
  ) {}

  /**
   * Jobs of one kind run one after another when their step says so (location deployments: ten
   * locations posted at once boot as ten chunks at a time otherwise, and every API call waits
   * behind that storm); a queued job that is cancelled ends without starting.
   */
  run(job: Job): void {
    const entry: RunningJob = { locationId: job.location_id, cancelled: false, finished: Promise.resolve() };
    const serial = this.steps[job.kind].serial;
    const turn = serial ? (this.#queues.get(job.kind) ?? Promise.resolve()) : Promise.resolve();
    entry.finished = turn
      .then(() => this.#loop(job, entry))
      .catch((err: unknown) =>
        this.log.error({ err, job: job.id }, 'deployments: job failed, resumed at next start'),
      )
      .finally(() => this.#running.delete(job.id));
    if (serial) this.#queues.set(job.kind, entry.finished);
    this.#running.set(job.id, entry);
  }

  #queues = new Map<Job['kind'], Promise<void>>();

  /**
   * Takes over and runs the unfinished jobs no live node runs: this node's own after a restart,
   * and those of a node that died (called at start and whenever a node is seen gone). One
   * take-over at a time.
   */
  resume(): Promise<number> {
    const next = this.#resuming.then(async () => {
      const jobs = await this.jobs.claim([...this.#running.keys()]);
      for (const job of jobs) this.run(job);
      if (jobs.length > 0) this.log.info({ count: jobs.length }, 'background jobs resumed');
      return jobs.length;
    });
    this.#resuming = next.catch(() => 0);
    return next;
  }

  #resuming: Promise<number> = Promise.resolve(0);

  /** Stops the jobs of a location and waits until none touches it any more. */
  async cancelLocation(locationId: string): Promise<void> {
    const entries = [...this.#running.values()].filter((e) => e.locationId === locationId);
    for (const e of entries) e.cancelled = true;
    await Promise.all(entries.map((e) => e.finished));
  }

  /** Stops every job between two targets; the next start resumes them. */
  async close(): Promise<void> {
    const entries = [...this.#running.values()];
    for (const e of entries) e.cancelled = true;
    await Promise.all(entries.map((e) => e.finished));
  }

  /**
   * Progress is written behind the chunks, in order, without holding the next chunk back (a
   * round trip per chunk was a fifth of a location's time while a fleet boots); a crash before a
   * progress write merely repeats a chunk.
   */
  async #loop(job: Job, entry: RunningJob): Promise<void> {
    const step = this.steps[job.kind];
    const total = job.targets.length;
    let progress = Promise.resolve();
    for (let i = job.done; i < total && !entry.cancelled; i += step.chunk) {
      const done = Math.min(total, i + step.chunk);
      await step.run(job, job.targets.slice(i, done));
      if (done < total) {
        progress = progress.then(async () => {
          if (!entry.cancelled && !(await this.jobs.progress(job.id, done, false)))
            this.#takenOver(job, entry);
        });
        // Handled here and awaited below: a failed write must not count as an unhandled rejection.
        progress.catch(() => undefined);
      }
    }
    await progress;
    if (!entry.cancelled && !(await this.jobs.progress(job.id, total, true))) this.#takenOver(job, entry);
  }

  /** Another node took the job over (this node's presence had lapsed): it stops here. */
  #takenOver(job: Job, entry: RunningJob): void {
    entry.cancelled = true;
    this.log.warn({ job: job.id }, 'deployments: job taken over by another node, stopped here');
  }
}
