// The one HTTP error path: handlers throw ApiError (or a validation error); the error middleware
// turns anything thrown into the spec's shapes. 5xx details never leak internals.
import type { Context, Next } from 'koa';

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

/**
 * Reads from a data source whose failure the spec names (catalog, template gallery): a database
 * error becomes a 500 with that detail; ApiErrors thrown inside pass through.
 */
export async function fromSource<T>(detail: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError || err instanceof ValidationError) throw err;
    throw new ApiError(500, detail, {}, err);
  }
}

/** Errors raised by koa-body / raw-body / http-errors carry these. */
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

/** V8 quotes a piece of the body in JSON.parse errors: it may hold a secret, so it is not echoed. */
function withoutSnippet(message: string): string {
  return message.replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ' (not valid JSON)');
}

function respond(ctx: Context, err: unknown): void {
  if (err instanceof ValidationError) {
    ctx.status = 422;
    ctx.body = { detail: err.issues };
    return;
  }
  if (err instanceof ApiError) {
    ctx.status = err.status;
    ctx.set(err.headers);
    ctx.body = { detail: err.detail };
    if (err.status >= 500)
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
          ctx: { error: withoutSnippet(e.message) },
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
  ctx.body = { detail: 'Internal Server Error' };
}
