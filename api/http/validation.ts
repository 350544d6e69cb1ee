// One validation helper: zod schemas for body, query, path and headers, and one mapping of zod
// issues to the 422 list (FastAPI-style `type` codes, English `msg`, `input` and `ctx`). Before any
// schema, every string and key of the input is checked for characters PostgreSQL cannot store
// (NUL, unpaired surrogates), wherever they are: one rule for every route, not one per schema.
import { z } from 'zod';
import type { Context, Next } from 'koa';
import type { RouterContext } from '@koa/router';
import { ValidationError, type ValidationIssue } from './errors.ts';

type Part = 'body' | 'query' | 'path' | 'header';

export function parse<S extends z.ZodType>(schema: S, input: unknown, part: Part): z.infer<S> {
  const unstorable = unstorableIssues(input, [part]);
  if (unstorable.length > 0) throw new ValidationError(unstorable);
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.flatMap((issue) => toIssues(issue, part, input)));
}

// ---- characters PostgreSQL cannot store (text refuses NUL, jsonb refuses \u0000 and lone surrogates) ----

/** Issues reported at most, so a hostile body cannot make the 422 itself large. */
const MAX_UNSTORABLE_ISSUES = 20;

export const UNSTORABLE_MSG = 'String should not contain NUL (\\u0000) or unpaired surrogate characters';

// Without the u flag a regex sees UTF-16 code units: a surrogate not in a pair is a match.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const storable = (s: string): boolean => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

/**
 * Every string value and object key of `value` that PostgreSQL could not store, at its loc. The
 * walk is a loop over an explicit stack: the body parser already bounds the depth, and a value
 * from elsewhere must not overflow the call stack either.
 */
export function unstorableIssues(value: unknown, loc: Array<string | number>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Array<[unknown, Array<string | number>]> = [[value, loc]];
  while (stack.length > 0 && issues.length < MAX_UNSTORABLE_ISSUES) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (!storable(v)) issues.push({ loc: at, msg: UNSTORABLE_MSG, type: 'string_unicode', input: v });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...at, i]]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        if (!storable(key))
          issues.push({ loc: [...at, key], msg: UNSTORABLE_MSG, type: 'string_unicode', input: key });
        else stack.push([item, [...at, key]]);
      }
    }
  }
  return issues.slice(0, MAX_UNSTORABLE_ISSUES);
}

/**
 * Router middleware (after the body parser): a request whose path parameters, query or body hold
 * a character PostgreSQL cannot store is a 422, whether or not its route reads that part.
 */
export async function rejectUnstorable(ctx: Context, next: Next): Promise<void> {
  const issues = [
    ...unstorableIssues(routeParams(ctx as unknown as RouterContext), ['path']),
    ...unstorableIssues({ ...ctx.query }, ['query']),
    ...unstorableIssues(ctx.request.body, ['body']),
  ];
  if (issues.length > 0) throw new ValidationError(issues.slice(0, MAX_UNSTORABLE_ISSUES));
  await next();
}

/** The path parameters of the route this request matched (router middleware runs before the route sets them). */
function routeParams(ctx: RouterContext): Record<string, string> {
  const route = ctx.matched?.find((layer) => layer.methods.includes(ctx.method));
  return route ? route.params(ctx.path, route.captures(ctx.path)) : {};
}

export const parseBody = <S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> =>
  parse(schema, ctx.request.body ?? undefined, 'body');

/** Query values arrive as strings; a repeated parameter counts with its last value. */
export function parseQuery<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.query)) {
    if (v !== undefined) query[k] = Array.isArray(v) ? v[v.length - 1] : v;
  }
  return parse(schema, query, 'query');
}

export const parsePath = <S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> =>
  parse(schema, (ctx as unknown as { params: Record<string, string> }).params, 'path');

/**
 * Runs the parsers of several request parts (path, query, header, body) and reports their issues
 * in one 422, so a caller sees every failed rule at once.
 */
