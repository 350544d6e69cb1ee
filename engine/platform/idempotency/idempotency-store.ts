// Idempotency keys per organization. `run` acts at most once per (organization, key): the first
// caller inserts an 'in_progress' row (the primary key decides the race), acts, and stores the
// answer; a duplicate polls until that answer is stored and replays it. A 5xx answer is not
// stored (the row is deleted), so a retry acts again. Keys expire after `ttlSeconds`; expired
// rows are deleted lazily (on use, and by an occasional sweep run by a later request).
import type { Queryable } from '../db/database.ts';

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export type IdempotentResult =
  | ({ kind: 'fresh' } & StoredAnswer)
  | ({ kind: 'replayed' } & StoredAnswer)
  /** The key was first used for a different request. */
  | { kind: 'mismatch' }
  /** A duplicate waited `waitMs` and the first request is still running. */
  | { kind: 'in_progress' };

export interface IdempotencyOptions {
  ttlSeconds: number;
  /** How long a duplicate waits for the first request's answer. */
  waitMs: number;
  /**
   * How long an in-progress claim holds before it counts as abandoned (its holder died);
   * default twice waitMs, so a waiting duplicate gives up before it could take a live claim over.
   */
  lockMs?: number;
  pollMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface KeyRow {
  fingerprint: string;
  state: 'in_progress' | 'done';
  status: number | null;
  body: unknown;
}

const SWEEP_EVERY_MS = 60_000;

export class IdempotencyStore {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private lastSweep = 0;

  constructor(
    private readonly db: Queryable,
    private readonly opts: IdempotencyOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /**
   * Acts once per key. `act` returns the answer; an answer with status >= 500, or a throw, is
   * not kept, so the key can be used again.
   */
  async run(
    orgId: string,
    key: string,
    fingerprint: string,
    act: () => Promise<StoredAnswer>,
  ): Promise<IdempotentResult> {
    this.maybeSweep();
    const giveUpAt = this.now() + this.opts.waitMs;
    for (;;) {
      const claimed = await this.claim(orgId, key, fingerprint);
      if (claimed) break;
      const row = await this.read(orgId, key);
      if (!row) continue; // released or expired between our insert and read: try again
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done') return { kind: 'replayed', status: row.status!, body: row.body };
      if (this.now() >= giveUpAt) return { kind: 'in_progress' };
      await this.sleep(this.opts.pollMs ?? 25);
    }

    let answer: StoredAnswer;
    try {
      answer = await act();
    } catch (err) {
      await this.release(orgId, key);
      throw err;
    }
    if (answer.status >= 500) await this.release(orgId, key);
    else await this.complete(orgId, key, answer);
    return { kind: 'fresh', ...answer };
  }

  /** Inserts the in-progress row; false when the key is taken (and neither expired nor abandoned). */
  private async claim(orgId: string, key: string, fingerprint: string): Promise<boolean> {
    const now = new Date(this.now());
    // An expired key, or a claim whose holder died mid-request, frees the key.
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2
         AND (expires_at <= $3 OR (state = 'in_progress' AND locked_until <= $3))`,
      [orgId, key, now],
    );
    const { rowCount } = await this.db.query(
      `INSERT INTO idempotency_keys (organization_id, key, fingerprint, state, locked_until, expires_at)
       VALUES ($1, $2, $3, 'in_progress', $4, $5) ON CONFLICT DO NOTHING`,
      [
        orgId,
        key,
        fingerprint,
        new Date(now.getTime() + (this.opts.lockMs ?? 2 * this.opts.waitMs)),
        new Date(now.getTime() + this.opts.ttlSeconds * 1000),
      ],
    );
    return rowCount === 1;
  }

  private async read(orgId: string, key: string): Promise<KeyRow | undefined> {
    const { rows } = await this.db.query<KeyRow>(
      `SELECT fingerprint, state, status, body FROM idempotency_keys
       WHERE organization_id = $1 AND key = $2 AND expires_at > $3`,
      [orgId, key, new Date(this.now())],
    );
    return rows[0];
  }

  private async complete(orgId: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET state = 'done', status = $3, body = $4
       WHERE organization_id = $1 AND key = $2`,
      [orgId, key, answer.status, JSON.stringify(answer.body ?? null)],
    );
  }

  private async release(orgId: string, key: string): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 AND state = 'in_progress'`,
      [orgId, key],
    );
  }

  /** Deletes expired keys of every organization at most once a minute, off the request path. */
  private maybeSweep(): void {
    const t = this.now();
    if (t - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = t;
    this.db
      .query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [new Date(t)])
      .catch(() => undefined);
  }
}
