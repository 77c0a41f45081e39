/**
 * GET /api/leads `search` finds what people type (docs/decisions.md "Lead search"), black box: the
 * real `leadstream start` process on each engine set, leads created through the pipeline and
 * changed through the user API, searched over HTTP. Before the process starts, leads stored the
 * way earlier versions stored them (without the search copies) are put in the store: the start
 * (ensureAllIndexes) backfills them once, and search finds them too.
 */
import { randomUUID } from 'node:crypto';
import {
  LEAD_SEARCH_MIGRATION,
  LeadQueryRepository,
  LEADS_COLLECTION,
  migrateLeadSearch,
  MIGRATIONS_COLLECTION,
} from '@leadstream/dal';
import { parseLeadListQuery, type LeadRecord } from '@leadstream/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';

const setups = engineSetups('lead-search');

/** A lead as versions before the search copies stored it: lowercase copies, no search_text or search_phone. */
function legacyLead(
  organizationId: string,
  email: string,
  first: string,
  last: string,
  phone: string | null,
  at: string,
): LeadRecord {
  return {
    _id: `lead_${randomUUID().replace(/-/g, '')}`,
    organization_id: organizationId,
    environment: 'live',
    vendor_id: 'vendor_legacy',
    status: 'active',
    email,
    first_name: first,
    last_name: last,
    phone,
    email_lower: email.toLowerCase(),
    first_name_lower: first.toLowerCase(),
    last_name_lower: last.toLowerCase(),
    phone_digits: phone ? phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '') : null,
    source: null,
    program: null,
    custom_fields: {},
    enrichment_data: {},
    created_at: at,
    updated_at: at,
    submitted_at: at,
    deleted_at: null,
    expires_at: null,
    version: 1,
    applied_messages: [],
    outbox: [],
  } as unknown as LeadRecord;
}