export function validateAll<T extends unknown[]>(...parsers: { [K in keyof T]: () => T[K] }): T {
  const issues: ValidationIssue[] = [];
  const out = parsers.map((parseOne) => {
    try {
      return parseOne();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      issues.push(...err.issues);
      return undefined;
    }
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return out as T;
}

// ---- string parameters (query, path, header) with FastAPI's parsing errors ----

/**
 * An integer given as a string, then checked by `then` (bounds). Its meta tells the OpenAPI
 * description the parsed type, not the string it arrives as.
 */
export function intString(then: z.ZodNumber = z.number()) {
  const bounds = {
    ...(Number.isFinite(then.minValue) ? { minimum: then.minValue } : {}),
    ...(Number.isFinite(then.maxValue) ? { maximum: then.maxValue } : {}),
  };
  return z
    .string()
    .transform((v, ctx) => {
      const t = v.trim();
      if (!/^[-+]?\d+$/.test(t)) {
        ctx.addIssue({
          code: 'custom',
          message: 'Input should be a valid integer, unable to parse string as an integer',
          params: { type: 'int_parsing' },
          input: v,
        });
        return z.NEVER;
      }
      return Number(t);
    })
    .pipe(then.int())
    .meta({ type: 'integer', ...bounds });
}

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

export function boolString() {
  const parsed = z.string().transform((v, ctx) => {
    const t = v.trim().toLowerCase();
    if (TRUE.has(t)) return true;
    if (FALSE.has(t)) return false;
    ctx.addIssue({
      code: 'custom',
      message: 'Input should be a valid boolean, unable to interpret input',
      params: { type: 'bool_parsing' },
      input: v,
    });
    return z.NEVER;
  });
  return parsed.meta({ type: 'boolean' });
}

/** An ISO 8601 date-time string. */
export function dateTimeString() {
  const parsed = z
    .string()
    .max(64)
    .transform((v, ctx) => {
      const ms = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim())
        ? Date.parse(v)
        : NaN;
      if (Number.isNaN(ms)) {
        ctx.addIssue({
          code: 'custom',
          message: 'Input should be a valid datetime',
          params: { type: 'datetime_parsing' },
          input: v,
        });
        return z.NEVER;
      }
      return new Date(ms);
    });
  return parsed.meta({ format: 'date-time' });
}

// ---- zod issue -> 422 entries ----

/**
 * Fields whose values are secrets: a 422 never echoes them, nor an object holding them
 * (charger security, roaming credentials tokens, imported private keys, headers). Inside a
 * charger's `security` only `profile` is echoed: a secret typed under a misspelt name stays hidden.
 */
const SECRET_FIELDS: ReadonlySet<PropertyKey> = new Set([
  'password',
  'client_key_pem',
  'private_key_pem',
  'token',
  'authorization',
]);
const SECRET_CONTAINER = 'security';
// The public view of a security object (what reads answer) is echoed too: its flags are booleans.
const PUBLIC_IN_CONTAINER: ReadonlySet<PropertyKey> = new Set(['profile', 'has_password', 'has_client_cert']);
const REDACTED = '[redacted]';

function redacted(path: readonly PropertyKey[], input: unknown): unknown {
  if (path.some((p) => SECRET_FIELDS.has(p))) return REDACTED;
  const inside = path.indexOf(SECRET_CONTAINER);
  if (inside >= 0) {
    const below = path.slice(inside + 1);
    if (below.length === 0) return containerView(input);
    return PUBLIC_IN_CONTAINER.has(below[0]) ? input : REDACTED;
  }
  return withoutSecrets(input);
}

function containerView(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return REDACTED;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, PUBLIC_IN_CONTAINER.has(k) ? v : REDACTED]),
  );
}

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_FIELDS.has(k) ? REDACTED : k === SECRET_CONTAINER ? containerView(v) : withoutSecrets(v),
    ]),
  );
}

type Issue = z.core.$ZodIssue & { input?: unknown };

