/**
 * The connectors' calls (CrmClient over the outbound-HTTP module) against the CRM fake on
 * loopback: connection tests of each type, a refused OAuth client, the token kept between syncs,
 * and the failures that are no HTTP answer (a timeout, a closed port, a target refused before
 * any connection). Then the answers the real Salesforce and HubSpot give that a sync must
 * survive (docs/crm.md): API limits and row locks, refresh-token rotation, one token request per
 * connection at a time, assignment rules, a resync that must not overwrite a rep's edits,
 * case-sensitive email matching, field lengths, duplicate external ids and missing scopes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCrmConnectionInput, type CrmConnection } from '@leadstream/domain';
import { CrmClient } from '@leadstream/runtime';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_HUBSPOT_TOKEN,
  FAKE_HUBSPOT_WRITE_ONLY_TOKEN,
  FAKE_SALESFORCE,
  FAKE_WEBHOOK_AUTH,
  startFakeCrm,
  type FakeCrm,
} from './crm-fakes.test-support';

let fake: FakeCrm;
let silent: Server;
let silentUrl = '';
const client = new CrmClient({ timeoutMs: 300, allowInsecureTargets: true });
const lead = { _id: 'lead_client1', email: 'ada@example.edu', first_name: 'Ada', last_name: 'Lovelace' };
const target = { owner: null, queue: null };

beforeAll(async () => {
  fake = await startFakeCrm();
  // Accepts the request and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fake.close();
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

function connection(body: Record<string, unknown>): CrmConnection {
  const parsed = parseCrmConnectionInput(body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
  return {
    ...parsed.input,
    id: `crm_${String(body['name'])}`,
    updated_at: '2026-01-01T00:00:00.000Z',
  } as CrmConnection;
}
const sf = (secret = FAKE_SALESFORCE.clientSecret) =>
  connection({
    name: `sf${secret.length}`,
    type: 'salesforce',
    settings: { instance_url: fake.url },
    credentials: { client_id: FAKE_SALESFORCE.clientId, client_secret: secret },
  });
const hs = (token = FAKE_HUBSPOT_TOKEN) =>
  connection({
    name: `hs${token.length}`,
    type: 'hubspot',
    settings: { base_url: fake.url },
    credentials: { private_app_token: token },
  });
const hook = (url = `${fake.url}/hook`) =>
  connection({ name: 'hook', type: 'webhook_json', settings: { url }, credentials: { auth_value: FAKE_WEBHOOK_AUTH } });

describe('CrmClient against a CRM on loopback', () => {
  it('tests each type of connection without writing, and reports refused credentials', async () => {
    for (const good of [sf(), hs(), hook()])
      expect(await client.test(good), good.type).toMatchObject({ success: true, responseStatus: 200 });
    expect(fake.records.salesforce.size + fake.records.hubspot.size + fake.records.webhook.size).toBe(0);
    expect(await client.test(sf('wrong-secret'))).toMatchObject({
      success: false,
      responseStatus: 400,
      error: 'token request failed: HTTP 400: invalid client credentials',
    });
    expect(await client.test(hs('pat-wrong'))).toMatchObject({
      success: false,
      responseStatus: 401,
      error: 'HTTP 401: Authentication credentials not found.',
    });
  });

  it('keeps the Salesforce token between syncs, and a refused client is a permanent failure', async () => {
    const connection: CrmConnection = { ...sf(), id: 'crm_sf_sync' };
    const before = fake.tokensIssued;
    const first = await client.sync(connection, lead, target, null);
    const second = await client.sync(connection, lead, target, null);
    expect(first.outcome).toMatchObject({ kind: 'synced', created: true });
    expect(second.outcome).toMatchObject({ kind: 'synced', created: false });
    expect(fake.tokensIssued - before).toBe(1);
    expect(fake.records.salesforce.get('lead_client1')?.writes).toBe(2);
    expect((await client.sync(sf('bad-secret!'), lead, target, null)).outcome).toEqual({
      kind: 'permanent',
      error: 'token request failed: HTTP 400: invalid client credentials',
      status: 400,
    });
  });

  it('treats a timeout and a closed port as retryable, a refused target as permanent, and HubSpot 401 as permanent', async () => {
    expect((await client.sync(hook(`${silentUrl}/hook`), lead, target, null)).outcome).toEqual({
      kind: 'retryable',
      error: 'no answer within 300 ms',
      status: null,
      retryAfterMs: null,
    });
    const closed = await client.sync(hook('http://127.0.0.1:1/hook'), lead, target, null);
    expect(closed.outcome).toMatchObject({ kind: 'retryable', status: null });
    const strict = new CrmClient({ timeoutMs: 300 });
    expect((await strict.sync(hook(), lead, target, null)).outcome).toEqual({
      kind: 'permanent',
      error: 'the target must use https',
      status: null,
    });
    expect((await client.sync(hs('pat-revoked'), lead, target, null)).outcome).toEqual({
      kind: 'permanent',
      error: 'HTTP 401: Authentication credentials not found. (credentials refused)',
      status: 401,
    });
  });
});

describe('CrmClient against the answers of the real Salesforce and HubSpot', () => {
  let crm: FakeCrm;
  let clock = Date.parse('2026-03-01T10:00:00.000Z');
  let sequence = 0;
  beforeEach(async () => {
    crm = await startFakeCrm();
    clock = Date.parse('2026-03-01T10:00:00.000Z');
  });
  afterEach(async () => {
    await crm.close();
  });
  const fresh = () => new CrmClient({ timeoutMs: 2_000, allowInsecureTargets: true, now: () => clock });
  const salesforce = (settings: Record<string, unknown> = {}, credentials: Record<string, unknown> = {}) =>
    connection({
      name: `sf${++sequence}`,
      type: 'salesforce',
      settings: { instance_url: crm.url, ...settings },
      credentials: { client_id: FAKE_SALESFORCE.clientId, client_secret: FAKE_SALESFORCE.clientSecret, ...credentials },
    });
  const hubspot = (token = FAKE_HUBSPOT_TOKEN) =>
    connection({
      name: `hs${++sequence}`,
      type: 'hubspot',
      settings: { base_url: crm.url },
      credentials: { private_app_token: token },
    });
  const person = (fields: Record<string, unknown> = {}) => ({
    _id: `lead_real${++sequence}`,
    email: `person${sequence}@example.edu`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    ...fields,
  });
  const leadCalls = () =>
    crm.requests.filter((request) => request.path.includes('/sobjects/Lead/') || request.path.includes('/crm/v3/'));

  it('Salesforce: a used-up daily allowance or concurrency limit (403 REQUEST_LIMIT_EXCEEDED) and a locked row are retried, the allowance after a long delay', async () => {
    const client = fresh();
    const sf = salesforce();
    crm.salesforce.apiCallsLeft = 0;
    expect((await client.sync(sf, person(), target, null)).outcome).toEqual({
      kind: 'retryable',
      error: 'HTTP 403: REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.',
      status: 403,
      retryAfterMs: 3_600_000,
    });
    crm.salesforce.apiCallsLeft = null;
    crm.salesforce.concurrencyLimited();
    expect((await client.sync(sf, person(), target, null)).outcome).toEqual({
      kind: 'retryable',
      error: 'HTTP 403: REQUEST_LIMIT_EXCEEDED: ConcurrentPerOrgLongTxn Limit exceeded.',
      status: 403,
      retryAfterMs: 300_000,
    });
    crm.salesforce.lockRows();
    const locked = await client.sync(sf, person(), target, null);
    expect(locked.outcome).toMatchObject({ kind: 'retryable', status: 400, retryAfterMs: null });
    expect(locked.outcome.kind === 'retryable' ? locked.outcome.error : '').toContain('UNABLE_TO_LOCK_ROW');
    // Once the limit or the lock is gone, the same leads go through.
    expect((await client.sync(sf, person(), target, null)).outcome).toMatchObject({ kind: 'synced', created: true });
  });

  it('Salesforce: a rotated refresh token is kept, so the next refresh sends the new one instead of the retired one', async () => {
    crm.salesforce.rotateRefreshTokens = true;
    const client = fresh();
    const sf = salesforce({ grant_type: 'refresh_token' }, { refresh_token: FAKE_SALESFORCE.refreshToken });
    expect((await client.sync(sf, person(), target, null)).outcome).toMatchObject({ kind: 'synced' });
    // The access token expires (15 minutes without expires_in): the next sync refreshes again.
    clock += 16 * 60_000;
    expect((await client.sync(sf, person(), target, null)).outcome).toMatchObject({ kind: 'synced' });
    expect(crm.salesforce.refreshTokensSent).toEqual([FAKE_SALESFORCE.refreshToken, 'sf-refresh-1']);
    expect(crm.salesforce.refreshTokenValid('sf-refresh-2')).toBe(true);
  });

  it('Salesforce: syncs of one connection that need a token at once share one token request, also after a 401', async () => {
    const client = fresh();
    const sf = salesforce();
    const leads = [person(), person(), person(), person(), person()];
    const outcomes = await Promise.all(leads.map((one) => client.sync(sf, one, target, null)));
    expect(outcomes.map((result) => result.outcome.kind)).toEqual(['synced', 'synced', 'synced', 'synced', 'synced']);
    expect(crm.tokensIssued).toBe(1);
    crm.revokeTokens();
    const again = await Promise.all(leads.map((one) => client.sync(sf, one, target, null)));
    expect(again.map((result) => result.outcome.kind)).toEqual(['synced', 'synced', 'synced', 'synced', 'synced']);
    expect(crm.tokensIssued).toBe(2);
  });

  it("Salesforce: the owner routing chose survives the org's assignment rules (Sforce-Auto-Assign: FALSE), unless the connection keeps them", async () => {
    crm.salesforce.assignmentRuleOwner = '00G000000000RULE';
    const client = fresh();
    const routedOwner = { owner: '005000000000001AAA', queue: null };
    const routed = person();
    expect((await client.sync(salesforce(), routed, routedOwner, null)).outcome).toMatchObject({
      kind: 'synced',
      created: true,
    });
    expect(crm.records.salesforce.get(routed._id)?.fields['OwnerId']).toBe('005000000000001AAA');
    expect(leadCalls().at(-1)?.headers['sforce-auto-assign']).toBe('FALSE');
    // No owner from routing: Salesforce's rules assign the new Lead.
    const unrouted = person();
    await client.sync(salesforce(), unrouted, target, null);
    expect(crm.records.salesforce.get(unrouted._id)?.fields['OwnerId']).toBe('00G000000000RULE');
    // A connection set to keep Salesforce's rules never turns them off.
    const kept = person();
    await client.sync(salesforce({ keep_assignment_rules: true }), kept, routedOwner, null);
    expect(crm.records.salesforce.get(kept._id)?.fields['OwnerId']).toBe('00G000000000RULE');
    expect(leadCalls().at(-1)?.headers['sforce-auto-assign']).toBeUndefined();
  });

  it("Salesforce: a resync updates the mapped fields only, never a rep's edits (no placeholders, no owner, no reassignment)", async () => {
    crm.salesforce.assignmentRuleOwner = '00G000000000RULE';
    const client = fresh();
    const sf = salesforce();
    const nameless = person({ last_name: null });
    const created = await client.sync(sf, nameless, { owner: '005000000000001AAA', queue: null }, null);
    expect(created.outcome).toMatchObject({ kind: 'synced', created: true });
    const record = crm.records.salesforce.get(nameless._id)!;
    expect(record.fields).toMatchObject({
      LastName: '[not provided]',
      Company: '[not provided]',
      OwnerId: '005000000000001AAA',
    });
    // A rep completes the Lead and takes it over.
    Object.assign(record.fields, {
      LastName: 'Lovelace',
      Company: 'Analytical Engines Ltd',
      OwnerId: '005000000000REP',
    });
    const crmId = created.outcome.kind === 'synced' ? created.outcome.crmId : null;
    const resynced = await client.sync(
      sf,
      { ...nameless, first_name: 'Augusta Ada' },
      { owner: '005000000000001AAA', queue: null },
      crmId,
    );
    expect(resynced.outcome).toMatchObject({ kind: 'synced', created: false, crmId: record.id });
    expect(record.fields).toMatchObject({
      FirstName: 'Augusta Ada',
      LastName: 'Lovelace',
      Company: 'Analytical Engines Ltd',
      OwnerId: '005000000000REP',
    });
    const update = leadCalls().at(-1)!;
    expect(JSON.parse(update.body)).toEqual({ FirstName: 'Augusta Ada', Email: nameless.email });
    expect(update.headers['sforce-auto-assign']).toBe('FALSE');
    // The Lead deleted in Salesforce meanwhile: the update would create it without its required fields, so it is created whole.
    crm.records.salesforce.delete(nameless._id);
    const recreated = await client.sync(sf, nameless, { owner: '005000000000001AAA', queue: null }, crmId);
    expect(recreated.outcome).toMatchObject({ kind: 'synced', created: true });
    expect(crm.records.salesforce.get(nameless._id)?.fields).toMatchObject({
      LastName: '[not provided]',
      Company: '[not provided]',
      OwnerId: '005000000000001AAA',
    });
  });

  it('Salesforce: a value longer than its Lead field is refused before any call, naming the field; several Leads sharing the external id are named', async () => {
    const client = fresh();
    const sf = salesforce();
    const calls = crm.requests.length;
    const long = person({ first_name: 'Maria de los Angeles Guadalupe Fernandez Gutierrez' });
    expect((await client.sync(sf, long, target, null)).outcome).toEqual({
      kind: 'permanent',
      error:
        "first_name is 50 characters and Salesforce's Lead.FirstName holds at most 40: shorten the lead's first_name (PATCH /api/leads/:id) and sync it again",
      status: null,
    });
    const email = `${'a'.repeat(70)}@example.edu`;
    expect((await client.sync(sf, person({ email }), target, null)).outcome).toMatchObject({
      kind: 'permanent',
      error: expect.stringContaining("Salesforce's Lead.Email holds at most 80"),
    });
    expect(crm.requests.length).toBe(calls);

    const shared = person();
    const first = await client.sync(sf, shared, target, null);
    const other = crm.salesforce.duplicate(shared._id);
    const id = first.outcome.kind === 'synced' ? first.outcome.crmId : '';
    expect((await client.sync(sf, shared, target, id)).outcome).toEqual({
      kind: 'permanent',
      error: `HTTP 300: 2 Salesforce Leads have this lead's external id (Leadstream_Id__c = ${shared._id}): ${id ?? ''}, ${other}; merge them or clear the field on all but one, then sync again`,
      status: 300,
    });
  });

  it('HubSpot: the email key is lower-cased, so a mixed-case address updates the contact instead of adding a second one', async () => {
    const client = fresh();
    const hs = hubspot();
    await client.sync(hs, person({ _id: 'lead_hs1', email: 'ada.lovelace@example.edu' }), target, null);
    const again = await client.sync(hs, person({ _id: 'lead_hs2', email: 'Ada.Lovelace@Example.EDU' }), target, null);
    expect(again.outcome).toMatchObject({ kind: 'synced', created: false });
    expect([...crm.records.hubspot.keys()]).toEqual(['ada.lovelace@example.edu']);
    expect(crm.records.hubspot.get('ada.lovelace@example.edu')).toMatchObject({
      writes: 2,
      fields: { email: 'ada.lovelace@example.edu' },
    });
  });

  it('HubSpot: a connection test with a token missing the read scope says which scope to add', async () => {
    expect(await fresh().test(hubspot(FAKE_HUBSPOT_WRITE_ONLY_TOKEN))).toMatchObject({
      success: false,
      responseStatus: 403,
      error: expect.stringContaining('required scopes: crm.objects.contacts.read'),
    });
    // Syncs need only the write scope.
    expect((await fresh().sync(hubspot(FAKE_HUBSPOT_WRITE_ONLY_TOKEN), person(), target, null)).outcome).toMatchObject({
      kind: 'synced',
      created: true,
    });
  });
});
