// E1-E3: the charger catalog, read from PostgreSQL.
import Router from '@koa/router';
import { z } from 'zod';
import { badRequest, fromSource, notFound } from '../http/errors.ts';
import { intString, parsePath, parseQuery } from '../http/validation.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { brandPage, catalogModel, modelPage } from '../schemas/evcharger-answers.ts';

const SOURCE_FAILED = 'Catalog source failed';
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const pageQuery = (defaultLimit: number) =>
  z.object({
    page: intString(z.number().min(1).max(1_000_000)).optional().default(1),
    limit: intString(z.number().min(1).max(100)).optional().default(defaultLimit),
  });

const slug = z.string().max(128);
const brandPath = z.object({ brand_slug: slug });
const modelPath = z.object({ brand_slug: slug, model: slug });

function checkSlug(value: string, what: string): void {
  if (!SLUG.test(value))
    throw badRequest(`Invalid ${what} '${value}': use lower-case letters, digits and dashes`);
}

export function catalogRouter({ catalog }: ApiDeps): Router {
  const router = new Router();

  // E1
  router.get(
    '/evcharger/catalog',
    apiDoc({
      summary: 'Charger brands of the catalog, paged',
      query: pageQuery(20),
      examples: { firstPage: { query: { page: 1, limit: 20 } } },
      responses: { 200: { description: 'A page of brands', schema: brandPage } },
      errors: { 500: SOURCE_FAILED },
    }),
    async (ctx) => {
      const { page, limit } = parseQuery(ctx, pageQuery(20));
      ctx.body = await fromSource(SOURCE_FAILED, () => catalog.listBrands(page, limit));
    },
  );

  // E2
  router.get(
    '/evcharger/catalog/:brand_slug/models',
    apiDoc({
      summary: 'Charger models of one brand, paged',
      path: brandPath,
      query: pageQuery(50),
      examples: { abb: { path: { brand_slug: 'abb' }, query: { page: 1, limit: 50 } } },
      responses: { 200: { description: 'A page of models', schema: modelPage } },
      errors: {
        400: 'Invalid brand slug',
        404: 'Unknown brand: Entity <slug> not found in brands',
        500: SOURCE_FAILED,
      },
    }),
    async (ctx) => {
      const { brand_slug } = parsePath(ctx, brandPath);
      const { page, limit } = parseQuery(ctx, pageQuery(50));
      checkSlug(brand_slug, 'brand slug');
      ctx.body = await fromSource(SOURCE_FAILED, async () => {
        const brand = await catalog.findBrand(brand_slug);
        if (!brand) throw notFound(`Entity ${brand_slug} not found in brands`);
        return catalog.listModels(brand.id, page, limit);
      });
    },
  );

  // E3
  router.get(
    '/evcharger/catalog/:brand_slug/models/:model',
    apiDoc({
      summary: 'One charger model',
      path: modelPath,
      examples: { terra: { path: { brand_slug: 'abb', model: 'abb-terra-124' } } },
      responses: { 200: { description: 'The model', schema: catalogModel } },
      errors: {
        400: 'Invalid brand or model slug',
        404: 'Unknown brand or model: Entity <slug> not found in models',
        500: SOURCE_FAILED,
      },
    }),
    async (ctx) => {
      const { brand_slug, model } = parsePath(ctx, modelPath);
      checkSlug(brand_slug, 'brand slug');
      checkSlug(model, 'model slug');
      ctx.body = await fromSource(SOURCE_FAILED, async () => {
        const brand = await catalog.findBrand(brand_slug);
        if (!brand) throw notFound(`Entity ${brand_slug} not found in models`);
        const found = await catalog.findModel(model, brand.id);
        if (!found) throw notFound(`Entity ${model} not found in models`);
        return found;
      });
    },
  );

  return router;
}
