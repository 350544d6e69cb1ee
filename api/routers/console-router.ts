// The console (GET /ui/): static ES modules from api/console, and the small view library (preact,
// htm) straight from node_modules, so `npm ci && npm start` serves it with no build step and the
// page loads nothing from outside (the Content-Security-Policy says so to the browser too).
// `/` redirects here. No authentication: the page asks for a token and sends it with its calls.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import { z } from 'zod';
import type { Context } from 'koa';
import { notFound } from '../http/errors.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { consoleFile } from '../schemas/fleet.ts';

const page = z.string().meta({ description: 'An HTML page' });
const tags = ['console'];

const CONSOLE_DIR = fileURLToPath(new URL('../console/', import.meta.url));
const require = createRequire(import.meta.url);

/** The browser's names (see the import map in index.html) -> modules resolved by Node. */
const VENDOR: Record<string, () => string> = {
  'preact.mjs': () => require.resolve('preact'),
  'hooks.mjs': () => require.resolve('preact/hooks'),
  // htm's package exports its CommonJS build to require(); the ES module lies beside it.
  'htm.mjs': () => join(dirname(require.resolve('htm')), 'htm.mjs'),
};

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
};

/** The page's one inline script is its import map: allowed by its hash, no other inline script runs. */
function policy(indexHtml: string): string {
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(indexHtml)?.[1] ?? '';
  const hash = createHash('sha256').update(importMap).digest('base64');
  return (
    `default-src 'self'; script-src 'self' 'sha256-${hash}'; style-src 'self' 'unsafe-inline'; ` +
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
  );
}
let csp: string | undefined;

/** Only plain file names of the console's own folder (no path, no dot file). */
const FILE = /^[a-z0-9-]+\.(html|js|css|svg|png)$/;

async function serve(ctx: Context, path: string, ext: string): Promise<void> {
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    throw notFound('Not Found');
  }
  csp ??= policy(await readFile(join(CONSOLE_DIR, 'index.html'), 'utf8'));
  ctx.type = TYPES[ext];
  ctx.set('Content-Security-Policy', csp);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = body;
}

export function consoleRouter(_deps: ApiDeps): Router {
  const router = new Router();
  const query = (ctx: Context) => (ctx.querystring ? `?${ctx.querystring}` : '');
  // The link `npm start` prints may carry ?token=: it goes along with the redirect.
  router.get(
    '/',
    apiDoc({
      summary: 'Redirects to the console (/ui/), keeping the query (?token=)',
      tags,
      responses: { 302: { description: 'To /ui/' } },
    }),
    (ctx) => {
      if (ctx.path !== '/') throw notFound('Not Found');
      ctx.redirect(`/ui/${query(ctx)}`);
    },
  );
  // The router matches /ui and /ui/ alike; only the page's own address serves it.
  router.get(
    '/ui/',
    apiDoc({
      summary: 'The console: watch and drive the fleet in the browser (sign in with a token or ?token=)',
      tags,
      examples: { page: {} },
      responses: { 200: { description: 'The page', contentType: 'text/html', schema: page } },
    }),
    async (ctx) => {
      if (ctx.path === '/ui') return ctx.redirect(`/ui/${query(ctx)}`);
      await serve(ctx, join(CONSOLE_DIR, 'index.html'), 'html');
    },
  );
  router.get(
    '/ui/vendor/:file',
    apiDoc({
      summary: "The console's view library (preact, htm), served from node_modules",
      tags,
      path: consoleFile,
      examples: { preact: { path: { file: 'preact.mjs' } } },
      responses: { 200: { description: 'An ES module', contentType: 'text/javascript' } },
      errors: { 404: 'No such file' },
    }),
    async (ctx) => {
      const path = Object.hasOwn(VENDOR, ctx.params.file) ? VENDOR[ctx.params.file] : undefined;
      if (!path) throw notFound('Not Found');
      await serve(ctx, path(), 'mjs');
    },
  );
  router.get(
    '/ui/:file',
    apiDoc({
      summary: 'A file of the console (its ES modules and style sheet)',
      tags,
      path: consoleFile,
      examples: { app: { path: { file: 'app.js' } } },
      responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
      errors: { 404: 'No such file' },
    }),
    async (ctx) => {
      const file = ctx.params.file;
      const m = FILE.exec(file);
      if (!m) throw notFound('Not Found');
      await serve(ctx, join(CONSOLE_DIR, file), m[1]);
    },
  );
  return router;
}
