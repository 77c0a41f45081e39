/**
 * The web console (apps/console, React + Vite) served by the API process at /app, on the same
 * origin as /api so the browser needs no CORS. `index.html` answers /app and every client route
 * under it (the console's router draws the page); the hashed files of /app/assets are cached for a
 * year. Without a build (`npm run console:build`, run by `npm install`) /app answers 503 saying so.
 *
 * A plain middleware rather than a @koa/router: these are pages, not operations of the OpenAPI
 * document, so neither the method routing nor the response check of the API should see them.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import { shippedFile } from '@leadstream/runtime';

export const CONSOLE_PATH = '/app';

/** apps/console/dist, beside this app; console/ beside the bundle in the build (tools/build.mjs copies it there). */
export const DEFAULT_CONSOLE_DIST = resolve(
  fileURLToPath(shippedFile(import.meta.url, { source: '../../../console/dist/', built: './console/' })),
);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Scripts and styles only from this origin; inline style attributes are what the charts draw with. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const NOT_BUILT = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Console not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}code{background:#eef1f5;padding:.1rem .3rem;border-radius:4px}</style></head>
<body><main><h1>The console is not built</h1>
<p>This process serves the web console from <code>apps/console/dist</code>, which does not exist yet.</p>
<p>Run <code>npm run console:build</code> (or <code>npm install</code>, which builds it), then reload this page. The API at <code>/api</code> works without it.</p></main></body>
</html>
`;

export interface ConsoleRoutesOptions {
  /** The Vite build output (default apps/console/dist). */
  distDir?: string;
}

/** Mail links point at `${APP_URL}/reset-password?token=…` and `/accept-invite?token=…`: the console's pages. */
const MAIL_PAGES = new Set(['/reset-password', '/accept-invite']);

export function consoleRoutes(options: ConsoleRoutesOptions = {}): Middleware {
  const root = resolve(options.distDir ?? DEFAULT_CONSOLE_DIST);
  return async (ctx, next) => {
    const path = ctx.path;
    if (MAIL_PAGES.has(path) && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.redirect(`${CONSOLE_PATH}${path}${ctx.search}`);
      return;
    }
    // Only a browser (which names text/html): API clients asking for */* still get the API's 404.
    if (path === '/' && (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.get('accept').includes('text/html')) {
      ctx.redirect(`${CONSOLE_PATH}/`);
      return;
    }
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      ctx.type = 'text/plain';
      ctx.body = 'Method Not Allowed';
      return;
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');

    const file = assetFile(root, path.slice(CONSOLE_PATH.length));
    if (file === null) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not Found';
      return;
    }
    if (file && (await isFile(file))) {
      ctx.type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      // Vite names what it emits into assets/ by content hash: such a file never changes.
      ctx.set(
        'Cache-Control',
        file.startsWith(join(root, 'assets') + sep) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      ctx.body = await readFile(file);
      return;
    }
    // A missing file (an old hash, a typo) is a 404, not the page: a script must not get HTML.
    if (file && (extname(file).toLowerCase() in TYPES || path.startsWith(`${CONSOLE_PATH}/assets/`))) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not Found';
      return;
    }
    let page: Buffer;
    try {
      page = await readFile(join(root, 'index.html'));
    } catch {
      ctx.status = 503;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Retry-After', '30');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = NOT_BUILT;
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  };
}

/**
 * The file a path under /app names, inside `root` only: undefined for the page itself (no file
 * part), null for what cannot name a file of the build (encoded slashes or dots that climb, NUL,
 * a malformed escape).
 */
export function assetFile(root: string, rest: string): string | undefined | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..')) return null;
  if (segments.length === 0) return undefined;
  const file = resolve(root, ...segments);
  if (!file.startsWith(root + sep)) return null;
  return file;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
