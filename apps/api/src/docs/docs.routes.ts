/**
 * The API reference: the OpenAPI 3.1 document at /api/openapi.json (built from the same operation
 * table the tests check answers against) and a docs page at /docs, Swagger UI served from this
 * process's node_modules (no CDN, so it works offline and under a strict CSP).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import { buildOpenApiDocument } from '@leadstream/schemas';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';

/** The Swagger UI files the page needs, read once at start (a few MB, served with long caching). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>leadstream API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>body { margin: 0; } .topbar { display: none; }</style>
</head>
<body>
  <main id="reference" aria-label="leadstream API reference"></main>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  persistAuthorization: false,
});
`;

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

function loadAssets(): Map<string, Buffer> {
  const root = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return new Map(Object.keys(ASSETS).map((name) => [name, readFileSync(join(root, name))]));
}

export function docsRouters(guard: SessionGuard): { api: UserRouter; pages: Router } {
  const document = JSON.stringify(buildOpenApiDocument());
  const api = new UserRouter(guard);
  defineRoute(api, { method: 'GET', path: '/api/openapi.json', permission: 'public' }, (ctx) => {
    ctx.type = 'application/json';
    ctx.body = document;
  });

  let assets: Map<string, Buffer> | undefined;
  const pages = new Router();
  pages.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  pages.get('/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = INIT;
  });
  pages.get('/docs/assets/:name', (ctx) => {
    const name = String(ctx.params['name']);
    const type = ASSETS[name];
    if (!type) return; // 404 by the error handler
    assets ??= loadAssets();
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = type;
    ctx.body = assets.get(name);
  });
  return { api, pages };
}
