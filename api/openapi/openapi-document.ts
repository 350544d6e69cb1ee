// The OpenAPI 3.1 description of the API, built from the routers themselves: each route's
// `apiDoc(...)` (route-doc.ts) gives its zod schemas and examples, converted in json-schema.ts.
// Routes without one are returned as `undocumented` (the route-coverage test lists them).
import type Router from '@koa/router';
import type { z } from 'zod';
import { jsonSchemaOf } from './json-schema.ts';
import { routeDocOf, type RequestExample, type RouteDoc } from './route-doc.ts';
import { errorDetail, validationErrors } from '../schemas/errors.ts';
import { OCPP_VERSIONS, VERSION_PROFILES } from '../../protocols/ocpp/versions.ts';

export const API_VERSION = '0.1.0';

/** A router as the app mounts it: behind authentication or not, rate-limited or not. */
export interface MountedRouter {
  router: Router;
  authenticated: boolean;
  rateLimited?: boolean;
}

/** One route of a router's stack: a method and the OpenAPI form of its path. */
export interface RouteRef {
  method: string;
  /** OpenAPI form: /evcharger/deployments/{deployment_id}. */
  path: string;
  doc?: RouteDoc;
}

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Operation>>;
};
type Operation = Record<string, unknown>;

const IGNORED_METHODS = new Set(['HEAD', 'OPTIONS']);

/** Every route (method and path) registered on the routers, with its doc when it has one. */
export function routesOf(routers: readonly Router[]): RouteRef[] {
  const out: RouteRef[] = [];
  for (const router of routers)
    for (const layer of router.stack) {
      if (layer.methods.length === 0 || typeof layer.path !== 'string') continue;
      const doc = layer.stack.map(routeDocOf).find((d) => d !== undefined);
      for (const method of layer.methods)
        if (!IGNORED_METHODS.has(method)) out.push({ method, path: openApiPath(layer.path), doc });
    }
  return out;
}

export const openApiPath = (koaPath: string): string => koaPath.replace(/:(\w+)/g, '{$1}');

/** "1.6, 2.0.1 and 2.1": the versions the chargers speak, as people name them. */
function spoken(): string {
  const labels = OCPP_VERSIONS.map((v) => VERSION_PROFILES[v].label);
  return labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorDetail' };
const VALIDATION_REF = { $ref: '#/components/schemas/ValidationErrors' };

const detailResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
});

const RETRY_AFTER = {
  'Retry-After': { description: 'Whole seconds to wait before retrying', schema: { type: 'integer' } },
};

export function buildOpenApiDocument(mounted: readonly MountedRouter[]): {
  document: OpenApiDocument;
  undocumented: RouteRef[];
} {
  const paths: OpenApiDocument['paths'] = {};
  const undocumented: RouteRef[] = [];
  for (const { router, authenticated, rateLimited } of mounted)
    for (const route of routesOf([router])) {
      if (!route.doc) {
        undocumented.push(route);
        continue;
      }
      paths[route.path] ??= {};
      paths[route.path][route.method.toLowerCase()] = operation(route, route.doc, {
        authenticated,
        rateLimited: rateLimited ?? false,
      });
    }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'evsim',
      version: API_VERSION,
      description:
        `EV charger simulator and e-mobility sandbox: virtual chargers speaking OCPP ${spoken()}, ` +
        'a built-in central system, CPO and eMSP areas and OCPI roaming. Every route but the public ' +
        'ones needs `Authorization: Bearer <JWT>` (the organization is its `org_id` claim; ' +
        '`npm run token -- --org ID` prints one, and `npm start` prints a dev token). ' +
        'Virtual chargers and charge points connect over WebSocket at `/ocpp/{charge_point_id}` ' +
        `(subprotocols ${OCPP_VERSIONS.join(', ')}), which is not an HTTP operation and is not listed here.`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A JWT whose string claim org_id names the organization',
        },
      },
      schemas: {
        ErrorDetail: jsonSchemaOf(errorDetail, 'output'),
        ValidationErrors: jsonSchemaOf(validationErrors, 'output'),
      },
    },
  };
  return { document, undocumented };
}

