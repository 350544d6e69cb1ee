// E4: the location-template gallery.
import Router from '@koa/router';
import { z } from 'zod';
import { badRequest, fromSource } from '../http/errors.ts';
import { boolString, parseQuery } from '../http/validation.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { templateList } from '../schemas/evcharger-answers.ts';
import type { OcppVersion } from '../../protocols/ocpp/versions.ts';

// E4's filter is the spec's enum, narrower than the versions the chargers speak on purpose: the
// gallery holds templates of these two only (an ocpp2.1 filter answers 400, as the spec says).
const TEMPLATE_OCPP_VERSIONS: readonly OcppVersion[] = ['ocpp1.6', 'ocpp2.0.1'];
const OCPI_VERSIONS = ['2.1.1', '2.2.1'];

const templateQuery = z.object({
  ocpp_version: z.string().max(16).optional(),
  ocpi_version: z.string().max(16).optional(),
  connector_type: z.string().min(1).max(32).optional(),
  include_all: boolString().optional().default(false),
});

// The spec answers an unknown version with 400 naming it, not with a 422.
function checkVersion(
  name: string,
  value: string | undefined,
  allowed: readonly string[],
): string | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) throw badRequest(`Invalid ${name} '${value}'`);
  return value;
}

export function templatesRouter({ templates }: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/evcharger/templates/locations',
    apiDoc({
      summary: 'Location templates: ready bodies for POST /evcharger/location',
      query: templateQuery,
      examples: { ocpp16: { query: { ocpp_version: 'ocpp1.6', include_all: false } } },
      responses: { 200: { description: 'The templates that match the filters', schema: templateList } },
      errors: {
        400: "Invalid filter: Invalid ocpp_version '<value>'",
        500: 'Template gallery source failed',
      },
    }),
    async (ctx) => {
      const q = parseQuery(ctx, templateQuery);
      const filters = {
        ocpp_version: checkVersion('ocpp_version', q.ocpp_version, TEMPLATE_OCPP_VERSIONS),
        ocpi_version: checkVersion('ocpi_version', q.ocpi_version, OCPI_VERSIONS),
        connector_type: q.connector_type,
        include_all: q.include_all,
      };
      const list = await fromSource('Template gallery source failed', () => templates.list(filters));
      ctx.body = {
        count: list.length,
        filters: {
          ocpp_version: filters.ocpp_version ?? null,
          ocpi_version: filters.ocpi_version ?? null,
          connector_type: filters.connector_type ?? null,
          include_all: filters.include_all,
        },
        templates: list,
      };
    },
  );
  return router;
}
