// The one HTTP error path: handlers throw ApiError (or a validation error); the error middleware
// turns anything thrown into the spec's shapes. 5xx details never leak internals, and each 5xx
// answer is worded once, here. A database that cannot be reached is a 503 on every route, mapped
// here from whatever the query threw, not route by route.
import type { Context, Next } from 'koa';
import { isDatabaseUnavailable } from '../../engine/platform/db/database.ts';

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    cause?: unknown,
  ) {
    super(detail, { cause });
  }
}

export class ValidationError extends Error {
  readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super('validation failed');
  }
}

export const badRequest = (detail: string) => new ApiError(400, detail);
export const notFound = (detail = 'Not Found') => new ApiError(404, detail);
export const conflict = (detail: string) => new ApiError(409, detail);

// ---- the 5xx answers ----

export const INTERNAL_ERROR = 'Internal Server Error';
export const DATABASE_UNAVAILABLE = 'The database is unavailable; retry shortly';
/** Seconds a client is asked to wait before retrying a 503 of an unreachable dependency. */
const RETRY_AFTER_SECONDS = '2';

export const internalError = (cause?: unknown) => new ApiError(500, INTERNAL_ERROR, {}, cause);
export const databaseUnavailable = (cause?: unknown) =>
  new ApiError(503, DATABASE_UNAVAILABLE, { 'Retry-After': RETRY_AFTER_SECONDS }, cause);
/** The MQTT broker is away: `consequence` says what cannot be done, e.g. 'the central system cannot be reached'. */
export const brokerUnavailable = (consequence: string, cause?: unknown) =>
  new ApiError(
    503,
    `The MQTT broker is not connected: ${consequence}`,
    { 'Retry-After': RETRY_AFTER_SECONDS },
    cause,
  );
/** A partner or charger that failed (502) or did not answer in time (504). */
export const upstreamFailed = (status: 502 | 504, detail: string) => new ApiError(status, detail);

/**
 * Reads from a data source whose failure the spec names (catalog, template gallery): a database
 * error becomes a 500 with that detail; ApiErrors thrown inside pass through, and so does a
 * database that cannot be reached (503, as everywhere).
 */
export async function fromSource<T>(detail: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError || err instanceof ValidationError || isDatabaseUnavailable(err)) throw err;
    throw new ApiError(500, detail, {}, err);
  }
}

/** Errors raised by co-body / raw-body / http-errors carry these. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  message: string;
  headers?: Record<string, string>;
  limit?: number;
}

const STATUS_TEXT: Record<number, string> = {
  404: 'Not Found',
  405: 'Method Not Allowed',
  501: 'Not Implemented',
};

export function errorMiddleware() {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      // Statuses set without a body (no route: 404; the router's 405/501) get the detail shape too.
      if (ctx.body === undefined && ctx.status >= 400) {
        const status = ctx.status;
        ctx.body = { detail: STATUS_TEXT[status] ?? 'Error' };
        ctx.status = status; // setting a body would otherwise turn the implicit 404 into 200
      }
    } catch (err) {
      respond(ctx, err);
    }
  };
}

function respond(ctx: Context, thrown: unknown): void {
  let err = thrown;
  if (err instanceof ValidationError) {
    ctx.status = 422;
    ctx.body = { detail: err.issues };
    return;
  }
  if (!(err instanceof ApiError && err.status < 500) && isDatabaseUnavailable(err))
    err = databaseUnavailable(err instanceof ApiError ? err.cause : err);
  if (err instanceof ApiError) {
    ctx.status = err.status;
    ctx.set(err.headers);
    ctx.body = { detail: err.detail };
    if (err.status === 503)
      ctx.state.log?.warn({ err: err.cause ?? err.detail, requestId: ctx.state.requestId }, err.detail);
    else if (err.status >= 500)
      ctx.state.log?.error({ err: err.cause ?? err.detail, requestId: ctx.state.requestId }, err.detail);
    return;
  }
  const e = err as HttpLikeError;
  // co-body rethrows JSON.parse's SyntaxError with status 400; raw-body tags its own errors.
  if (e && (e.type === 'entity.parse.failed' || (err instanceof SyntaxError && e.status === 400))) {
    ctx.status = 422;
    ctx.body = {
      detail: [
        {
          loc: ['body'],
          msg: 'JSON decode error',
          type: 'json_invalid',
          ctx: { error: 'not valid JSON' },
        },
      ],
    };
    return;
  }
  if (e && e.type === 'entity.too.large') {
    ctx.status = 413;
    ctx.body = { detail: `Request body is too large (limit ${e.limit ?? 'exceeded'} bytes)` };
    return;
  }
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && e.expose !== false) {
    ctx.status = status;
    if (e.headers) ctx.set(e.headers);
    ctx.body = { detail: e.message };
    return;
  }
  ctx.state.log?.error({ err, requestId: ctx.state.requestId }, 'unhandled error');
  ctx.status = 500;
  ctx.body = { detail: INTERNAL_ERROR };
}
