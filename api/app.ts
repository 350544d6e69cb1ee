// The Koa application: request log, one error mapper, then one router per spec area; an area's
// routes run behind authentication, the rate limit where it applies, the JSON body parser and the
// check for characters the database cannot store.
import Koa from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import { errorMiddleware } from './http/errors.ts';
import { jsonBody } from './http/json-body.ts';
import { rejectUnstorable } from './http/validation.ts';
import { requestLog } from './http/request-log.ts';
import { requireAuth } from './http/auth.ts';
import { rateLimit } from './http/rate-limit.ts';
import type { ApiDeps } from './http/deps.ts';
import { healthRouter } from './routers/health-router.ts';
import { catalogRouter } from './routers/catalog-router.ts';
import { templatesRouter } from './routers/templates-router.ts';
import { deploymentsRouter } from './routers/deployments-router.ts';
import { commandsRouter } from './routers/commands-router.ts';
import { cpoLocationsRouter } from './routers/cpo-locations-router.ts';
import { cpoGroupsRouter } from './routers/cpo-groups-router.ts';
import { cpoTariffKeysRouter } from './routers/cpo-tariff-keys-router.ts';
import { cpoChargePointsRouter } from './routers/cpo-charge-points-router.ts';
import { emspTokensRouter } from './routers/emsp-tokens-router.ts';
import { emspIdentitiesRouter } from './routers/emsp-identities-router.ts';
import { emspTariffsRouter } from './routers/emsp-tariffs-router.ts';
import { roamingPartnersRouter } from './routers/roaming-partners-router.ts';
import { roamingChargingProfileRouter } from './routers/roaming-charging-profile-router.ts';
import { deploymentDetailRouter } from './routers/deployment-detail-router.ts';
import { commandListRouter } from './routers/command-list-router.ts';
import { cpoOcppLogRouter, ocppLogRouter } from './routers/ocpp-log-router.ts';
// The console (issue 14)
import { consoleRouter } from './routers/console-router.ts';
import { fleetRouter } from './routers/fleet-router.ts';
import { apiDocsRouter } from './routers/api-docs-router.ts';
import type { MountedRouter } from './openapi/openapi-document.ts';
import { scenarioRunsRouter, scenarioSchemaRouter } from './routers/scenario-runs-router.ts';
import { conformanceRunsRouter } from './routers/conformance-runs-router.ts';
import { trafficRunsRouter } from './routers/traffic-runs-router.ts';
import { chaosRunsRouter } from './routers/chaos-runs-router.ts';
import { metricsRouter } from './routers/metrics-router.ts';
import { linkConditionsRouter } from './routers/link-conditions-router.ts';
import { mcpRouter } from './routers/mcp-router.ts';

export interface Area {
  router: (deps: ApiDeps) => Router;
  /** The /cpo, /emsp and /ocpi areas share the per-organization rate limit. */
  rateLimited?: boolean;
}

/** Areas open to anyone (readiness). */
export const PUBLIC_AREAS: Area[] = [
  { router: healthRouter },
  // The console's static files (issue 14)
  { router: consoleRouter },
  // Scenario runs (issue 16): the document's JSON Schema, for editors.
  { router: scenarioSchemaRouter },
];

/** Areas that need a bearer token. Each area adds its router here. */
export const AUTHENTICATED_AREAS: Area[] = [
  { router: catalogRouter },
  { router: templatesRouter },
  // Link conditions (issue 35); before E6/E8, whose example requests delete what its examples name
  { router: linkConditionsRouter },
  { router: deploymentsRouter },
  { router: commandsRouter },
  { router: cpoLocationsRouter, rateLimited: true },
  { router: cpoGroupsRouter, rateLimited: true },
  { router: cpoTariffKeysRouter, rateLimited: true },
  { router: cpoChargePointsRouter, rateLimited: true },
  { router: emspTokensRouter, rateLimited: true },
  { router: emspIdentitiesRouter, rateLimited: true },
  { router: emspTariffsRouter, rateLimited: true },
  { router: roamingPartnersRouter, rateLimited: true },
  { router: roamingChargingProfileRouter, rateLimited: true },
  { router: deploymentDetailRouter },
  { router: commandListRouter },
  { router: ocppLogRouter },
  { router: cpoOcppLogRouter, rateLimited: true },
  // The console's fleet reads, stage stream and machine diagram (issue 14)
  { router: fleetRouter },
  // Scenario runs (issue 16)
  { router: scenarioRunsRouter },
  { router: conformanceRunsRouter },
  { router: trafficRunsRouter },
  // Fleet chaos runs (issue 35)
  { router: chaosRunsRouter },
  // The MCP server (issue 36): the same token, its tools act for the token's organization
  { router: mcpRouter },
];

export function createApp(deps: ApiDeps): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered by errorMiddleware; koa's default handler would print stacks.
  app.silent = true;
  app.use(requestLog(deps.platform.log));
  app.use(errorMiddleware());

  const auth = requireAuth(deps.platform.tokens);
  const body = jsonBody(deps.platform.config.bodyLimit);
  const limit = rateLimit(deps.platform.config.rateLimit);
  for (const { router, authenticated, rateLimited } of apiRouters(deps)) {
    if (!authenticated) mount(app, behind([body, rejectUnstorable], router));
    else
      mount(
        app,
        behind(rateLimited ? [auth, limit, body, rejectUnstorable] : [auth, body, rejectUnstorable], router),
      );
  }
  return app;
}

/**
 * Every router of the API as the app mounts it, the API description's own (/openapi.json, /docs)
 * last: the description is made from this list.
 */
export function apiRouters(deps: ApiDeps): MountedRouter[] {
  // An engine-only node (NODE_ROLE=engine) serves its readiness and its central system, not the API.
  if (deps.platform.config.cluster.role === 'engine')
    return [{ router: healthRouter(deps), authenticated: false }];
  const mounted: MountedRouter[] = [
    ...PUBLIC_AREAS.map((area) => ({ router: area.router(deps), authenticated: false })),
    ...AUTHENTICATED_AREAS.map((area) => ({
      router: area.router(deps),
      authenticated: true,
      rateLimited: area.rateLimited ?? false,
    })),
    // Prometheus scrapes: a token of any organization, or none when METRICS_PUBLIC=true (issue 36).
    { router: metricsRouter(deps), authenticated: !deps.platform.config.metrics.public },
  ];
  mounted.push({ router: apiDocsRouter(() => mounted), authenticated: false });
  return mounted;
}

/**
 * The router's routes behind `middleware`, which runs only for requests that match one of them:
 * unknown paths stay 404, wrong methods 405, and no body is read before the caller is known.
 * The router itself is left as it was built.
 */
export function behind(middleware: RouterMiddleware[], router: Router): Router {
  const area = new Router();
  area.use(...middleware);
  area.use(router.routes());
  return area;
}

export function mount(app: Koa, router: Router): void {
  app.use(router.routes());
  // Sets 405 / 501 with an Allow header; errorMiddleware gives them the detail body.
  app.use(router.allowedMethods());
}
