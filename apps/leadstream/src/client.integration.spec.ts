/**
 * The typed client (libs/client) against a running `leadstream start` on the embedded engines,
 * as an integrator uses it: register, create a vendor and a key, submit a lead with the key, find
 * it in the list, and read errors of both conventions and the rate-limit headers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiErrorOf, createLeadstreamClient, rateLimitOf } from '@leadstream/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-client-'));
let server: CliProcess | undefined;
let url = '';

beforeAll(async () => {
  ({ server, url } = await CliProcess.startService(serviceEnv({ DATA_DIR: dataDir })));
}, 180_000);

afterAll(async () => {
  if (server) {
    server.kill('SIGTERM');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the typed client against leadstream start', () => {
  it('registers, makes a vendor and a key, submits a lead with the key and finds it in the list', async () => {
    const anonymous = createLeadstreamClient({ baseUrl: url });
    const registered = await anonymous.POST('/api/auth/register', {
      body: {
        email: 'client.owner@example.edu',
        password: 'Client-Passw0rd',
        first_name: 'Cleo',
        last_name: 'Client',
        organization_name: 'Client College',
      },
    });
    expect(registered.response.status).toBe(201);
    const token = registered.data?.token;
    expect(typeof token).toBe('string');
    const user = createLeadstreamClient({ baseUrl: url, token: String(token) });

    const vendor = await user.POST('/api/vendors', { body: { name: 'Client Leads', type: 'inquiry' } });
    expect(vendor.response.status).toBe(201);
    const vendorId = String(vendor.data?.data.id);
    const key = await user.POST('/api/api-keys', { body: { name: 'client key', vendor_id: vendorId } });
    expect(key.data?.data.permissions).toEqual(['read', 'write']);

    const vendorApi = createLeadstreamClient({ baseUrl: url, apiKey: String(key.data?.data.key) });
    const submitted = await vendorApi.POST('/api/v1/leads/ingest', {
      body: { email: 'ada.lovelace@example.edu', first_name: 'Ada', last_name: 'Lovelace' },
    });
    expect(submitted.response.status).toBe(201);
    expect(submitted.data).toMatchObject({ success: true, lead_id: expect.stringMatching(/^lead_/) as unknown });
    // Ingestion is rate limited (500 a minute per live key): the client surfaces the headers.
    expect(rateLimitOf(submitted.response)).toMatchObject({ limit: 500, remaining: 499 });
    expect(vendorApi.lastRateLimit?.limit).toBe(500);

    const listed = await user.GET('/api/leads', { params: { query: { search: 'ada.lovelace' } } });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.data.map((lead) => lead.email)).toEqual(['ada.lovelace@example.edu']);
    expect(listed.data?.meta).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    expect(rateLimitOf(listed.response)?.limit).toBe(100);

    const lead = await user.GET('/api/leads/{id}', {
      params: { path: { id: String(submitted.data && 'lead_id' in submitted.data ? submitted.data.lead_id : '') } },
    });
    expect(lead.data?.data).toMatchObject({
      email: 'ada.lovelace@example.edu',
      vendor_id: vendorId,
      vendor_name: 'Client Leads',
    });
  });

  it('reads errors of both conventions the same way', async () => {
    const anonymous = createLeadstreamClient({ baseUrl: url });
    const login = await anonymous.POST('/api/auth/login', {
      body: { email: 'client.owner@example.edu', password: 'wrong-Passw0rd' },
    });
    expect(apiErrorOf(login.response.status, login.error)).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });

    const unknownKey = createLeadstreamClient({ baseUrl: url, apiKey: 'vk_live_not_a_key' });
    const refused = await unknownKey.POST('/api/v1/leads/ingest', { body: { email: 'x@example.edu' } });
    expect(apiErrorOf(refused.response.status, refused.error)).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });

    const session = (
      await anonymous.POST('/api/auth/login', {
        body: { email: 'client.owner@example.edu', password: 'Client-Passw0rd' },
      })
    ).data?.token;
    const user = createLeadstreamClient({ baseUrl: url, token: String(session) });
    const invalid = await user.POST('/api/vendors', { body: { name: ' ', type: 'inquiry' } });
    expect(apiErrorOf(invalid.response.status, invalid.error)).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Validation failed',
      details: [{ field: 'name', message: 'name is required' }],
    });
  });
});
