// Token bucket per organization for the /cpo, /emsp and /ocpi areas (interface.md): a refill of
// RATE_LIMIT_PER_SECOND up to RATE_LIMIT_BURST. Over it: 429 with Retry-After in whole seconds.
// Buckets live in this process; idle ones are forgotten so the map stays small.
import type { Context, Next } from 'koa';
import { ApiError } from './errors.ts';
import { orgOf } from './auth.ts';

interface Bucket {
  tokens: number;
  at: number;
}

export function rateLimit(opts: { perSecond: number; burst: number }, now: () => number = Date.now) {
  const buckets = new Map<string, Bucket>();
  let lastSweep = now();

  return async function limitRate(ctx: Context, next: Next): Promise<void> {
    const t = now();
    if (t - lastSweep > 60_000) {
      for (const [org, b] of buckets) if (t - b.at > 60_000) buckets.delete(org);
      lastSweep = t;
    }
    const org = orgOf(ctx);
    const bucket = buckets.get(org) ?? { tokens: opts.burst, at: t };
    bucket.tokens = Math.min(opts.burst, bucket.tokens + ((t - bucket.at) / 1000) * opts.perSecond);
    bucket.at = t;
    buckets.set(org, bucket);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / opts.perSecond));
      throw new ApiError(429, `Rate limit reached; retry after ${retryAfter} s`, {
        'Retry-After': String(retryAfter),
      });
    }
    bucket.tokens -= 1;
    await next();
  };
}
