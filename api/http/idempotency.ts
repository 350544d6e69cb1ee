// The one Idempotency-Key helper of the API (E17, E18 and the other token transitions).
// The key is required; the request's fingerprint is sha256 over method, path, query and the
// canonical JSON body. The first answer under a key is replayed (status and body, with
// `Idempotent-Replayed: true`) without acting again; a key reused for a different request is
// 409. A duplicate arriving while the first is still running waits for its answer (up to the
// partner timeout plus a grace), then gets 409 "still in progress". 4xx answers are kept;
// 5xx answers are not, so a retry after 502/504 acts again.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import { ApiError, conflict } from './errors.ts';
import { orgOf } from './auth.ts';
import { parse } from './validation.ts';
import type { IdempotencyStore, StoredAnswer } from '../../engine/platform/idempotency/idempotency-store.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The header's schema (also what the API description shows). */
export const idempotencyHeader = z.object({
  [IDEMPOTENCY_HEADER]: z.string().min(1).max(255).meta({
    description: 'A unique key chosen by the caller; a retry with the same key returns the first answer',
  }),
});
const headerSchema = idempotencyHeader;

/** The Idempotency-Key header; missing or empty: 422 at loc ["header", "Idempotency-Key"]. */
export function parseIdempotencyKey(ctx: Context): string {
  const header = ctx.get(IDEMPOTENCY_HEADER);
  const parsed = parse(headerSchema, { [IDEMPOTENCY_HEADER]: header === '' ? undefined : header }, 'header');
  return parsed[IDEMPOTENCY_HEADER];
}

/**
 * Answers the request through the key's record: acts once and replays after. `act` returns the
 * success answer or throws ApiError; a 4xx ApiError is kept as the answer too.
 */
export async function answerIdempotently(
  ctx: Context,
  store: IdempotencyStore,
  key: string,
  act: () => Promise<StoredAnswer>,
): Promise<void> {
  const result = await store.run(orgOf(ctx), key, fingerprint(ctx), async () => {
    try {
      return await act();
    } catch (err) {
      if (err instanceof ApiError && err.status < 500)
        return { status: err.status, body: { detail: err.detail } };
      throw err;
    }
  });
  switch (result.kind) {
    case 'mismatch':
      throw conflict(`${IDEMPOTENCY_HEADER} '${key}' was already used for a different request`);
    case 'in_progress':
      throw conflict(`A request with ${IDEMPOTENCY_HEADER} '${key}' is still in progress; retry later`);
    case 'replayed':
      ctx.set('Idempotent-Replayed', 'true');
      break;
    case 'fresh':
      break;
  }
  ctx.status = result.status;
  ctx.body = result.body;
}

function fingerprint(ctx: Context): string {
  const { body } = ctx.request;
  return createHash('sha256')
    .update(ctx.method)
    .update('\n')
    .update(ctx.path)
    .update('\n')
    .update(canonical(ctx.query))
    .update('\n')
    .update(canonical(isEmpty(body) ? undefined : body))
    .digest('hex');
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

/** JSON with object keys sorted, so key order never changes the fingerprint. */
function canonical(v: unknown): string {
  if (v === undefined) return '';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(v);
}