function toIssues(issue: Issue, part: Part, root: unknown): ValidationIssue[] {
  const loc: Array<string | number> = [
    part,
    ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
  ];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      loc: [...loc, key],
      msg: 'Extra inputs are not permitted',
      type: 'extra_forbidden',
      input: redacted([...issue.path, key], valueAt(root, [...issue.path, key])),
    }));
  }
  const { type, msg, ctx } = describe(issue);
  const entry: ValidationIssue = { loc, msg, type };
  if (issue.input !== undefined) entry.input = redacted(issue.path, issue.input);
  if (ctx) entry.ctx = ctx;
  return [entry];
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  array: ['list_type', 'Input should be a valid list'],
  date: ['datetime_type', 'Input should be a valid datetime'],
  null: ['none_required', 'Input should be None'],
};

function describe(issue: Issue): { type: string; msg: string; ctx?: Record<string, unknown> } {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return { type: 'missing', msg: 'Field required' };
      const expected = issue.expected === 'number' && Number.isInteger(issue.input) ? 'int' : issue.expected;
      const [type, msg] = TYPE_NAMES[expected] ?? ['type_error', `Input should be a valid ${issue.expected}`];
      return { type, msg };
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return {
          type: 'string_too_short',
          msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`,
          ctx: { min_length: min },
        };
      if (issue.origin === 'array' || issue.origin === 'set')
        return {
          type: 'too_short',
          msg: `List should have at least ${min} item${min === 1 ? '' : 's'} after validation`,
          ctx: { min_length: min },
        };
      return issue.inclusive
        ? {
            type: 'greater_than_equal',
            msg: `Input should be greater than or equal to ${min}`,
            ctx: { ge: min },
          }
        : { type: 'greater_than', msg: `Input should be greater than ${min}`, ctx: { gt: min } };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string')
        return {
          type: 'string_too_long',
          msg: `String should have at most ${max} character${max === 1 ? '' : 's'}`,
          ctx: { max_length: max },
        };
      if (issue.origin === 'array' || issue.origin === 'set')
        return {
          type: 'too_long',
          msg: `List should have at most ${max} item${max === 1 ? '' : 's'} after validation`,
          ctx: { max_length: max },
        };
      return issue.inclusive
        ? { type: 'less_than_equal', msg: `Input should be less than or equal to ${max}`, ctx: { le: max } }
        : { type: 'less_than', msg: `Input should be less than ${max}`, ctx: { lt: max } };
    }
    case 'invalid_value': {
      // zod reports a missing enum or literal field as invalid_value, not invalid_type.
      if (issue.input === undefined) return { type: 'missing', msg: 'Field required' };
      const values = issue.values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
      const expected =
        values.length <= 1
          ? (values[0] ?? '')
          : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
      return values.length === 1
        ? { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } }
        : { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } };
    }
    case 'invalid_format': {
      if (issue.format === 'regex')
        return {
          type: 'string_pattern_mismatch',
          msg:
            issue.message && !issue.message.startsWith('Invalid')
              ? issue.message
              : `String should match pattern '${(issue as { pattern?: string }).pattern}'`,
          ctx: { pattern: String((issue as { pattern?: string }).pattern) },
        };
      if (issue.format === 'url') return { type: 'url_parsing', msg: 'Input should be a valid URL' };
      if (issue.format === 'email')
        return {
          type: 'value_error',
          msg: 'value is not a valid email address',
          ctx: { reason: issue.message },
        };
      if (issue.format === 'datetime')
        return { type: 'datetime_parsing', msg: 'Input should be a valid datetime' };
      return { type: 'value_error', msg: issue.message, ctx: { format: issue.format } };
    }
    case 'not_multiple_of':
      return {
        type: 'multiple_of',
        msg: `Input should be a multiple of ${issue.divisor}`,
        ctx: { multiple_of: issue.divisor },
      };
    case 'custom': {
      const params = (issue.params ?? {}) as { type?: string; ctx?: Record<string, unknown> };
      return { type: params.type ?? 'value_error', msg: issue.message, ctx: params.ctx };
    }
    case 'invalid_union':
      return { type: 'union_error', msg: issue.message || 'Input does not match any allowed form' };
    default:
      return { type: 'value_error', msg: issue.message };
  }
}
