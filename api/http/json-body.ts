// The one request-body parser. Bodies are JSON whatever their Content-Type (a curl -d without a
// header works), read up to BODY_LIMIT (413 beyond), on every method that carries one. Nesting
// deeper than MAX_JSON_DEPTH is refused on the raw text, before JSON.parse, by a loop (no
// recursion that a hostile body could overflow), so nothing after parsing (validation, the 422
// that echoes the input, logs) ever walks a deep value. Malformed or too deep: 422 json_invalid.
import * as coBody from 'co-body';
import type { Context, Next } from 'koa';
import { ValidationError } from './errors.ts';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body; undefined when the request had none. */
    body?: unknown;
  }
}

/** Arrays and objects nested deeper than this are refused (docs/operations.md). */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** The deepest nesting of arrays and objects in JSON text, stopping once it passes `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

/** V8 quotes a piece of the body in JSON.parse errors: it may hold a secret, so it is not echoed. */
function withoutSnippet(message: string): string {
  return message.replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ' (not valid JSON)');
}

const jsonInvalid = (error: string) =>
  new ValidationError([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error } }]);

function hasBody(ctx: Context): boolean {
  if (ctx.get('transfer-encoding')) return true;
  const length = ctx.get('content-length');
  return length !== '' && length !== '0';
}

export function jsonBody(limit: string) {
  return async function parseJsonBody(ctx: Context, next: Next): Promise<void> {
    if (hasBody(ctx)) {
      // raw-body's errors (413 entity.too.large, 400 request.aborted, ...) reach the error mapper.
      const text = await coBody.text(ctx, { limit });
      const { request } = ctx;
      if (text.trim() === '') request.body = {};
      else {
        if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
          ctx.state.log?.warn(
            { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, bytes: text.length },
            `request body nested deeper than ${MAX_JSON_DEPTH} levels: refused`,
          );
          throw jsonInvalid(`nested deeper than ${MAX_JSON_DEPTH} levels`);
        }
        try {
          request.body = JSON.parse(text);
        } catch (err) {
          throw jsonInvalid(withoutSnippet((err as Error).message));
        }
      }
    }
    await next();
  };
}
