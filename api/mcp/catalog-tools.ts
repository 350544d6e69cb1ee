// Tools on what can be deployed: the charger catalog (brands, then a brand's models, with the
// OCPP versions each speaks) and the location templates (ready bodies for deploy_location).
import { z } from 'zod';
import { fromSource, notFound } from '../http/errors.ts';
import { defineTool, type ToolGroup } from './tool-kit.ts';

const SOURCE_FAILED = 'Catalog source failed';
const slug = z
  .string()
  .max(128)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case letters, digits and dashes');

export const catalogTools: ToolGroup = (server, scope) => {
  const { catalog, templates } = scope.deps;

  defineTool(
    server,
    scope,
    'list_catalog',
    {
      title: 'List the charger catalog',
      description:
        "Without `brand_slug`: the catalog's brands. With it: that brand's models (`model` is the slug deploy_charger takes, with the OCPP versions the model speaks). Paged by `page`.",
      input: z.object({
        brand_slug: slug.optional(),
        page: z.number().int().min(1).max(1_000_000).default(1),
        limit: z.number().int().min(1).max(100).default(50),
      }),
      readOnly: true,
    },
    ({ brand_slug, page, limit }) =>
      fromSource(SOURCE_FAILED, async () => {
        if (brand_slug === undefined) return catalog.listBrands(page, limit);
        const brand = await catalog.findBrand(brand_slug);
        if (!brand) throw notFound(`Entity ${brand_slug} not found in brands`);
        return catalog.listModels(brand.id, page, limit);
      }),
  );

  defineTool(
    server,
    scope,
    'list_templates',
    {
      title: 'List location templates',
      description:
        'Location templates: ready bodies for deploy_location, filtered by OCPP version, OCPI version or connector type.',
      input: z.object({
        // The gallery's versions (E4's enum), as the HTTP route takes them.
        ocpp_version: z.enum(['ocpp1.6', 'ocpp2.0.1']).optional(),
        ocpi_version: z.enum(['2.1.1', '2.2.1']).optional(),
        connector_type: z.string().min(1).max(32).optional(),
        include_all: z.boolean().default(false),
      }),
      readOnly: true,
    },
    async (filters) => {
      const list = await fromSource('Template gallery source failed', () => templates.list(filters));
      return { count: list.length, templates: list };
    },
  );
};
