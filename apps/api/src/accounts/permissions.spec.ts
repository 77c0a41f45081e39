import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Router from '@koa/router';
import {
  hasPermission,
  PERMISSIONS,
  permissionMatrixMarkdown,
  ROLES,
  type Permission,
  type Role,
} from '@leadstream/domain';
import { conventionFor } from '@leadstream/http';
import type Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes, type RegisteredRoute } from '../auth/route-definition';
import { dataOf, forbidden, startAccountsServer, UserApi, type AccountsTestServer } from './accounts.test-support';

let server: AccountsTestServer;

beforeAll(async () => {
  server = await startAccountsServer();
});

afterAll(async () => {
  await server?.close();
});

/**
 * Vendor-API routes (API key, like ingestion) whose paths fall in the user API's path space. Adding
 * one here is a deliberate decision; anything else under /api must declare a permission.
 */
const API_KEY_ROUTES = ['GET /api/leads/:lead_id/status'];

/** User-API routes: everything under /api except the ingestion and funnel conventions (docs/api-conventions.md). */
function userApiRoutes(app: Koa): RegisteredRoute[] {
  return listRoutes(app).filter(
    (route) =>
      route.path.startsWith('/api/') &&
      conventionFor(route.path) === 'user' &&
      !API_KEY_ROUTES.includes(`${route.methods.join(',')} ${route.path}`),
  );
}

function undeclared(app: Koa): string[] {
  return userApiRoutes(app)
    .filter((route) => route.access === undefined)
    .map((route) => `${route.methods.join(',')} ${route.path}`);
}

