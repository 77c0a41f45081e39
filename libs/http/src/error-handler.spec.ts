import { closeSync, openSync, writeSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { DomainError } from '@leadstream/domain';
import { Metrics } from '@leadstream/runtime';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLog } from './access-log';
import { requireJsonBody } from './content-type';
import { errorHandler } from './error-handler';
import { opsRoutes } from './ops.routes';
import { nodeHandler } from './node-handler';
import { requestId } from './request-id';

const logger = pino({ level: 'silent' });
let server: Server;
let base: string;
let ready = true;

beforeAll(async () => {
  const metrics = new Metrics({ defaultMetrics: false });
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  router.post('/api/leads', () => {
    throw new DomainError('VALIDATION_ERROR', 'Invalid lead', [{ field: 'email', message: 'email is required' }]);
  });
  router.post('/api/v1/leads/ingest', (ctx) => {
    ctx.status = 201;
    ctx.body = { success: true, received: ctx.request.body };
  });
  router.get('/api/analytics/funnel/overview', () => {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'viewer may not read this');
  });
  const rateLimited = (): never => {
    throw new DomainError('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', undefined, {
      retry_after: 42,
      limit: 500,
      window: 60,
    });
  };
  router.post('/api/v1/leads/bulk-ingest', rateLimited);
  router.get('/api/leads/lead_1', rateLimited);
  router.get('/api/leads/:id/status', () => {
    throw new DomainError('API_KEY_INVALID', 'Invalid API key');
  });
  router.get('/api/leads/:id', () => {
    throw new DomainError('TOKEN_INVALID', 'Invalid token');
  });
  router.post('/api/fragment', () => {
    throw new DomainError('VALIDATION_ERROR', 'Invalid vendor', [
      { field: 'vendor_id', message: 'is not a vendor of this organization' },
      { field: 'name', message: 'name is required' },
    ]);
  });
  router.get('/api/boom', () => {
    throw new Error('secret internal detail at /srv/db.ts:42');
  });
  router.get('/api/vendor-funnel-links', () => {
    throw new Error('database exploded');
  });
  // A full disk, as the engines report it: the kernel's ENOSPC (a real one, from /dev/full), and
  // SQLite's SQLITE_FULL as the pipeline thread hands it to the HTTP thread (name, message, code).
  router.post('/api/v1/leads/inbound-full', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      writeSync(fd, 'lead');
    } finally {
      closeSync(fd);
    }
  });
  router.post('/api/leads/full', () => {
    throw Object.assign(new Error('database or disk is full'), { name: 'SqliteError', code: 'SQLITE_FULL' });
  });
  const ops = opsRoutes(
    [
      {
        name: 'store',
        check: async () => {
          if (!ready) throw new Error('store is down');
        },
      },
    ],
    metrics,
  );
  app.use(requestId());
  app.use(accessLog(logger, metrics));
  app.use(errorHandler(logger));
  app.use(requireJsonBody());
  app.use(koaBody({ jsonLimit: '1kb', jsonStrict: true }));
  app.use(ops.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  server = createServer(nodeHandler(app));
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const post = (
  path: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Response> => fetch(`${base}${path}`, { method: 'POST', body, headers });

describe('error handling', () => {
  it('answers a method a path does not take with 405 in the error format, keeping Allow (not plain text)', async () => {
    const user = await fetch(`${base}/api/leads`, { method: 'DELETE' });
    expect(user.status).toBe(405);
    expect(user.headers.get('allow')).toBe('POST');
    expect(await user.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' } });
    const ingestion = await fetch(`${base}/api/v1/leads/ingest`, { method: 'GET' });
    expect(ingestion.status).toBe(405);
    expect(await ingestion.json()).toMatchObject({ success: false, error: 'Method not allowed' });
  });

  it('answers a method no router implements (TRACE) with the same 405 on a known path, and 404 elsewhere, never 501', async () => {
    const trace = (path: string): Promise<{ status: number; allow: string | undefined; body: unknown }> =>
      new Promise((resolve, reject) => {
        const request = httpRequest(`${base}${path}`, { method: 'TRACE' }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              allow: response.headers['allow'],
              body: JSON.parse(text) as unknown,
            }),
          );
        });
        request.on('error', reject);
        request.end();
      });
    const known = await trace('/api/leads');
    expect(known).toEqual({
      status: 405,
      allow: 'POST',
      body: { error: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' } },
    });
    const ingestion = await trace('/api/v1/leads/ingest');
    expect(ingestion.status).toBe(405);
    expect(ingestion.body).toMatchObject({ success: false, error: 'Method not allowed' });
    const unknown = await trace('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.allow).toBeUndefined();
  });

  it('answers a domain error in the user convention with its code and details', async () => {
    const response = await post('/api/leads', '{}');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Invalid lead',
        details: [{ field: 'email', message: 'email is required' }],
      },
    });
  });

  it('answers malformed JSON with 400 in the ingestion convention, not 500', async () => {
    const response = await post('/api/v1/leads/ingest', '{"email": ');
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(typeof body.error).toBe('string');
  });

  it('answers every error of the vendor status path in the ingestion convention, and the lead path in the user one', async () => {
    const status = await fetch(`${base}/api/leads/lead_1/status`);
    expect(status.status).toBe(401);
    expect(await status.json()).toMatchObject({ success: false, error: 'Invalid API key', code: 'API_KEY_INVALID' });
    const sandbox = await fetch(`${base}/sandbox/api/leads/lead_1/status`);
    expect(sandbox.status).toBe(404);
    expect(await sandbox.json()).toMatchObject({ success: false });
    const lead = await fetch(`${base}/api/leads/lead_2`);
    expect(await lead.json()).toEqual({ error: { code: 'TOKEN_INVALID', message: 'Invalid token' } });
  });

  it('words every detail with its field first, whichever layer found it', async () => {
    const response = await post('/api/fragment', '{}');
    expect(((await response.json()) as { error: { details: unknown } }).error.details).toEqual([
      { field: 'vendor_id', message: 'vendor_id is not a vendor of this organization' },
      { field: 'name', message: 'name is required' },
    ]);
  });

  it('refuses a __proto__ key as a forbidden key naming it, not as invalid JSON', async () => {
    const user = await post('/api/leads', '{"email":"a@b.edu","custom_fields":{"__proto__":{"admin":true}}}');
    expect(user.status).toBe(400);
    expect(await user.json()).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'The request body has a key that is not allowed',
        details: [{ field: '__proto__', message: '__proto__ is not allowed as a key' }],
      },
    });
    const ingestion = await post('/api/v1/leads/ingest', '{"__proto__":{"x":1},"email":"a@b.edu"}');
    expect(ingestion.status).toBe(400);
    expect(await ingestion.json()).toMatchObject({
      success: false,
      error: 'The request body has a key that is not allowed',
      details: [{ field: '__proto__', message: '__proto__ is not allowed as a key' }],
    });
  });

  it("answers a body that is not JSON with 415 in the path's convention", async () => {
    const ingestion = await post('/api/v1/leads/ingest', 'email=a@b.co', { 'content-type': 'text/plain' });
    expect(ingestion.status).toBe(415);
    expect(await ingestion.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const user = await post('/api/leads', '<lead/>', { 'content-type': 'application/xml' });
    expect(user.status).toBe(415);
    expect(await user.json()).toEqual({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be application/json' },
    });
  });

  it('answers an oversized body with 413', async () => {
    const response = await post(
      '/api/v1/leads/ingest',
      JSON.stringify({ email: 'a@b.co', padding: 'x'.repeat(5_000) }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('never leaks an internal message: 500 with a generic text', async () => {
    const response = await fetch(`${base}/api/boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
  });

  it("answers a failure that passes once the engines recover (a full disk) with 503 in the path's convention, not 500", async () => {
    const ingestion = await post('/api/v1/leads/inbound-full', '{}');
    expect(ingestion.status).toBe(503);
    expect(await ingestion.json()).toEqual({
      success: false,
      error: 'Service unavailable',
      code: 'SERVICE_UNAVAILABLE',
    });
    const user = await post('/api/leads/full', '{}');
    expect(user.status).toBe(503);
    const text = await user.text();
    expect(text).not.toContain('disk');
    expect(JSON.parse(text)).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' } });
  });

  it('uses the funnel texts and carries requestId on funnel 500s', async () => {
    const forbidden = await fetch(`${base}/api/analytics/funnel/overview`);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ success: false, error: 'Insufficient permissions' });
    const failed = await fetch(`${base}/api/vendor-funnel-links`, { headers: { 'X-Request-ID': 'trace-123' } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ success: false, error: 'Internal server error', requestId: 'trace-123' });
  });

  it('answers RATE_LIMIT_EXCEEDED in the ingestion convention with retry_after, limit, window and Retry-After', async () => {
    const response = await post('/api/v1/leads/bulk-ingest', '{}');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('42');
    expect(await response.json()).toEqual({
      success: false,
      error: 'Rate limit exceeded',
      code: 'RATE_LIMIT_EXCEEDED',
      retry_after: 42,
      limit: 500,
      window: 60,
    });
  });

  it('answers RATE_LIMIT_EXCEEDED in the user convention with retry_after only', async () => {
    const response = await fetch(`${base}/api/leads/lead_1`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('42');
    expect(await response.json()).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: 42 },
    });
  });

  it('answers unknown routes with a clean 404 in the right convention', async () => {
    const user = await fetch(`${base}/api/nothing-here`);
    expect(user.status).toBe(404);
    expect(await user.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Resource not found' } });
    const funnel = await fetch(`${base}/api/vendor-funnel-links/x/y`);
    expect(await funnel.json()).toEqual({ success: false, error: 'Resource not found' });
  });
});

describe('request ids', () => {
  it('echoes a valid X-Request-ID and replaces an invalid one', async () => {
    const echoed = await fetch(`${base}/healthz`, { headers: { 'X-Request-ID': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await fetch(`${base}/healthz`, { headers: { 'X-Request-ID': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_[0-9a-f-]{36}$/);
    const generated = await fetch(`${base}/healthz`);
    expect(generated.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('ops routes', () => {
  it('reports readiness from the checks and turns 503 when one fails', async () => {
    ready = true;
    const up = await fetch(`${base}/readyz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ready', checks: { store: { ok: true } } });
    ready = false;
    const down = await fetch(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unready', checks: { store: { ok: false, error: 'store is down' } } });
    ready = true;
  });

  it('exposes the HTTP latency histogram labelled by route template', async () => {
    await fetch(`${base}/healthz`);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(
      /leadstream_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/,
    );
  });
});
