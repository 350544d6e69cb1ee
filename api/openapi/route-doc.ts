// How a router documents a route, next to it: one more middleware in the route's list,
//
//   router.get('/evcharger/catalog', apiDoc({ summary: '...', query, responses }), handler)
//
// It does nothing per request (it calls next); the OpenAPI builder (openapi-document.ts) finds it
// in the router's stack, so a route is documented by the same zod schemas its handler validates
// with, and a route without it is listed by the route-coverage test.
import type { Middleware } from 'koa';
import type { z } from 'zod';

export interface ResponseDoc {
  description: string;
  /** The answer's shape (zod, converted as output); none for 204 and other empty answers. */
  schema?: z.ZodType;
  /** Default `application/json`; `text/event-stream` for streams. */
  contentType?: string;
  example?: unknown;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

/** One request the operation accepts: its parts become the parameters' and the body's examples. */
export interface RequestExample {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RouteDoc {
  summary: string;
  description?: string;
  /** Default: the path's first segment (evcharger, cpo, emsp, ...). */
  tags?: string[];
  path?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  /** The request body (zod, converted as input). */
  body?: z.ZodType;
  /** False when the whole body may be left out (its schema has a default). */
  bodyRequired?: boolean;
  /** Named example requests; each is also sent to a running service by the OpenAPI test. */
  examples?: Record<string, RequestExample>;
  /** Success answers, by status. */
  responses: Record<number, ResponseDoc>;
  /**
   * Error statuses this route answers with `{detail}`, each with its meaning; 401 (authenticated
   * areas), 422 (a route with parameters or a body), 429 (rate-limited areas) and 503 (the
   * database away) are added by the builder.
   */
  errors?: Record<number, string>;
}

export const ROUTE_DOC: unique symbol = Symbol('evsim.routeDoc');

export type DocumentedMiddleware = Middleware & { [ROUTE_DOC]: RouteDoc };

export function apiDoc(doc: RouteDoc): DocumentedMiddleware {
  const passThrough: Middleware = (_ctx, next) => next();
  return Object.assign(passThrough, { [ROUTE_DOC]: doc });
}

export function routeDocOf(middleware: unknown): RouteDoc | undefined {
  return typeof middleware === 'function'
    ? (middleware as Partial<DocumentedMiddleware>)[ROUTE_DOC]
    : undefined;
}
