/**
 * The leads endpoints of the user API (operations tagged Leads) over real HTTP on the embedded
 * store: list (filters, sort, pages, search, omitted and internal fields), get, patch, delete,
 * activity, bulk operations, tenancy and rate limits. Leads are stored directly (this server runs
 * no pipeline stage); creation through the pipeline is covered by
 * apps/leadstream/src/leads.integration.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { LeadActivityRepository, LeadQueryRepository, LeadRepository } from '@leadstream/dal';
import {
  blockingKeyFields,
  leadSearchFields,
  normalizeEmail,
  parseLeadListQuery,
  startLead,
  type LeadRecord,
  type LeadStatus,
} from '@leadstream/domain';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';

let server: AccountsTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;
let other: Awaited<ReturnType<typeof UserApi.owner>>;
let viewer: UserApi;
let vendorId: string;

const INTERNAL = [
  '_id',
  'actor',
  'outbox',
  'version',
  'applied_messages',
  'bk_email',
  'bk_phone',
  'bk_name',
  'dedup_key',
  'dedup_status',
  'email_lower',
  'phone_digits',
  'search_text',
  'search_phone',
  'organization_id',
  'environment',
  'flags',
  'expires_at',
];
const LIST_OMITTED = [
  'landing_page',
  'referrer',
  'utm_term',
  'utm_content',
  'vendor_name',
  'validation_status',
  'duplicate_of',
  'crm_sync_status',
  'crm_id',
  'crm_synced_at',
  'deleted_at',
];

interface LeadFields {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  status?: LeadStatus;
  source?: string | null;
  program?: string | null;
  created_at?: string;
  deleted_at?: string | null;
  organization_id?: string;
  vendor_id?: string;
}

function storedLead(fields: LeadFields): LeadRecord {
  const id = `lead_${randomUUID().replace(/-/g, '')}`;
  const at = fields.created_at ?? new Date().toISOString();
  const person = {
    email: fields.email,
    first_name: fields.first_name ?? null,
    last_name: fields.last_name ?? null,
    phone: fields.phone ?? null,
  };
  const keys = blockingKeyFields(person);
  return {
    _id: id,
    organization_id: fields.organization_id ?? owner.organizationId,
    environment: 'live',
    vendor_id: fields.vendor_id ?? vendorId,
    status: fields.status ?? 'active',
    ...person,
    source: fields.source ?? null,
    program: fields.program ?? null,
    program_interest: null,
    ip_address: '203.0.113.9',
    user_agent: 'test',
    landing_page: 'https://u.edu/apply',
    referrer: 'https://search.example',
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'fall',
    utm_term: 'mba',
    utm_content: 'ad1',
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
    ...leadSearchFields(person),
    dedup_status: 'unique',
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: fields.deleted_at ?? null,
    expires_at: null,
    actor: startLead(id),
    version: 1,
    applied_messages: [],
    outbox: [],
  };
}

async function insert(...leads: LeadRecord[]): Promise<LeadRecord[]> {
  await server.store.collection<LeadRecord>('leads').insertMany(leads);
  return leads;
}

async function readEvents(): Promise<Array<{ event: string; data: Record<string, unknown>; organization_id: string }>> {
  const records = await readTopic(server.log, 'leads.events');
  return records.map(
    (record) => JSON.parse(record.value) as { event: string; data: Record<string, unknown>; organization_id: string },
  );
}

const dataOf = (body: Record<string, unknown>): Array<Record<string, unknown>> =>
  body['data'] as Array<Record<string, unknown>>;
const ago = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

let seeded: LeadRecord[];

beforeAll(async () => {
  server = await startAccountsServer();
  await LeadRepository.ensureIndexes(server.store);
  owner = await UserApi.owner(server.url, 'leads.owner@example.edu', 'Leads College');
  other = await UserApi.owner(server.url, 'leads.other@example.edu', 'Other College');
  viewer = await owner.member('leads.viewer@example.edu', 'viewer');
  const vendor = await owner.call('POST', '/api/vendors', { name: 'Inquiry Co', type: 'inquiry' });
  expect(vendor.status).toBe(201);
  vendorId = String((vendor.body['data'] as { id: string }).id);
  seeded = await insert(
    storedLead({
      email: 'ada.lovelace@example.edu',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+14155552671',
      status: 'active',
      source: 'web',
      program: 'MBA',
      created_at: ago(50),
    }),
    storedLead({
      email: 'alan.turing@example.edu',
      first_name: 'Alan',
      last_name: 'Turing',
      phone: '+14155550000',
      status: 'contacted',
      source: 'fair',
      program: 'MSc',
      created_at: ago(40),
    }),
    storedLead({
      email: 'grace.hopper@example.edu',
      first_name: 'Grace',
      last_name: 'Hopper',
      status: 'active',
      source: 'web',
      program: 'MSc',
      created_at: ago(30),
    }),
    storedLead({
      email: 'deleted.person@example.edu',
      first_name: 'Del',
      last_name: 'Eted',
      status: 'active',
      source: 'web',
      created_at: ago(20),
      deleted_at: ago(10),
    }),
    storedLead({
      email: 'katherine.johnson@example.edu',
      first_name: 'Katherine',
      last_name: 'Johnson',
      phone: '+442079460958',
      status: 'qualified',
      source: 'web',
      program: 'MBA',
      created_at: ago(10),
      vendor_id: 'vendor-b',
    }),
  );
}, 30_000);

afterAll(async () => {
  await server.close();
});

describe('GET /api/leads', () => {
  it("lists the organization's leads newest first with the documented meta, never deleted or foreign ones", async () => {
    await insert(storedLead({ email: 'foreign@example.edu', organization_id: other.organizationId, vendor_id: 'x' }));
    const { status, body } = await owner.call('GET', '/api/leads');
    expect(status).toBe(200);
    expect(dataOf(body).map((lead) => lead['email'])).toEqual([
      'katherine.johnson@example.edu',
      'grace.hopper@example.edu',
      'alan.turing@example.edu',
      'ada.lovelace@example.edu',
    ]);
    expect(body['meta']).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1 });
  });

  it('omits exactly the fields the list leaves out, and never shows internal fields', async () => {
    const lead = dataOf((await owner.call('GET', '/api/leads?limit=1')).body)[0] ?? {};
    for (const field of [...LIST_OMITTED, ...INTERNAL]) expect(lead).not.toHaveProperty(field);
    expect(Object.keys(lead).sort()).toEqual(
      [
        'id',
        'email',
        'first_name',
        'last_name',
        'phone',
        'status',
        'source',
        'vendor_id',
        'program',
        'program_interest',
        'ip_address',
        'user_agent',
        'utm_source',
        'utm_medium',
        'utm_campaign',
        'custom_fields',
        'enrichment_data',
        'created_at',
        'updated_at',
      ].sort(),
    );
  });

  it('combines filters', async () => {
    const web = dataOf((await owner.call('GET', '/api/leads?source=web&status=active')).body).map(
      (lead) => lead['email'],
    );
    expect(web).toEqual(['grace.hopper@example.edu', 'ada.lovelace@example.edu']);
    const mba = dataOf((await owner.call('GET', '/api/leads?program=MBA&source=web&vendor_id=vendor-b')).body).map(
      (lead) => lead['email'],
    );
    expect(mba).toEqual(['katherine.johnson@example.edu']);
    const window = await owner.call(
      'GET',
      `/api/leads?start_date=${encodeURIComponent(ago(45))}&end_date=${encodeURIComponent(ago(25))}`,
    );
    expect(dataOf(window.body).map((lead) => lead['email'])).toEqual([
      'grace.hopper@example.edu',
      'alan.turing@example.edu',
    ]);
  });

  it('sorts by any listed field in either order, and pages', async () => {
    const byName = dataOf((await owner.call('GET', '/api/leads?sortBy=last_name&sortOrder=asc')).body).map(
      (lead) => lead['last_name'],
    );
    expect(byName).toEqual(['Hopper', 'Johnson', 'Lovelace', 'Turing']);
    const page2 = await owner.call('GET', '/api/leads?sortBy=email&sortOrder=asc&limit=3&page=2');
    expect(dataOf(page2.body).map((lead) => lead['email'])).toEqual(['katherine.johnson@example.edu']);
    expect(page2.body['meta']).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
  });

  it('searches any part of email and name case-insensitively, and phone digits whatever the formatting', async () => {
    const search = async (text: string): Promise<unknown[]> =>
      dataOf((await owner.call('GET', `/api/leads?search=${encodeURIComponent(text)}`)).body).map(
        (lead) => lead['email'],
      );
    expect(await search('(415) 555-2671')).toEqual(['ada.lovelace@example.edu']);
    expect(await search('+1 415.555.2671')).toEqual(['ada.lovelace@example.edu']);
    expect(await search('415-555')).toEqual(['alan.turing@example.edu', 'ada.lovelace@example.edu']);
    expect(await search('555-2671')).toEqual(['ada.lovelace@example.edu']);
    expect(await search('2079 4609')).toEqual(['katherine.johnson@example.edu']); // a UK number, by its middle digits
    expect(await search('GRACE.H')).toEqual(['grace.hopper@example.edu']);
    expect(await search('turing')).toEqual(['alan.turing@example.edu']);
    expect(await search('ada lovelace')).toEqual(['ada.lovelace@example.edu']);
    expect(await search('example.edu')).toEqual([
      'katherine.johnson@example.edu',
      'grace.hopper@example.edu',
      'alan.turing@example.edu',
      'ada.lovelace@example.edu',
    ]);
    expect(await search('OPPER')).toEqual(['grace.hopper@example.edu']);
    expect(await search('del')).toEqual([]); // the deleted lead
    // One or two characters: the start of an email, first or last name, as the API documents.
    expect(await search('Tu')).toEqual(['alan.turing@example.edu']);
    expect(await search('ur')).toEqual([]);
  });

  it('finds an accented name without its accents, and a lead by its new email after a patch and not its old one', async () => {
    const search = async (text: string): Promise<unknown[]> =>
      dataOf((await owner.call('GET', `/api/leads?search=${encodeURIComponent(text)}`)).body).map((lead) => lead['id']);
    const [zoe] = await insert(
      storedLead({ email: 'zoe.lopez@gmail.com', first_name: 'Zoë', last_name: 'López-Ñúñez', created_at: ago(1) }),
    );
    const id = (zoe as LeadRecord)._id;
    expect(await search('gmail')).toEqual([id]);
    expect(await search('zoe lopez')).toEqual([id]);
    expect(await search('NUNEZ')).toEqual([id]);
    expect(await search('Ñúñez')).toEqual([id]);
    const patched = await owner.call('PATCH', `/api/leads/${id}`, { email: 'zoe.lopez@proton.me' });
    expect(patched.status).toBe(200);
    expect(await search('gmail')).toEqual([]);
    expect(await search('proton')).toEqual([id]);
    expect((await owner.call('GET', '/api/leads?search=gmail')).body['meta']).toEqual({
      page: 1,
      limit: 20,
      total: 0,
      totalPages: 0,
    });
    await owner.call('DELETE', `/api/leads/${id}`);
  });

  it('refuses a limit over 100, an unknown sortBy and other bad parameters with 400 details', async () => {
    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['sortBy=password', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      ['status=hot', 'status'],
      ['start_date=yesterday', 'start_date'],
      ['colour=red', 'colour'],
      ['page=0', 'page'],
    ] as const) {
      const { status, body } = await owner.call('GET', `/api/leads?${query}`);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      expect((body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field)).toContain(
        field,
      );
    }
    expect((await owner.call('GET', '/api/leads?limit=100')).status).toBe(200);
  });

  it('drops the lead indexes earlier versions made that no read uses, keeping the leads', async () => {
    const leads = server.store.collection('leads');
    const before = await leads.countDocuments({});
    await leads.createIndex({
      keys: { organization_id: 1, environment: 1, created_at: -1 },
      name: 'tenant_created_at',
    });
    await leads.createIndex({
      keys: { organization_id: 1, environment: 1, phone_digits: 1 },
      name: 'tenant_phone_digits',
    });
    await LeadRepository.ensureIndexes(server.store);
    expect(await leads.dropIndex('tenant_created_at')).toBe(false);
    expect(await leads.dropIndex('tenant_phone_digits')).toBe(false);
    expect(await leads.countDocuments({})).toBe(before);
    const queries = new LeadQueryRepository(server.store);
    const parsed = parseLeadListQuery({});
    if (!parsed.ok) throw new Error('the unfiltered list');
    const tenant = { organizationId: owner.organizationId, environment: 'live' as const };
    expect(await queries.explainList(tenant, parsed.query)).toEqual(['list_created_at']);
  });

  it('answers a filtered, sorted page from an index', async () => {
    const queries = new LeadQueryRepository(server.store);
    const tenant = { organizationId: owner.organizationId, environment: 'live' as const };
    const expected: Array<[string, string]> = [
      ['', 'list_created_at'],
      ['status=active', 'list_status_created_at'],
      ['source=web&sortOrder=asc', 'list_source_created_at'],
      ['vendor_id=v', 'list_vendor_id_created_at'],
      ['program=MBA&start_date=2025-01-01', 'list_program_created_at'],
      ['status=active&source=web', 'list_status_source_created_at'],
      ['status=active&vendor_id=v&sortOrder=asc', 'list_status_vendor_id_created_at'],
      ['sortBy=updated_at', 'tenant_updated_at'],
      ['sortBy=email&sortOrder=asc', 'tenant_email_lower'],
      ['sortBy=last_name', 'tenant_last_name_lower'],
    ];
    for (const [text, index] of expected) {
      const parsed = parseLeadListQuery(Object.fromEntries(new URLSearchParams(text)));
      if (!parsed.ok) throw new Error(text);
      expect(await queries.explainList(tenant, parsed.query), text).toContain(index);
    }
    const search = parseLeadListQuery({ search: '415 555' });
    if (!search.ok) throw new Error('search');
    // Search: the substring indexes of the text and the phone, never a walk over the tenant's leads.
    expect((await queries.explainList(tenant, search.query)).sort()).toEqual([
      'tenant_search_phone',
      'tenant_search_text',
    ]);
    const text = parseLeadListQuery({ search: 'gmail', status: 'active' });
    if (!text.ok) throw new Error('search');
    expect(await queries.explainList(tenant, text.query)).toEqual(['tenant_search_text']);
    // One or two characters: a prefix range per lowercase copy.
    const short = parseLeadListQuery({ search: 'ad' });
    if (!short.ok) throw new Error('search');
    expect((await queries.explainList(tenant, short.query)).sort()).toEqual([
      'tenant_email_lower',
      'tenant_first_name_lower',
      'tenant_last_name_lower',
    ]);
  });
});

describe('GET /api/leads/:id', () => {
  it('answers every field of the lead including vendor_name, and no internal field', async () => {
    await insert({ ...storedLead({ email: 'vendored@example.edu' }), _id: 'lead_vendored' });
    const { status, body } = await owner.call('GET', '/api/leads/lead_vendored');
    expect(status).toBe(200);
    const lead = body['data'] as Record<string, unknown>;
    expect(lead).toMatchObject({
      id: 'lead_vendored',
      email: 'vendored@example.edu',
      vendor_id: vendorId,
      vendor_name: 'Inquiry Co',
      landing_page: 'https://u.edu/apply',
      utm_term: 'mba',
      deleted_at: null,
    });
    for (const field of LIST_OMITTED) expect(lead).toHaveProperty(field);
    for (const field of INTERNAL) expect(lead).not.toHaveProperty(field);
    const unknownVendor = seeded[4] as LeadRecord;
    expect((await owner.call('GET', `/api/leads/${unknownVendor._id}`)).body['data']).toMatchObject({
      vendor_name: null,
      vendor_id: 'vendor-b',
    });
    await owner.call('DELETE', '/api/leads/lead_vendored');
  });

  it("is 404 LEAD_NOT_FOUND for another organization's lead, a deleted lead and an unknown id", async () => {
    const ada = seeded[0] as LeadRecord;
    const deleted = seeded[3] as LeadRecord;
    for (const [api, id] of [
      [other, ada._id],
      [owner, deleted._id],
      [owner, 'lead_nope'],
    ] as const) {
      const { status, body } = await api.call('GET', `/api/leads/${id}`);
      expect(status).toBe(404);
      expect(body).toMatchObject({ error: { code: 'LEAD_NOT_FOUND' } });
    }
  });
});

describe('PATCH /api/leads/:id', () => {
  it('updates writable fields, re-validates email and phone, moves updated_at and emits lead.updated with changes', async () => {
    const [lead] = await insert(
      storedLead({ email: 'patch.me@example.edu', first_name: 'Pat', phone: '+14155550101', created_at: ago(5) }),
    );
    const before = lead as LeadRecord;
    const { status, body } = await owner.call('PATCH', `/api/leads/${before._id}`, {
      status: 'contacted',
      phone: '(415) 555-0199',
      first_name: 'Patricia',
      utm_campaign: null,
    });
    expect(status).toBe(200);
    const data = body['data'] as Record<string, unknown>;
    expect(data).toMatchObject({
      id: before._id,
      status: 'contacted',
      phone: '+14155550199',
      first_name: 'Patricia',
      utm_campaign: null,
    });
    expect(String(data['updated_at']) > before.updated_at).toBe(true);
    for (const field of INTERNAL) expect(data).not.toHaveProperty(field);

    const stored = await new LeadQueryRepository(server.store).findVisible(
      { organizationId: owner.organizationId, environment: 'live' },
      before._id,
    );
    expect(stored).toMatchObject({ version: 2, phone_digits: '4155550199', first_name_lower: 'patricia', outbox: [] });
    expect(dataOf((await owner.call('GET', '/api/leads?search=415-555-0199')).body).map((l) => l['id'])).toEqual([
      before._id,
    ]);

    const events = (await readEvents()).filter(
      (event) => event.event === 'lead.updated' && (event.data['lead'] as { id: string }).id === before._id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.organization_id).toBe(owner.organizationId);
    expect(events[0]?.data).toMatchObject({
      lead: { id: before._id, email: 'patch.me@example.edu', phone: '+14155550199', updated_at: data['updated_at'] },
      changes: {
        status: { old: 'active', new: 'contacted' },
        phone: { old: '+14155550101', new: '+14155550199' },
        first_name: { old: 'Pat', new: 'Patricia' },
        utm_campaign: { old: 'fall', new: null },
      },
    });
  });

  it('refuses invalid values with details naming the fields, and changes nothing', async () => {
    const [lead] = await insert(storedLead({ email: 'strict@example.edu' }));
    const id = (lead as LeadRecord)._id;
    const { status, body } = await owner.call('PATCH', `/api/leads/${id}`, {
      email: 'not-an-email',
      phone: '123',
      status: 'hot',
      version: 3,
      created_at: 'x',
    });
    expect(status).toBe(400);
    const fields = (body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'phone', 'status', 'version', 'created_at']));
    expect((await owner.call('GET', `/api/leads/${id}`)).body['data']).toMatchObject({
      email: 'strict@example.edu',
      status: 'active',
    });
  });

  it('answers 200 without an event when nothing changes; 404 for a foreign or deleted lead; 403 for a viewer', async () => {
    const ada = seeded[0] as LeadRecord;
    const eventsBefore = (await readEvents()).length;
    expect((await owner.call('PATCH', `/api/leads/${ada._id}`, { source: 'web' })).status).toBe(200);
    expect((await readEvents()).length).toBe(eventsBefore);
    expect((await other.call('PATCH', `/api/leads/${ada._id}`, { source: 'stolen' })).status).toBe(404);
    expect((await owner.call('PATCH', `/api/leads/${(seeded[3] as LeadRecord)._id}`, { source: 'x' })).status).toBe(
      404,
    );
    expect((await viewer.call('PATCH', `/api/leads/${ada._id}`, { source: 'x' })).status).toBe(403);
    expect((await owner.call('GET', `/api/leads/${ada._id}`)).body['data']).toMatchObject({ source: 'web' });
  });
});

describe('DELETE /api/leads/:id', () => {
  it('soft-deletes: 204, the record stays with deleted_at, the lead disappears from the API, lead.deleted is emitted', async () => {
    const [lead] = await insert(storedLead({ email: 'delete.me@example.edu' }));
    const id = (lead as LeadRecord)._id;
    expect((await other.call('DELETE', `/api/leads/${id}`)).status).toBe(404);
    const response = await owner.call('DELETE', `/api/leads/${id}`);
    expect(response.status).toBe(204);
    const stored = await server.store.collection<LeadRecord>('leads').findOne({ _id: id });
    expect(stored?.deleted_at).toEqual(expect.any(String));
    expect(stored?.email).toBe('delete.me@example.edu');
    expect((await owner.call('GET', `/api/leads/${id}`)).status).toBe(404);
    expect((await owner.call('DELETE', `/api/leads/${id}`)).status).toBe(404);
    expect(dataOf((await owner.call('GET', '/api/leads?search=delete.me')).body)).toEqual([]);
    const events = (await readEvents()).filter(
      (event) => event.event === 'lead.deleted' && event.data['lead_id'] === id,
    );
    expect(events).toHaveLength(1);
  });
});

describe('GET /api/leads/:id/activity', () => {
  it('answers the entries in time order with id, event, timestamp, description, metadata', async () => {
    const ada = seeded[0] as LeadRecord;
    const activity = new LeadActivityRepository(server.store);
    const base = { organization_id: owner.organizationId, environment: 'live', lead_id: ada._id };
    await activity.record({
      ...base,
      _id: 'evt_b',
      event: 'lead.validated',
      timestamp: ago(49),
      sequence: 2,
      description: 'Lead passed validation',
      metadata: { validation_rules: ['email_syntax'] },
    });
    await activity.record({
      ...base,
      _id: 'evt_a',
      event: 'lead.created',
      timestamp: ago(50),
      sequence: 1,
      description: 'Lead received',
      metadata: { vendor_id: vendorId },
    });
    const { status, body } = await owner.call('GET', `/api/leads/${ada._id}/activity`);
    expect(status).toBe(200);
    expect(dataOf(body)).toEqual([
      {
        id: 'evt_a',
        event: 'lead.created',
        timestamp: expect.any(String),
        description: 'Lead received',
        metadata: { vendor_id: vendorId },
      },
      {
        id: 'evt_b',
        event: 'lead.validated',
        timestamp: expect.any(String),
        description: 'Lead passed validation',
        metadata: { validation_rules: ['email_syntax'] },
      },
    ]);
    expect((await other.call('GET', `/api/leads/${ada._id}/activity`)).status).toBe(404);
  });
});

describe('POST /api/leads/bulk-update and bulk-delete', () => {
  it("updates the organization's leads, reports foreign and unknown ids as LEAD_NOT_FOUND and leaves them untouched", async () => {
    const mine = await insert(
      storedLead({ email: 'bulk.one@example.edu' }),
      storedLead({ email: 'bulk.two@example.edu' }),
    );
    const [foreign] = await insert(
      storedLead({ email: 'bulk.foreign@example.edu', organization_id: other.organizationId, vendor_id: 'x' }),
    );
    const foreignId = (foreign as LeadRecord)._id;
    const ids = [...mine.map((lead) => lead._id), foreignId, 'lead_unknown'];
    const { status, body } = await owner.call('POST', '/api/leads/bulk-update', {
      ids,
      updates: { status: 'archived' },
    });
    expect(status).toBe(200);
    // The documented bulk body (`bulkUpdateLeads`), not wrapped in data.
    expect(body['data']).toBeUndefined();
    expect(body).toMatchObject({
      success: true,
      updated: 2,
      failed: 2,
      results: [
        { id: ids[0], success: true },
        { id: ids[1], success: true },
        { id: foreignId, success: false, error: { code: 'LEAD_NOT_FOUND' } },
        { id: 'lead_unknown', success: false, error: { code: 'LEAD_NOT_FOUND' } },
      ],
    });
    const foreignNow = await server.store.collection<LeadRecord>('leads').findOne({ _id: foreignId });
    expect(foreignNow).toMatchObject({ status: 'active', version: 1 });
    const events = (await readEvents()).filter(
      (event) => event.event === 'lead.updated' && ids.includes((event.data['lead'] as { id: string }).id),
    );
    expect(events.map((event) => (event.data['lead'] as { id: string }).id).sort()).toEqual(
      mine.map((lead) => lead._id).sort(),
    );

    const deleted = await owner.call('POST', '/api/leads/bulk-delete', { lead_ids: ids });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, deleted: 2, failed: 2 });
    expect(deleted.body['data']).toBeUndefined();
    expect(await server.store.collection<LeadRecord>('leads').findOne({ _id: foreignId })).toMatchObject({
      deleted_at: null,
      version: 1,
    });
  });

  it('refuses more than 100 ids and invalid updates with 400, touching nothing', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `lead_${i}`);
    const tooMany = await owner.call('POST', '/api/leads/bulk-update', { ids, updates: { status: 'archived' } });
    expect(tooMany.status).toBe(400);
    expect((await owner.call('POST', '/api/leads/bulk-delete', { ids })).status).toBe(400);
    const ada = seeded[0] as LeadRecord;
    const badUpdate = await owner.call('POST', '/api/leads/bulk-update', {
      ids: [ada._id],
      updates: { status: 'hot' },
    });
    expect(badUpdate.status).toBe(400);
    expect((badUpdate.body['error'] as { details: Array<{ field: string }> }).details[0]?.field).toBe('updates.status');
    expect((await owner.call('GET', `/api/leads/${ada._id}`)).body['data']).toMatchObject({ status: 'active' });
  });

  it('applies the bulk operations limit (20 per minute per user) with the rate-limit headers', async () => {
    const manager = await owner.member('leads.bulk.manager@example.edu', 'manager');
    let limited: { status: number; body: Record<string, unknown>; headers: Headers } | undefined;
    for (let i = 0; i < 45 && !limited; i++) {
      const response = await manager.call('POST', '/api/leads/bulk-delete', { ids: ['lead_none'] });
      expect(response.headers.get('x-ratelimit-limit')).toBe('20');
      if (response.status === 429) limited = response;
    }
    expect(limited?.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    const list = await manager.call('GET', '/api/leads');
    expect(list.status).toBe(200);
    expect(list.headers.get('x-ratelimit-limit')).toBe('100');
    expect(
      (await manager.call('GET', `/api/leads/${(seeded[0] as LeadRecord)._id}`)).headers.get('x-ratelimit-limit'),
    ).toBe('200');
  });
});

describe('POST /api/leads: checks made before the pipeline', () => {
  it('refuses unknown fields, a missing email and a vendor of another organization with 400 details', async () => {
    const foreignVendor = await other.call('POST', '/api/vendors', { name: 'Theirs', type: 'inquiry' });
    const theirId = String((foreignVendor.body['data'] as { id: string }).id);
    const { status, body } = await owner.call('POST', '/api/leads', {
      first_name: 'No',
      colour: 'red',
      vendor_id: theirId,
      program: 7,
    });
    expect(status).toBe(400);
    const fields = (body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'colour', 'vendor_id', 'program']));
    expect((await viewer.call('POST', '/api/leads', { email: 'v@example.edu' })).status).toBe(403);
  });

  it('answers 202 with the id when the pipeline has not decided in time, and that lead is 409 LEAD_PROCESSING (not 404) until it is stored', async () => {
    // This test server runs no pipeline: no decision ever comes.
    const accepted = await owner.call('POST', '/api/leads', { email: 'in.flight@example.edu' });
    expect(accepted.status).toBe(202);
    const data = accepted.body['data'] as { id: string; status: string; status_url: string };
    expect(data).toMatchObject({ id: expect.stringMatching(/^lead_/) as unknown, status: 'processing' });
    for (const [method, path] of [
      ['GET', `/api/leads/${data.id}`],
      ['GET', `/api/leads/${data.id}/activity`],
      ['PATCH', `/api/leads/${data.id}`],
      ['DELETE', `/api/leads/${data.id}`],
    ] as const) {
      const answer = await owner.call(method, path, method === 'PATCH' ? { first_name: 'Ina' } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(409);
      expect((answer.body['error'] as { code: string }).code).toBe('LEAD_PROCESSING');
    }
    expect((await owner.call('GET', '/api/leads/lead_never_submitted')).status).toBe(404);
  });
});