describe.each(setups)('lead search on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const legacyOrg = `org_legacy_${randomUUID().slice(0, 8)}`;
  let server: CliProcess;
  let base: string;
  let token: string;
  const call = jsonClient(() => base);

  const search = async (text: string): Promise<string[]> => {
    const { status, body } = await call(
      'GET',
      `/api/leads?search=${encodeURIComponent(text)}&sortBy=email&sortOrder=asc`,
      undefined,
      token,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    return (body['data'] as Array<{ email: string }>).map((lead) => lead.email);
  };
  const create = async (lead: Record<string, unknown>): Promise<string> => {
    const { status, body } = await call('POST', '/api/leads', lead, token);
    expect(status, JSON.stringify(body)).toBe(201);
    return String((body['data'] as { id: string }).id);
  };

  let backfilled: { found: string[]; phone: string[]; record: unknown; again: number };

  beforeAll(async () => {
    // Leads an earlier version stored; the start below backfills them (and a second start does nothing).
    const store = await setup.openStore();
    const at = new Date(Date.now() - 60_000).toISOString();
    await store
      .collection<LeadRecord>('leads')
      .insertMany([
        legacyLead(legacyOrg, 'old.timer@gmail.com', 'Olga', 'Timér', '+14155550123', at),
        legacyLead(legacyOrg, 'other@example.edu', 'Otto', 'Other', null, at),
      ]);
    await ensureAllIndexes(store);
    const queries = new LeadQueryRepository(store);
    const list = async (text: string): Promise<string[]> => {
      const parsed = parseLeadListQuery({ search: text });
      if (!parsed.ok) throw new Error(text);
      return (await queries.list({ organizationId: legacyOrg, environment: 'live' }, parsed.query)).leads.map(
        (lead) => lead.email,
      );
    };
    backfilled = {
      found: await list('timer'),
      phone: await list('555-0123'),
      record: await store.collection(MIGRATIONS_COLLECTION).findOne({ _id: LEAD_SEARCH_MIGRATION }),
      again: await migrateLeadSearch(store, LEADS_COLLECTION),
    };
    await store.close();

    server = CliProcess.start(
      ['start'],
      serviceEnv({ TOPIC_PARTITIONS: '3', DECISION_TIMEOUT_MS: '15000', ...setup.env }),
    );
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
    base = String(listening['url']);
    const registered = await call('POST', '/api/auth/register', {
      email: `owner.${randomUUID().slice(0, 6)}@search.edu`,
      password: 'Passw0rd!',
      first_name: 'Sam',
      last_name: 'Searcher',
      organization_name: 'Search College',
    });
    expect(registered.status).toBe(201);
    token = String(registered.body['token']);
    await create({
      email: 'ada.lovelace@gmail.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '(415) 555-2671',
    });
    await create({
      email: 'zoe.angstrom@school.example.edu',
      first_name: 'Zoë',
      last_name: 'Ångström-Muñoz',
      phone: '+44 20 7946 0958',
    });
    await create({ email: 'MiXeD.CaSe@Example.edu', first_name: 'Mary', last_name: 'McDonald' });
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  it('backfilled the leads stored before the search copies, once, when the process started', () => {
    expect(backfilled.found).toEqual(['old.timer@gmail.com']);
    expect(backfilled.phone).toEqual(['old.timer@gmail.com']);
    expect(backfilled.record).toMatchObject({ _id: LEAD_SEARCH_MIGRATION, changed: 2 });
    expect(backfilled.again).toBe(0);
  });

  it('finds any part of an email: a mail provider, a domain', async () => {
    expect(await search('gmail')).toEqual(['ada.lovelace@gmail.com']);
    expect(await search('example.edu')).toEqual(['MiXeD.CaSe@example.edu', 'zoe.angstrom@school.example.edu']);
    expect(await search('@school.')).toEqual(['zoe.angstrom@school.example.edu']);
  });

  it('finds 4 or more digits anywhere in the phone stored in E.164, however they are typed', async () => {
    expect(await search('555-2671')).toEqual(['ada.lovelace@gmail.com']);
    expect(await search('2671')).toEqual(['ada.lovelace@gmail.com']);
    expect(await search('+1 (415) 555-2671')).toEqual(['ada.lovelace@gmail.com']);
    expect(await search('7946 0958')).toEqual(['zoe.angstrom@school.example.edu']);
  });

  it('ignores accents and case in names and emails', async () => {
    expect(await search('angstrom-munoz')).toEqual(['zoe.angstrom@school.example.edu']);
    expect(await search('ZOE ÅNGSTRÖM')).toEqual(['zoe.angstrom@school.example.edu']);
    expect(await search('mcdonald')).toEqual(['MiXeD.CaSe@example.edu']);
    expect(await search('MIXED.case')).toEqual(['MiXeD.CaSe@example.edu']);
    expect(await search('ry mcd')).toEqual(['MiXeD.CaSe@example.edu']); // across first and last name
  });

  it('finds a lead by its new values after an update, and no longer by its old ones', async () => {
    const id = await create({
      email: 'change.me@yahoo.com',
      first_name: 'Chang',
      last_name: 'Before',
      phone: '(617) 555-0199',
    });
    expect(await search('yahoo')).toEqual(['change.me@yahoo.com']);
    const patched = await call(
      'PATCH',
      `/api/leads/${id}`,
      { email: 'changed@proton.me', last_name: 'Après', phone: '(617) 555-0777' },
      token,
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await search('yahoo')).toEqual([]);
    expect(await search('before')).toEqual([]);
    expect(await search('555-0199')).toEqual([]);
    expect(await search('proton')).toEqual(['changed@proton.me']);
    expect(await search('apres')).toEqual(['changed@proton.me']);
    expect(await search('555-0777')).toEqual(['changed@proton.me']);
  });

  it('reads one or two characters as the start of an email or name, and caps search at 200 characters', async () => {
    expect(await search('Ma')).toEqual(['MiXeD.CaSe@example.edu']);
    expect(await search('ex')).toEqual([]);
    const tooLong = await call('GET', `/api/leads?search=${'x'.repeat(201)}`, undefined, token);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'search' }] } });
  });
});
