// One log line per request (method, path, status, duration, request id) at `debug`: a person
// watching `npm start` sees what happens to chargers, not every poll (LOG_LEVEL=debug shows them).
// The id is echoed back; a 500 is logged by the error mapper with this id at `error`.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../../engine/platform/log/logger.ts';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(log: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log;
    ctx.set('X-Request-ID', requestId);
    try {
      await next();
    } finally {
      log.debug(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          requestId,
        },
        'request',
      );
    }
  };
}
