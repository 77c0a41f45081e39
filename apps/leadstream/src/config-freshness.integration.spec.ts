/**
 * Configuration that is never stale (docs/decisions.md "Configuration freshness"), black box: the
 * real `leadstream start` process on each engine set, driven over HTTP. Each test first uses the
 * configuration (so every cache that would keep it has it), changes it through the user API, and
 * expects the very next request to see the change: no waiting, no retries.
 *
 * Keys and vendors are decided by the api (ConfigCache in the api process). Custom fields and
 * dedup settings are decided by the pipeline stages, which see a change on the next lead only once
 * they read their configuration with `configCache.get(org, kind, load, message.config_version)`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient, type JsonResponse } from './test-support/json-client';

const setups = engineSetups('freshness');

describe.each(setups)('configuration freshness on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let base: string;
  let owner: string;
  const call = jsonClient(() => base);

  /** A user-API call as the organization's owner; fails the test on an unexpected status. */
  async function admin(
    method: string,
    path: string,
    body: unknown,
    expected: number,
  ): Promise<Record<string, unknown>> {
    const response = await call(method, path, body, owner);
    if (response.status !== expected)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  async function newVendor(): Promise<string> {
    return String(
      (
        (await admin('POST', '/api/vendors', { name: `Vendor ${randomUUID().slice(0, 6)}`, type: 'inquiry' }, 201))[
          'data'
        ] as { id: string }
      ).id,
    );
  }

  async function newKey(vendorId: string): Promise<{ id: string; key: string }> {
    const body = (
      await admin(
        'POST',
        '/api/api-keys',
        { name: `key ${randomUUID().slice(0, 6)}`, vendor_id: vendorId, permissions: ['read', 'write'] },
        201,
      )
    )['data'] as { id: string; key: string };
    return { id: body.id, key: body.key };
  }

  /** One lead through vendor ingestion; a fresh email unless one is given. */
  function ingest(key: string, lead: Record<string, unknown> = {}): Promise<JsonResponse> {
    return call(
      'POST',
      '/api/v1/leads/ingest',
      {
        email: `lead.${randomUUID().slice(0, 8)}@example.edu`,
        first_name: 'Ada',
        last_name: 'Lovelace',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
        ...lead,
      },
      key,
    );
  }

  const errorCode = (response: JsonResponse): unknown =>
    response.body['code'] ?? (response.body['error'] as { code?: unknown } | undefined)?.code;

  beforeAll(async () => {
    const store = await setup.openStore();
    await ensureAllIndexes(store);
    await store.close();
    server = CliProcess.start(
      ['start'],
      serviceEnv({ TOPIC_PARTITIONS: '3', DECISION_TIMEOUT_MS: '10000', ...setup.env }),
    );
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
    base = String(listening['url']);
    const registered = await call('POST', '/api/auth/register', {
      email: `owner.${randomUUID().slice(0, 6)}@college.edu`,
      password: 'Passw0rd!',
      first_name: 'Olive',
      last_name: 'Owner',
      organization_name: 'Fresh College',
    });
    expect(registered.status).toBe(201);
    owner = String(registered.body['token']);
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  it('refuses a revoked key (401 API_KEY_REVOKED) on the next request', async () => {
    const key = await newKey(await newVendor());
    expect((await ingest(key.key)).status).toBe(201);
    expect((await ingest(key.key)).status).toBe(201);
    await admin('DELETE', `/api/api-keys/${key.id}`, undefined, 204);
    const next = await ingest(key.key);
    expect(next.status).toBe(401);
    expect(errorCode(next)).toBe('API_KEY_REVOKED');
  });

  it('refuses a disabled key (401) on the next request, and takes it back once enabled', async () => {
    const key = await newKey(await newVendor());
    expect((await ingest(key.key)).status).toBe(201);
    await admin('PATCH', `/api/api-keys/${key.id}`, { enabled: false }, 200);
    const next = await ingest(key.key);
    expect(next.status).toBe(401);
    expect(errorCode(next)).toBe('API_KEY_INVALID');
    await admin('PATCH', `/api/api-keys/${key.id}`, { enabled: true }, 200);
    expect((await ingest(key.key)).status).toBe(201);
  });

  it("refuses a disabled vendor's key on the next request, and takes it back once enabled", async () => {
    const vendorId = await newVendor();
    const key = await newKey(vendorId);
    expect((await ingest(key.key)).status).toBe(201);
    await admin('POST', `/api/vendors/${vendorId}/disable`, undefined, 200);
    const next = await ingest(key.key);
    expect(next.status).toBe(403);
    expect(JSON.stringify(next.body)).toContain('Vendor is disabled');
    await admin('POST', `/api/vendors/${vendorId}/enable`, undefined, 200);
    expect((await ingest(key.key)).status).toBe(201);
  });

  it('accepts a custom field on the next lead after it is created', async () => {
    const key = await newKey(await newVendor());
    const field = `campus_${randomUUID().slice(0, 6)}`;
    const before = await ingest(key.key, { custom_fields: { [field]: 'north' } });
    expect(before.status).toBe(400);
    expect(JSON.stringify(before.body)).toContain(`custom_fields.${field}`);
    await admin('POST', '/api/enrichment/custom-fields', { name: field, label: 'Campus', type: 'string' }, 201);
    const next = await ingest(key.key, { custom_fields: { [field]: 'north' } });
    expect(next.body).toMatchObject({ success: true });
    expect(next.status).toBe(201);
  });

  it('decides the next lead with a dedup setting saved now', async () => {
    const key = await newKey(await newVendor());
    const email = `twice.${randomUUID().slice(0, 8)}@example.edu`;
    expect((await ingest(key.key, { email })).status).toBe(201);
    // The default configuration rejects the same email: the dedup stage has read it now.
    expect((await ingest(key.key, { email })).status).toBe(409);
    await admin('POST', '/api/dedup', { enabled: false }, 200);
    try {
      const next = await ingest(key.key, { email });
      expect(next.body).toMatchObject({ success: true });
      expect(next.status).toBe(201);
    } finally {
      await admin('POST', '/api/dedup', { enabled: true }, 200);
    }
  });
});