const TAGS = [
  { name: 'evcharger', description: 'Catalog, templates, virtual charger deployments and commands' },
  { name: 'cpo', description: 'Charge-point operator: locations, charge points, groups, tariff keys' },
  { name: 'emsp', description: 'e-mobility service provider: tokens, roaming identities, tariffs' },
  { name: 'roaming', description: 'Roaming partners and OCPI callbacks' },
  { name: 'service', description: 'Health and the API description' },
];

function tagOf(path: string): string {
  const first = path.split('/')[1];
  if (first === 'ocpi') return 'roaming';
  return TAGS.some((t) => t.name === first) ? first : 'service';
}

function operation(
  route: RouteRef,
  doc: RouteDoc,
  area: { authenticated: boolean; rateLimited: boolean },
): Operation {
  const examples = Object.entries(doc.examples ?? {});
  const parameters = [
    ...parametersOf('path', doc.path, examples),
    ...parametersOf('query', doc.query, examples),
    ...parametersOf('header', doc.headers, examples),
  ];
  const op: Operation = {
    operationId: operationId(route),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: doc.tags ?? [tagOf(route.path)],
    ...(parameters.length > 0 ? { parameters } : {}),
  };
  if (doc.body) {
    const bodyExamples = examples.filter(([, e]) => e.body !== undefined);
    op.requestBody = {
      required: doc.bodyRequired ?? true,
      content: {
        'application/json': {
          schema: jsonSchemaOf(doc.body, 'input'),
          ...(bodyExamples.length > 0
            ? { examples: Object.fromEntries(bodyExamples.map(([name, e]) => [name, { value: e.body }])) }
            : {}),
        },
      },
    };
  }
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(doc.responses)) {
    const type = r.contentType ?? 'application/json';
    responses[status] = {
      description: r.description,
      ...(r.headers ? { headers: r.headers } : {}),
      ...(r.schema || r.example !== undefined
        ? {
            content: {
              [type]: {
                ...(r.schema ? { schema: jsonSchemaOf(r.schema, 'output') } : {}),
                ...(r.example !== undefined ? { example: r.example } : {}),
              },
            },
          }
        : {}),
    };
  }
  for (const [status, meaning] of Object.entries(doc.errors ?? {}))
    responses[status] = detailResponse(meaning);
  if (area.authenticated) responses['401'] ??= detailResponse('Missing, expired or invalid bearer token');
  if (doc.path || doc.query || doc.headers || doc.body)
    responses['422'] ??= {
      description: 'The request does not match the schema: one entry per failed rule',
      content: { 'application/json': { schema: VALIDATION_REF } },
    };
  if (area.rateLimited)
    responses['429'] ??= {
      ...detailResponse('Rate limit of the organization reached'),
      headers: RETRY_AFTER,
    };
  responses['503'] ??= {
    ...detailResponse('The database (or the MQTT broker) is unavailable'),
    headers: RETRY_AFTER,
  };
  op.responses = responses;
  if (area.authenticated) op.security = [{ bearerAuth: [] }];
  return op;
}

function parametersOf(
  where: 'path' | 'query' | 'header',
  schema: z.ZodObject | undefined,
  examples: Array<[string, RequestExample]>,
): unknown[] {
  if (!schema) return [];
  const part = where === 'header' ? 'headers' : where;
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = jsonSchemaOf(field as z.ZodType, 'input');
    const { description, ...rest } = json;
    const example = examples.map(([, e]) => e[part]?.[name]).find((v) => v !== undefined);
    return {
      name,
      in: where,
      required: where === 'path' || (field as z.ZodType)._zod.optin !== 'optional',
      ...(description ? { description } : {}),
      schema: rest,
      ...(example !== undefined ? { example } : {}),
    };
  });
}

/** e.g. GET /evcharger/deployments/{deployment_id} -> getEvchargerDeploymentsByDeploymentId. */
function operationId(route: RouteRef): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith('{') ? `by-${seg.slice(1, -1)}` : seg))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}
