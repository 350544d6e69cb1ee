// GET /openapi.json (the API description, built once from the mounted routers) and GET /docs
// (Swagger UI from the swagger-ui-dist package in node_modules). No authentication; the page's
// Content-Security-Policy lets it load nothing but this service's own files.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import { z } from 'zod';
import { notFound } from '../http/errors.ts';
import { parsePath } from '../http/validation.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import {
  buildOpenApiDocument,
  type MountedRouter,
  type OpenApiDocument,
} from '../openapi/openapi-document.ts';

const UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page loads, and their content types. */
const UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

// Served as a file, not inline, so the policy needs no 'unsafe-inline' for scripts. A token given
// as ?token= is put in the Authorize dialog once the description is loaded (onComplete: before
// that swagger-ui knows no security scheme and drops it), then removed from the address bar;
// validatorUrl null: no call to an outside validator.
const INIT_JS = `window.addEventListener('load', () => {
  const token = new URLSearchParams(window.location.search).get('token');
  const ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
    onComplete: () => {
      if (!token) return;
      window.ui.preauthorizeApiKey('bearerAuth', token);
      history.replaceState(null, '', window.location.pathname + window.location.hash);
    },
  });
  window.ui = ui;
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>evsim API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const assetPath = z.object({ file: z.string().min(1).max(64) });
const html = z.string().meta({ description: 'An HTML page' });

/** `mounted()` is every router of the app, this one included: read once, at the first request. */
export function apiDocsRouter(mounted: () => readonly MountedRouter[]): Router {
  const router = new Router();
  let document: OpenApiDocument | undefined;
  const assets = new Map<string, Buffer>();

  router.get(
    '/openapi.json',
    apiDoc({
      summary: 'This description of the API (OpenAPI 3.1)',
      responses: {
        200: {
          description: 'The OpenAPI document',
          schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
        },
      },
    }),
    (ctx) => {
      document ??= buildOpenApiDocument(mounted()).document;
      ctx.body = document;
    },
  );

  router.get(
    '/docs',
    apiDoc({
      summary: 'Interactive documentation of this API (Swagger UI, served from this service only)',
      responses: { 200: { description: 'The documentation page', contentType: 'text/html', schema: html } },
    }),
    (ctx) => {
      ctx.set('Content-Security-Policy', DOCS_CSP);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
    },
  );

  router.get(
    '/docs/assets/:file',
    apiDoc({
      summary: "A file of the documentation page (Swagger UI's script, style sheet and icons)",
      path: assetPath,
      examples: { style: { path: { file: 'swagger-ui.css' } } },
      responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
      errors: { 404: 'No such file' },
    }),
    async (ctx) => {
      const { file } = parsePath(ctx, assetPath);
      if (file === 'init.js') {
        ctx.type = 'text/javascript; charset=utf-8';
        ctx.body = INIT_JS;
        return;
      }
      const type = Object.hasOwn(UI_FILES, file) ? UI_FILES[file] : undefined;
      if (!type) throw notFound(`No documentation asset '${file}'`);
      let content = assets.get(file);
      if (!content) assets.set(file, (content = await readFile(join(UI_DIR, file))));
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = type;
      ctx.body = content;
    },
  );

  return router;
}
