/**
 * The deduplication endpoints of the user API over real HTTP on the embedded
 * store: read and update the configuration with its validation, check a lead against stored ones.
 */
import { blockingKeyFields, normalizeEmail, startLead, type LeadRecord } from '@leadstream/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forbidden, startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';

let server: AccountsTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;

beforeAll(async () => {
  server = await startAccountsServer();
  owner = await UserApi.owner(server.url, 'dedup.owner@example.edu', 'Dedup College');
});

afterAll(async () => {
  await server.close();
});

function storedLead(
  id: string,
  fields: { email: string; first_name: string; last_name: string; phone: string | null },
): LeadRecord {
  const at = new Date().toISOString();
  const keys = blockingKeyFields(fields);
  return {
    _id: id,
    organization_id: owner.organizationId,
    environment: 'live',
    vendor_id: 'vendor-1',
    status: 'active',
    ...fields,
    source: null,
    program: null,
    program_interest: null,
    ip_address: null,
    user_agent: null,
    landing_page: null,
    referrer: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    custom_fields: {},
    enrichment_data: {},
    validation_status: 'passed',
    enrichment_status: 'completed',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: 'pending',
    crm_id: null,
    crm_synced_at: null,
    flags: [],
    warnings: [],
    rejection_reason: null,
    rule_id: null,
    dedup_key: normalizeEmail(fields.email),
    bk_email: keys.email,
    bk_phone: keys.phone,
    bk_name: keys.name,
    dedup_status: 'unique',
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor: startLead(id),
    version: 1,
    applied_messages: [],
    outbox: [],
  };
}

describe('GET and POST /api/dedup', () => {
  it('answers the default configuration, then the updated one', async () => {
    const initial = await owner.call('GET', '/api/dedup');
    expect(initial.status).toBe(200);
    expect(initial.body['data']).toMatchObject({ enabled: true, threshold: 85, window_hours: 24, action: 'reject' });

    const updated = await owner.call('POST', '/api/dedup', { threshold: 90, window_hours: 168, action: 'flag' });
    expect(updated.status).toBe(200);
    expect(updated.body['data']).toMatchObject({ threshold: 90, window_hours: 168, action: 'flag' });
    expect((await owner.call('GET', '/api/dedup')).body['data']).toMatchObject({
      threshold: 90,
      window_hours: 168,
      action: 'flag',
    });
    await owner.call('POST', '/api/dedup', { threshold: 85, window_hours: 24, action: 'reject' });
  });

  it('refuses a vendor override keyed by an id no store can keep as a key (a dot, a leading $) with 400, not a 500', async () => {
    for (const key of ['a.b', '$vendor']) {
      const answer = await owner.call('POST', '/api/dedup', { vendor_overrides: { [key]: { threshold: 90 } } });
      expect(answer.status, key).toBe(400);
      expect((answer.body['error'] as { details: Array<{ field: string; message: string }> }).details).toEqual([
        {
          field: 'vendor_overrides',
          message: `vendor id ${JSON.stringify(key)} may not contain '.' or start with '$'`,
        },
      ]);
    }
  });

  it('refuses weights that do not sum to 1, and other bad values, with details', async () => {
    const weights = await owner.call('POST', '/api/dedup', {
      combination: 'weighted',
      match_fields: [
        { field: 'email', algorithm: 'email_normalized', weight: 0.5 },
        { field: 'name', algorithm: 'jaro_winkler', weight: 0.3 },
      ],
    });
    expect(weights.status).toBe(400);
    expect(weights.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const details = (weights.body['error'] as { details: Array<{ field: string }> }).details;
    expect(details.map((detail) => detail.field)).toContain('match_fields');

    const window = await owner.call('POST', '/api/dedup', { window_hours: 5, threshold: 120 });
    expect(window.status).toBe(400);
    expect(
      (window.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field).sort(),
    ).toEqual(['threshold', 'window_hours']);
  });

  it('keeps the configuration from viewers (dedup:read and dedup:write are for managers and up, docs/permissions.md)', async () => {
    const viewer = await owner.member('dedup.viewer@example.edu', 'viewer');
    const configuration = (await owner.call('GET', '/api/dedup')).body['data'];
    expect(await viewer.call('GET', '/api/dedup')).toMatchObject(forbidden('viewer', 'dedup:read'));
    expect(await viewer.call('POST', '/api/dedup', { threshold: 50 })).toMatchObject(
      forbidden('viewer', 'dedup:write'),
    );
    expect((await owner.call('GET', '/api/dedup')).body['data']).toEqual(configuration);
    const manager = await owner.member('dedup.manager@example.edu', 'manager');
    expect(await manager.call('GET', '/api/dedup')).toMatchObject({ status: 200, body: { data: configuration } });
  });
});

describe('POST /api/dedup/check-duplicate', () => {
  it('finds a stored lead by normalized email and answers the documented body; a new person is not a duplicate', async () => {
    await server.store.collection<LeadRecord>('leads').insertOne(
      storedLead('lead_original', {
        email: 'jane.doe@gmail.com',
        first_name: 'Jane',
        last_name: 'Doe',
        phone: '+14155552671',
      }),
    );
    const duplicate = await owner.call('POST', '/api/dedup/check-duplicate', {
      email: 'Jane.Doe+apply@gmail.com',
      first_name: 'Jane',
      last_name: 'Doe',
    });
    expect(duplicate.status).toBe(200);
    expect(duplicate.body).toEqual({
      is_duplicate: true,
      matched_lead_id: 'lead_original',
      similarity_score: 100,
      match_details: { email: 100, name: 100 },
    });

    const unique = await owner.call('POST', '/api/dedup/check-duplicate', { email: 'someone.else@example.edu' });
    expect(unique.body).toEqual({ is_duplicate: false });

    const invalid = await owner.call('POST', '/api/dedup/check-duplicate', { mail: 'x' });
    expect(invalid.status).toBe(400);
  });

  it("never matches another organization's leads", async () => {
    const other = await UserApi.owner(server.url, 'other.owner@example.edu', 'Other College');
    const answer = await other.call('POST', '/api/dedup/check-duplicate', { email: 'jane.doe@gmail.com' });
    expect(answer.body).toEqual({ is_duplicate: false });
  });
});
