import Router from '@koa/router';
import type { Dal } from '@leadstream/dal';
import { DomainError, type TenantContext } from '@leadstream/domain';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, type ApiKeyAuthState } from './api-key.middleware';
import { startAuthTestServer, type AuthTestServer } from './auth.test-support';
import { ingestionRateLimit, rateLimit } from './rate-limit.middleware';

/** A fixed instant 20 s into a window, so a test never straddles a window boundary. */
let now = new Date('2025-05-05T12:00:40.000Z');
const clock = (): Date => now;
const WINDOW_END = Date.parse('2025-05-05T12:01:00.000Z') / 1000;

let server: AuthTestServer;
let live: TenantContext;
let vendorId: string;

function routes(dal: Dal): Router<ApiKeyAuthState> {
  const router = new Router<ApiKeyAuthState>();
  const auth = apiKeyAuth<ApiKeyAuthState>(
    { apiKeys: dal.apiKeys, vendors: dal.vendors, logger: pino({ level: 'silent' }) },
    'write',
  );
  const ok = (ctx: Router.RouterContext<ApiKeyAuthState>): void => {
    ctx.status = 201;
    ctx.body = { success: true };
  };
  router.post('/api/v1/leads/ingest', auth, ingestionRateLimit('single', dal.rateLimiter, { clock }), ok);
  router.post('/api/v1/leads/bulk-ingest', auth, ingestionRateLimit('bulk', dal.rateLimiter, { clock }), ok);
  router.post('/sandbox/api/v1/leads/bulk-ingest', auth, ingestionRateLimit('bulk', dal.rateLimiter, { clock }), ok);
  router.post('/api/v1/leads/invalid', auth, ingestionRateLimit('single', dal.rateLimiter, { clock }), () => {
    throw new DomainError('VALIDATION_ERROR', 'Validation failed', [{ field: 'email', message: 'email is required' }]);
  });
  // A user-API route limited per client address (e.g. authentication endpoints, 10 per minute).
  router.post(
    '/api/auth/login',
    rateLimit('authentication', dal.rateLimiter, (ctx) => ({ subject: ctx.ip, limit: 2 }), { clock }),
    (ctx) => {
      ctx.body = { ok: true };
    },
  );
  return router;
}

beforeAll(async () => {
  server = await startAuthTestServer(routes);
  const org = await server.dal.organizations.create({ name: 'College' });
  live = { organizationId: org.id, environment: 'live' };
  vendorId = (await server.dal.vendors.create(live, { name: 'Acme', type: 'application' })).id;
});

afterAll(async () => {
  await server?.close();
});

async function newKey(environment: 'live' | 'sandbox', rateLimit: number | null = null): Promise<string> {
  const { key } = await server.dal.apiKeys.create(
    { ...live, environment },
    { vendorId, name: 'k', permissions: ['write'], rateLimit },
  );
  return key;
}

const post = (key: string, path: string): Promise<Response> =>
  fetch(`${server.v4}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });

function limitHeaders(response: Response): [string | null, string | null, string | null] {
  return [
    response.headers.get('x-ratelimit-limit'),
    response.headers.get('x-ratelimit-remaining'),
    response.headers.get('x-ratelimit-reset'),
  ];
}

describe('rate limits on ingestion', () => {
  it('sends the rate-limit headers on every response and the documented 429 body with Retry-After when exceeded', async () => {
    const key = await newKey('live', 2);
    const first = await post(key, '/api/v1/leads/ingest');
    expect(first.status).toBe(201);
    expect(limitHeaders(first)).toEqual(['2', '1', String(WINDOW_END)]);
    expect(first.headers.get('retry-after')).toBeNull();
    expect(limitHeaders(await post(key, '/api/v1/leads/ingest'))).toEqual(['2', '0', String(WINDOW_END)]);

    const limited = await post(key, '/api/v1/leads/ingest');
    expect(limited.status).toBe(429);
    expect(limitHeaders(limited)).toEqual(['2', '0', String(WINDOW_END)]);
    expect(limited.headers.get('retry-after')).toBe('20');
    expect(await limited.json()).toEqual({
      success: false,
      error: 'Rate limit exceeded',
      code: 'RATE_LIMIT_EXCEEDED',
      retry_after: 20,
      limit: 2,
      window: 60,
    });
  });

  it('starts afresh in the next window', async () => {
    const key = await newKey('live', 1);
    expect((await post(key, '/api/v1/leads/ingest')).status).toBe(201);
    expect((await post(key, '/api/v1/leads/ingest')).status).toBe(429);
    const saved = now;
    now = new Date(WINDOW_END * 1000 + 5_000);
    try {
      const next = await post(key, '/api/v1/leads/ingest');
      expect(next.status).toBe(201);
      expect(limitHeaders(next)).toEqual(['1', '0', String(WINDOW_END + 60)]);
    } finally {
      now = saved;
    }
  });

  it('uses the default of the row (live bulk 50, sandbox bulk 10) when the key has no override', async () => {
    const liveKey = await newKey('live');
    expect(limitHeaders(await post(liveKey, '/api/v1/leads/bulk-ingest'))[0]).toBe('50');
    expect(limitHeaders(await post(liveKey, '/api/v1/leads/ingest'))[0]).toBe('500');
    const sandboxKey = await newKey('sandbox');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(sandboxKey, '/sandbox/api/v1/leads/bulk-ingest')).status);
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('counts each key separately and keeps the headers on error responses of the route', async () => {
    const a = await newKey('live', 1);
    const b = await newKey('live', 1);
    expect((await post(a, '/api/v1/leads/invalid')).status).toBe(400);
    const other = await post(b, '/api/v1/leads/invalid');
    expect(other.status).toBe(400);
    expect(limitHeaders(other)).toEqual(['1', '0', String(WINDOW_END)]);
    expect(await other.json()).toEqual({
      success: false,
      error: 'Validation failed',
      code: 'VALIDATION_ERROR',
      details: [{ field: 'email', message: 'email is required' }],
    });
  });

  it('answers 429 in the user convention on user-API routes', async () => {
    const login = () => fetch(`${server.v4}/api/auth/login`, { method: 'POST' });
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(200);
    const limited = await login();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('20');
    expect(await limited.json()).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: 20 },
    });
  });
});
