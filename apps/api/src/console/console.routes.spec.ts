/**
 * The console's static serving: the page for /app and its client routes, assets with their types
 * and caching, the 503 without a build, and no way out of the build directory.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetFile, consoleRoutes } from './console.routes';

const base = mkdtempSync(join(tmpdir(), 'leadstream-console-'));
const dist = join(base, 'dist');
mkdirSync(join(dist, 'assets'), { recursive: true });
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(join(dist, 'assets', 'index-abc123.css'), 'body{}');
writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
// Files beside the build that must never be served.
writeFileSync(join(base, 'secret.txt'), 'SECRET');
writeFileSync(join(base, 'dist-secret.txt'), 'SECRET');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: the path goes out byte for byte (fetch would resolve the dots first). */
function get(server: Server, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function serve(distDir: string): Promise<Server> {
  const app = new Koa();
  app.use(consoleRoutes({ distDir }));
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = 'api 404';
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

let server: Server;
let unbuilt: Server;
beforeAll(async () => {
  server = await serve(dist);
  unbuilt = await serve(join(base, 'missing'));
});
afterAll(() => {
  server.close();
  unbuilt.close();
  rmSync(base, { recursive: true, force: true });
});

describe('the console at /app', () => {
  it('answers the page for /app, /app/ and any client route, never cached stale, with a CSP', async () => {
    for (const path of ['/app', '/app/', '/app/leads', '/app/leads/lead_123?page=2', '/app/funnel/']) {
      const answer = await get(server, path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain('<div id="root">');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(String(answer.headers['content-security-policy'])).toContain("script-src 'self'");
    }
  });

  it('serves assets with their content type; hashed files are cached for a year', async () => {
    const script = await get(server, '/app/assets/index-abc123.js');
    expect(script).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    const style = await get(server, '/app/assets/index-abc123.css');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    const icon = await get(server, '/app/favicon.svg');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    expect((await get(server, '/app/assets/index-old.js')).status).toBe(404);
    expect((await get(server, '/app/assets/anything')).status).toBe(404);
    expect((await get(server, '/app/missing.css')).status).toBe(404);
  });

  it('never serves a file outside the build directory', async () => {
    const attempts = [
      '/app/../secret.txt',
      '/app/assets/../../secret.txt',
      '/app/..%2fsecret.txt',
      '/app/%2e%2e/secret.txt',
      '/app/%2e%2e%2f%2e%2e%2fpackage.json',
      '/app/assets/..%2f..%2fsecret.txt',
      '/app/..%5csecret.txt',
      '/app/%00index.html',
      '/app/%E0%A4%A',
      '/app/../dist-secret.txt',
      '/app//etc/passwd',
    ];
    for (const path of attempts) {
      const answer = await get(server, path);
      expect(answer.body, path).not.toContain('SECRET');
      expect(answer.body, path).not.toContain('root:');
      expect([200, 404], path).toContain(answer.status);
      if (answer.status === 200) expect(answer.body, path).toContain('<div id="root">');
    }
    expect(assetFile(dist, '/../secret.txt')).toBeNull();
    expect(assetFile(dist, '/%2e%2e/secret.txt')).toBeNull();
    expect(assetFile(dist, '/assets/index-abc123.js')).toBe(join(dist, 'assets', 'index-abc123.js'));
    expect(assetFile(dist, '/')).toBeUndefined();
  });

  it('takes only GET and HEAD', async () => {
    const answer = await get(server, '/app/leads', 'POST');
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET, HEAD');
    expect((await get(server, '/app/leads', 'HEAD')).status).toBe(200);
  });

  it('leaves every other path to the API', async () => {
    expect(await get(server, '/api/leads')).toMatchObject({ status: 404, body: 'api 404' });
    expect(await get(server, '/application')).toMatchObject({ status: 404, body: 'api 404' });
  });

  it('sends the links of the mails (reset password, invitation) and a browser at / to the console', async () => {
    const reset = await get(server, '/reset-password?token=abc');
    expect(reset.status).toBe(302);
    expect(reset.headers['location']).toBe('/app/reset-password?token=abc');
    expect((await get(server, '/accept-invite?token=x')).headers['location']).toBe('/app/accept-invite?token=x');
    expect((await get(server, '/', 'GET', { accept: 'text/html' })).headers['location']).toBe('/app/');
    expect((await get(server, '/', 'GET', { accept: 'application/json' })).status).toBe(404);
    expect((await get(server, '/', 'GET', { accept: '*/*' })).status).toBe(404);
  });

  it('answers 503 with what to run when the console is not built', async () => {
    const answer = await get(unbuilt, '/app/leads');
    expect(answer.status).toBe(503);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('npm run console:build');
  });
});
