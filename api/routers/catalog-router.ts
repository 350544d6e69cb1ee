// E1-E3: the charger catalog, read from PostgreSQL.
import Router from '@koa/router';
import { z } from 'zod';
import { badRequest, fromSource, notFound } from '../http/errors.ts';
import { intString, parsePath, parseQuery } from '../http/validation.ts';
import type { ApiDeps } from '../http/deps.ts';

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
  router.get('/evcharger/catalog', async (ctx) => {
    const { page, limit } = parseQuery(ctx, pageQuery(20));
    ctx.body = await fromSource(SOURCE_FAILED, () => catalog.listBrands(page, limit));
  });

  // E2
  router.get('/evcharger/catalog/:brand_slug/models', async (ctx) => {
    const { brand_slug } = parsePath(ctx, brandPath);
    const { page, limit } = parseQuery(ctx, pageQuery(50));
    checkSlug(brand_slug, 'brand slug');
    ctx.body = await fromSource(SOURCE_FAILED, async () => {
      const brand = await catalog.findBrand(brand_slug);
      if (!brand) throw notFound(`Entity ${brand_slug} not found in brands`);
      return catalog.listModels(brand.id, page, limit);
    });
  });

  // E3
  router.get('/evcharger/catalog/:brand_slug/models/:model', async (ctx) => {
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
  });

  return router;
}
