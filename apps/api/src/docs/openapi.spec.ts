import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REDIRECT_URI_PATTERN } from '@leadstream/domain';
import { buildOpenApiDocument, findOperation, operations, responseProblems } from '@leadstream/schemas';
import { CapturingMailer } from '../accounts/accounts.test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes } from '../auth/route-definition';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

let server: ApiTestServer;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-openapi-'));
  server = await startApiTestServer({ dir, mailer: new CapturingMailer() });
});

afterAll(async () => {
  await server.close();
});

/** Routes for people (HTML pages) and for operators (health, metrics): not operations of the API. */
const NOT_OPERATIONS = /^\/(?:oauth\/authorize|docs|healthz|readyz|metrics)(?:\/|$)/;

describe('the OpenAPI document', () => {
  it('has an operation, with its answers, for every mounted route, and no operation that is not mounted', () => {
    const mounted = listRoutes(server.app)
      .filter((route) => !NOT_OPERATIONS.test(route.path))
      .flatMap((route) => route.methods.map((method) => `${method} ${route.path.replace(/^\/sandbox(?=\/)/, '')}`));
    const missing = [...new Set(mounted)].filter((name) => {
      const [method, path] = name.split(' ') as [string, string];
      return findOperation(method, path) === undefined;
    });
    expect(missing).toEqual([]);
    for (const operation of operations)
      expect(Object.keys(operation.responses).length, operation.operationId).toBeGreaterThan(0);
    // The export routes are mounted only with an export store; the test server here has none.
    const exportPaths = [
      '/api/leads/export',
      '/api/exports/:export_id',
      '/api/exports/:export_id/download',
      '/exports/:export_id/download',
    ];
    const unmounted = operations
      .filter((operation) => !exportPaths.includes(operation.path))
      .filter((operation) => !mounted.includes(`${operation.method.toUpperCase()} ${operation.path}`));
    expect(unmounted.map((operation) => operation.operationId)).toEqual([]);
  });

  it('takes a request body schema on every operation that reads a body', () => {
    const bodyMethods = operations.filter((operation) => ['post', 'put', 'patch'].includes(operation.method));
    const withoutBody = bodyMethods
      .filter((operation) => !operation.requestBody)
      .map((operation) => operation.operationId);
    // Actions on the resource named in the path take no body.
    expect(withoutBody.sort()).toEqual(
      [
        'syncLeadToCrm',
        'testCrmConnection',
        'testWebhook',
        'resendWebhookDelivery',
        'disableVendor',
        'enableVendor',
        'logout',
        'recalculateAllFields',
        'recalculateField',
        'refreshSession',
        'rotateApiKey',
        'cancelReprocessing',
      ].sort(),
    );
  });

  it('is served at /api/openapi.json exactly as committed in schemas/openapi.json', async () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../../schemas/openapi.json'), 'utf8')) as unknown;
    expect(committed, 'schemas/openapi.json is stale: run `npm run openapi` and commit it').toEqual(
      buildOpenApiDocument(),
    );
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(committed);
  });

  // Found by Schemathesis: `?format=` was answered 200 (the default) while the document allowed only 'csv'.
  it('lets every query enum be empty, as every route reads an empty query value as the default', () => {
    const refusingEmpty = operations.flatMap((operation) =>
      (operation.query ?? [])
        .filter(
          (parameter) =>
            Array.isArray(parameter.schema['enum']) && !(parameter.schema['enum'] as unknown[]).includes(''),
        )
        .map((parameter) => `${operation.operationId}?${parameter.name}`),
    );
    expect(refusingEmpty).toEqual([]);
  });

  it('declares OpenAPI 3.1 with both security schemes and unique operation ids', () => {
    const document = buildOpenApiDocument() as {
      openapi: string;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['apiKey', 'sessionToken']);
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('finds answers that contradict it: an undocumented status, a missing key, a wrong type', () => {
    const getVendor = findOperation('GET', '/api/vendors/:id');
    expect(getVendor?.operationId).toBe('getVendor');
    if (!getVendor) return;
    const vendor = {
      id: 'v1',
      name: 'Acme',
      type: 'inquiry',
      enabled: true,
      group: null,
      contact_email: null,
      cost_per_lead: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(responseProblems(getVendor, 200, { data: vendor })).toEqual([]);
    expect(responseProblems(getVendor, 200, vendor).join()).toMatch(/must have required property 'data'/);
    expect(responseProblems(getVendor, 200, { data: { ...vendor, enabled: 'yes' } }).join()).toMatch(
      /\/data\/enabled must be boolean/,
    );
    expect(responseProblems(getVendor, 418, {}).join()).toMatch(/status 418 is not documented/);
    expect(responseProblems(getVendor, 404, { error: { code: 'NOT_FOUND', message: 'Vendor not found' } })).toEqual([]);
    expect(responseProblems(getVendor, 404, { success: false, error: 'Vendor not found' }).join()).toMatch(
      /\/error must be object/,
    );
  });
});

describe('the OpenAPI document and the domain agree', () => {
  it('on the shape of an OAuth redirect URI (the API refuses what the document refuses)', () => {
    const body = operations.find((operation) => operation.operationId === 'createOAuthClient')?.requestBody as
      { properties: { redirect_uris: { items: { pattern: string } } } } | undefined;
    expect(body?.properties.redirect_uris.items.pattern).toBe(REDIRECT_URI_PATTERN);
  });
});

describe('the docs page', () => {
  it('serves Swagger UI from this process, with no address outside it', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const init = await (await fetch(`${server.url}/docs/init.js`)).text();
    expect(init).toContain("url: '/api/openapi.json'");
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css']) {
      const response = await fetch(`${server.url}/docs/assets/${asset}`);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
    }
    expect((await fetch(`${server.url}/docs/assets/package.json`)).status).toBe(404);
  });
});