describe('every user-API route declares its permission', () => {
  it('finds the accounts routes and no route without a declaration', () => {
    const routes = userApiRoutes(server.app);
    const names = routes.map((route) => `${route.methods.join(',')} ${route.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'GET /api/users/:id',
        'POST /api/vendors/:id/disable',
        'POST /api/api-keys/:id/rotate',
        'DELETE /api/organization',
      ]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(undeclared(server.app)).toEqual([]);
    for (const route of routes) {
      expect([...PERMISSIONS, 'public', 'authenticated'], `${route.path}`).toContain(route.access);
    }
  });

  it('fails for a route registered with a plain router.get (the check can fail)', () => {
    const app = server.app;
    const plain = new Router();
    plain.get('/api/leads/export-everything', (ctx) => {
      ctx.body = [];
    });
    const mountedBefore = app.middleware.length;
    app.use(plain.routes());
    try {
      expect(undeclared(app)).toEqual(['GET /api/leads/export-everything']);
    } finally {
      app.middleware.splice(mountedBefore);
    }
  });

  it('only auth endpoints (and the OAuth token endpoint, where the client authenticates, and the API document) are public or merely authenticated', () => {
    const open = userApiRoutes(server.app).filter(
      (route) => route.access === 'public' || route.access === 'authenticated',
    );
    expect(
      open.filter(
        (route) =>
          !route.path.startsWith('/api/auth/') &&
          route.path !== '/api/oauth/token' &&
          route.path !== '/api/openapi.json',
      ),
    ).toEqual([]);
  });
});

describe('the permission matrix', () => {
  it('docs/permissions.md shows the same table as the code', () => {
    const doc = readFileSync(join(__dirname, '../../../../docs/permissions.md'), 'utf8');
    const table = /<!-- matrix:start -->\n([\s\S]*?)\n<!-- matrix:end -->/.exec(doc)?.[1];
    expect(table).toBe(permissionMatrixMarkdown());
  });

  it('follows the documented roles: owner everything, admin all but deleting the organization, viewer read-only, vendor nothing', () => {
    expect(PERMISSIONS.every((permission) => hasPermission('owner', permission))).toBe(true);
    expect(PERMISSIONS.filter((permission) => !hasPermission('admin', permission))).toEqual(['organization:delete']);
    expect(
      PERMISSIONS.filter((permission) => hasPermission('viewer', permission)).every((permission) =>
        permission.endsWith(':read'),
      ),
    ).toBe(true);
    expect(PERMISSIONS.filter((permission) => hasPermission('vendor', permission))).toEqual([]);
    expect(hasPermission('manager', 'leads:write') && hasPermission('manager', 'rules:write')).toBe(true);
  });
});

describe('routes enforce the matrix for every role', () => {
  const clients = new Map<Role, UserApi>();

  beforeAll(async () => {
    const owner = await UserApi.owner(server.url, 'owner@matrix.edu', 'Matrix College');
    clients.set('owner', owner);
    for (const role of ROLES.filter((role) => role !== 'owner'))
      clients.set(role, await owner.member(`${role}@matrix.edu`, role));
  });

  it('answers 403 INSUFFICIENT_PERMISSIONS on every route whose permission the role lacks', async () => {
    const routes = userApiRoutes(server.app).filter((route) =>
      (PERMISSIONS as readonly unknown[]).includes(route.access),
    );
    let checked = 0;
    for (const role of ROLES) {
      for (const route of routes) {
        if (hasPermission(role, route.access as Permission)) continue;
        const path = route.path.replace(/:id\b/g, '00000000-0000-4000-8000-000000000000');
        const response = await clients
          .get(role)!
          .call(route.methods[0]!, path, route.methods[0] === 'GET' || route.methods[0] === 'DELETE' ? undefined : {});
        expect({
          role,
          route: `${route.methods[0]} ${route.path}`,
          status: response.status,
          code: (response.body['error'] as { code?: string })?.code,
        }).toEqual({
          role,
          route: `${route.methods[0]} ${route.path}`,
          status: 403,
          code: 'INSUFFICIENT_PERMISSIONS',
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('lets a viewer read the organization but not change it or create vendors', async () => {
    const viewer = clients.get('viewer')!;
    expect(dataOf(await viewer.call('GET', '/api/organization'))).toMatchObject({ name: 'Matrix College' });
    expect(await viewer.call('PATCH', '/api/organization', { name: 'Taken Over' })).toMatchObject(
      forbidden('viewer', 'organization:write'),
    );
    const vendor = await viewer.call('POST', '/api/vendors', { name: 'Acme', type: 'inquiry' });
    expect(vendor).toMatchObject({
      status: 403,
      body: {
        error: { code: 'INSUFFICIENT_PERMISSIONS', message: "Your role (viewer) lacks the 'vendors:write' permission" },
      },
    });
    // Nothing changed: the name stays, and no vendor was made.
    const owner = clients.get('owner')!;
    expect(dataOf(await owner.call('GET', '/api/organization'))).toMatchObject({ name: 'Matrix College' });
    expect((await owner.call('GET', '/api/vendors')).body['data']).toEqual([]);
  });

  it('lets a vendor-role user refresh and log out, and nothing else', async () => {
    const vendor = clients.get('vendor')!;
    expect(await vendor.call('GET', '/api/vendors')).toMatchObject(forbidden('vendor', 'vendors:read'));
    expect(await vendor.call('GET', '/api/organization')).toMatchObject(forbidden('vendor', 'organization:read'));
    const refreshed = await vendor.call('POST', '/api/auth/refresh');
    expect(refreshed).toMatchObject({
      status: 200,
      body: { token: expect.any(String), expires_at: expect.any(String) },
    });
    const token = String(refreshed.body['token']);
    expect(token).not.toBe(vendor.token);
    const loggedOut = await vendor.call('POST', '/api/auth/logout', undefined, token);
    expect(loggedOut).toMatchObject({ status: 204, body: {} });
    // The logout ended the session it was called with.
    expect(await vendor.call('POST', '/api/auth/refresh', undefined, token)).toMatchObject({
      status: 401,
      body: { error: { code: 'TOKEN_INVALID' } },
    });
  });

  it('takes a demotion into account at the next request, whatever the token says', async () => {
    const owner = clients.get('owner') as UserApi;
    const manager = await owner.member('demoted@matrix.edu', 'manager');
    expect(await manager.call('GET', '/api/vendors')).toMatchObject({ status: 200, body: { data: [] } });
    expect(dataOf(await owner.call('PATCH', `/api/users/${manager.userId}`, { role: 'viewer' }))).toMatchObject({
      id: manager.userId,
      role: 'viewer',
    });
    expect(await manager.call('GET', '/api/vendors')).toMatchObject(forbidden('viewer', 'vendors:read'));
  });
});

describe('general API rate limit (100 per minute per user)', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED once a user exceeds the limit, per user', async () => {
    const limited = await startAccountsServer({
      rateLimits: { authentication: 100, generalApi: 3 },
      clock: () => new Date('2025-05-05T12:00:40.000Z'),
    });
    try {
      const owner = await UserApi.owner(limited.url, 'busy@limit.edu', 'Limit College');
      const other = await UserApi.owner(limited.url, 'calm@limit.edu', 'Other College');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await owner.call('GET', '/api/organization')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limitedResponse = await owner.call('GET', '/api/vendors');
      expect(limitedResponse.body).toEqual({
        error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: 20 },
      });
      expect(limitedResponse.headers.get('x-ratelimit-limit')).toBe('3');
      expect(limitedResponse.headers.get('retry-after')).toBe('20');
      expect((await other.call('GET', '/api/organization')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
