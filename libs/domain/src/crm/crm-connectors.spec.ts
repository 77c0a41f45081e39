import { describe, expect, it } from 'vitest';
import { parseCrmConnectionInput, type CrmConnection } from './crm-connection';
import {
  accessTokenRequest,
  classifyFailure,
  crmRecordUrl,
  readAccessToken,
  readSyncResponse,
  retryAfterMs,
  syncProblem,
  syncRequest,
  testRequest,
} from './crm-connectors';
import { advanceCrmSync, crmSyncCan, startCrmSync } from './crm-sync.machine';
import { leadCrmFields, nextRetryStep, parseCrmRetrySchedule } from './crm-sync';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');
const lead = {
  _id: 'lead_1',
  email: 'ann@example.edu',
  first_name: 'Ann',
  last_name: null,
  phone: '+15555550100',
  source: 'fair',
  custom_fields: { gpa: 3.9 },
};
const target = { owner: '005000000000001AAA', queue: null };

function connection(body: unknown): CrmConnection {
  const parsed = parseCrmConnectionInput(body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
  return {
    id: 'crm_1',
    enabled: true,
    updated_at: '2026-01-01T00:00:00.000Z',
    name: parsed.input.name,
    type: parsed.input.type,
    settings: parsed.input.settings,
    credentials: parsed.input.credentials,
  } as CrmConnection;
}

const response = (status: number | null, body: unknown = '', headers: Record<string, string> = {}) => ({
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers,
});

describe('CRM connection input', () => {
  it('fills defaults per type and keeps credentials apart from settings', () => {
    const salesforce = parseCrmConnectionInput({
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: 'https://acme.my.salesforce.com/' },
      credentials: { client_id: 'id', client_secret: 'secret' },
    });
    expect(salesforce).toEqual({
      ok: true,
      input: {
        name: 'SF',
        type: 'salesforce',
        enabled: true,
        settings: {
          instance_url: 'https://acme.my.salesforce.com',
          token_url: 'https://acme.my.salesforce.com/services/oauth2/token',
          grant_type: 'client_credentials',
          external_id_field: 'Leadstream_Id__c',
          api_version: 'v60.0',
          field_mapping: null,
          keep_assignment_rules: false,
        },
        credentials: { client_id: 'id', client_secret: 'secret' },
      },
    });
  });

  it('names every problem: unknown type, missing credentials, bad mapping, unknown keys', () => {
    expect(parseCrmConnectionInput({ name: 'x', type: 'pipedrive' })).toEqual({
      ok: false,
      details: [{ field: 'type', message: 'type must be one of webhook_json, salesforce, hubspot' }],
    });
    const parsed = parseCrmConnectionInput({
      name: 'H',
      type: 'hubspot',
      settings: { field_mapping: { 'bad.key': 'email', firstname: 'password' }, extra: 1 },
      credentials: {},
    });
    expect(parsed.ok).toBe(false);
    const fields = parsed.ok ? [] : parsed.details.map((detail) => detail.field);
    expect(fields).toEqual([
      'settings.extra',
      'settings.field_mapping.bad.key',
      'settings.field_mapping.firstname',
      'credentials.private_app_token',
    ]);
    const refresh = parseCrmConnectionInput({
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: 'https://a.example.com', grant_type: 'refresh_token' },
      credentials: { client_id: 'a', client_secret: 'b' },
    });
    expect(refresh.ok ? [] : refresh.details.map((detail) => detail.field)).toEqual(['credentials.refresh_token']);
  });

  it('refuses an auth_header that leadstream must set itself (Host, Content-Length, ...) or that is not a header name', () => {
    const hook = (auth_header: string) =>
      parseCrmConnectionInput({
        name: 'Hook',
        type: 'webhook_json',
        settings: { url: 'https://crm.example.com/leads', auth_header },
        credentials: { auth_value: 'k1' },
      });
    expect(hook('X-Api-Key').ok).toBe(true);
    for (const name of ['Host', 'host', 'Content-Length', 'Transfer-Encoding', 'Proxy-Authorization', 'X A']) {
      const parsed = hook(name);
      expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field), name).toEqual(['settings.auth_header']);
    }
  });

  it('refuses an auth_value that is not a plain header value', () => {
    const hook = (auth_value: string) =>
      parseCrmConnectionInput({
        name: 'Hook',
        type: 'webhook_json',
        settings: { url: 'https://crm.example.com/leads' },
        credentials: { auth_value },
      });
    for (const value of ['Bearer x\r\nX-Injected: 1', 'Bearer x\u0000', 'Bearer café']) {
      const parsed = hook(value);
      expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field), JSON.stringify(value)).toEqual([
        'credentials.auth_value',
      ]);
    }
  });
});

describe('request shaping', () => {
  it('webhook_json: the mapped lead with external_id, Idempotency-Key and the auth header', () => {
    const hook = connection({
      name: 'Hook',
      type: 'webhook_json',
      settings: {
        url: 'https://crm.example.com/leads',
        auth_header: 'X-Api-Key',
        field_mapping: { mail: 'email', gpa: 'custom_fields.gpa', rep: 'owner', last: 'last_name' },
      },
      credentials: { auth_value: 'k1' },
    });
    expect(syncRequest(hook, lead, target, null)).toEqual({
      url: 'https://crm.example.com/leads',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': 'lead_1',
        'x-api-key': 'k1',
      },
      body: { external_id: 'lead_1', mail: 'ann@example.edu', gpa: 3.9, rep: '005000000000001AAA' },
    });
  });

  it('webhook_json: leaves out an auth header stored before such headers were refused (Host), rather than send it', () => {
    const hook = connection({
      name: 'Hook',
      type: 'webhook_json',
      settings: { url: 'https://crm.example.com/leads' },
      credentials: { auth_value: 'evil.example' },
    });
    const stored = { ...hook, settings: { ...hook.settings, auth_header: 'Host' } } as CrmConnection;
    expect(Object.keys(syncRequest(stored, lead, target, null).headers)).not.toContain('host');
    expect(Object.keys(testRequest(stored, null).headers)).not.toContain('host');
    expect(syncRequest(hook, lead, target, null).headers['authorization']).toBe('evil.example');
  });

  it('salesforce: PATCH upsert by external id; a create with placeholders for required fields and the owner id, an update with the mapped fields only', () => {
    const sf = connection({
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: 'https://acme.my.salesforce.com', external_id_field: 'Lead_Ref__c' },
      credentials: { client_id: 'id', client_secret: 's' },
    });
    const token = { accessToken: 'tok', expiresAt: NOW + 1000, instanceUrl: 'https://eu1.my.salesforce.com' };
    const json = { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer tok' };
    expect(syncRequest(sf, lead, target, token)).toEqual({
      url: 'https://eu1.my.salesforce.com/services/data/v60.0/sobjects/Lead/Lead_Ref__c/lead_1',
      method: 'PATCH',
      // The routed owner is not replaced by Salesforce's assignment rules.
      headers: { ...json, 'sforce-auto-assign': 'FALSE' },
      body: {
        FirstName: 'Ann',
        Email: 'ann@example.edu',
        Phone: '+15555550100',
        LeadSource: 'fair',
        LastName: '[not provided]',
        Company: '[not provided]',
        OwnerId: '005000000000001AAA',
      },
    });
    expect(syncRequest(sf, lead, target, token, 'update')).toMatchObject({
      headers: { ...json, 'sforce-auto-assign': 'FALSE' },
      body: { FirstName: 'Ann', Email: 'ann@example.edu', Phone: '+15555550100', LeadSource: 'fair' },
    });
    expect(Object.keys(syncRequest(sf, lead, target, token, 'update').body as object)).toEqual([
      'FirstName',
      'Email',
      'Phone',
      'LeadSource',
    ]);
    // No routed owner: a new Lead is left to Salesforce's rules.
    expect(syncRequest(sf, lead, { owner: null, queue: null }, token).headers).toEqual(json);
    const keeping = { ...sf, settings: { ...sf.settings, keep_assignment_rules: true } } as CrmConnection;
    expect(syncRequest(keeping, lead, target, token).headers).toEqual(json);
    expect(syncRequest(keeping, lead, target, token, 'update').headers).toEqual(json);
    // Stored before the setting existed: Salesforce's rules are turned off for a routed owner.
    const { keep_assignment_rules: _dropped, ...older } =
      sf.type === 'salesforce' ? sf.settings : { keep_assignment_rules: false };
    expect(
      syncRequest({ ...sf, settings: older } as CrmConnection, lead, target, token).headers['sforce-auto-assign'],
    ).toBe('FALSE');
    expect(syncProblem(sf, { ...lead, last_name: 'L'.repeat(81) }, target)).toBe(
      "last_name is 81 characters and Salesforce's Lead.LastName holds at most 80: shorten the lead's last_name (PATCH /api/leads/:id) and sync it again",
    );
    expect(syncProblem(sf, { ...lead, last_name: 'L'.repeat(80) }, target)).toBeNull();
    const form = accessTokenRequest(sf);
    expect(form.rawBody).toBe('grant_type=client_credentials&client_id=id&client_secret=s');
    expect(
      readAccessToken(response(200, { access_token: 'tok', instance_url: 'https://eu1.my.salesforce.com' }), NOW),
    ).toEqual({
      ok: true,
      token: { accessToken: 'tok', expiresAt: NOW + 14 * 60_000, instanceUrl: 'https://eu1.my.salesforce.com' },
      refreshToken: null,
    });
    // A rotating connected app answers a new refresh token, which the next refresh sends.
    expect(readAccessToken(response(200, { access_token: 'tok2', refresh_token: 'r2' }), NOW)).toMatchObject({
      ok: true,
      refreshToken: 'r2',
    });
    const refreshing = connection({
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: 'https://acme.my.salesforce.com', grant_type: 'refresh_token' },
      credentials: { client_id: 'id', client_secret: 's', refresh_token: 'r1' },
    });
    expect(accessTokenRequest(refreshing).rawBody).toBe(
      'grant_type=refresh_token&client_id=id&client_secret=s&refresh_token=r1',
    );
    expect(accessTokenRequest(refreshing, 'r2').rawBody).toBe(
      'grant_type=refresh_token&client_id=id&client_secret=s&refresh_token=r2',
    );
    expect(
      readAccessToken(response(400, { error: 'invalid_grant', error_description: 'authentication failure' }), NOW),
    ).toEqual({
      ok: false,
      outcome: { kind: 'permanent', error: 'token request failed: HTTP 400: authentication failure', status: 400 },
    });
    expect(crmRecordUrl(sf, '00Q1', token)).toBe('https://eu1.my.salesforce.com/00Q1');
    expect(testRequest(sf, token).url).toBe('https://eu1.my.salesforce.com/services/data/v60.0/sobjects/Lead/describe');
  });

  it('hubspot: batch upsert by email (lower-cased) with the private app token', () => {
    const hs = connection({
      name: 'HS',
      type: 'hubspot',
      settings: { portal_id: '123' },
      credentials: { private_app_token: 'pat-1' },
    });
    expect(syncRequest(hs, { ...lead, email: 'Ann@Example.EDU' }, { owner: '42', queue: null }, null)).toEqual({
      url: 'https://api.hubapi.com/crm/v3/objects/contacts/batch/upsert',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer pat-1' },
      body: {
        inputs: [
          {
            idProperty: 'email',
            id: 'ann@example.edu',
            properties: { email: 'ann@example.edu', firstname: 'Ann', phone: '+15555550100', hubspot_owner_id: '42' },
          },
        ],
      },
    });
    expect(
      readSyncResponse(
        hs,
        response(200, { status: 'COMPLETE', results: [{ id: '901', new: true, properties: {} }] }),
        NOW,
      ),
    ).toEqual({ kind: 'synced', crmId: '901', created: true });
    expect(
      readSyncResponse(
        hs,
        response(207, { status: 'COMPLETE', results: [], errors: [{ message: 'Property "x" does not exist' }] }),
        NOW,
      ),
    ).toEqual({ kind: 'permanent', error: 'HubSpot refused the contact: Property "x" does not exist', status: 207 });
    expect(crmRecordUrl(hs, '901')).toBe('https://app.hubspot.com/contacts/123/record/0-1/901');
  });
});

describe('failure classes', () => {
  it('429, 5xx, 408 and lost connections are retryable; 401 asks for a token; other 4xx, 3xx and refused targets are permanent', () => {
    expect(classifyFailure(response(429, { message: 'slow down' }, { 'retry-after': '120' }), NOW)).toEqual({
      kind: 'retryable',
      error: 'HTTP 429: slow down',
      status: 429,
      retryAfterMs: 120_000,
    });
    expect(classifyFailure(response(503, 'upstream down'), NOW)).toEqual({
      kind: 'retryable',
      error: 'HTTP 503: upstream down',
      status: 503,
      retryAfterMs: null,
    });
    expect(
      classifyFailure({ ...response(null), failure: { code: 'TIMEOUT', message: 'no answer within 30000 ms' } }, NOW)
        .kind,
    ).toBe('retryable');
    expect(
      classifyFailure(
        { ...response(null), failure: { code: 'TARGET_REFUSED', message: 'the target must use https' } },
        NOW,
      ).kind,
    ).toBe('permanent');
    expect(
      classifyFailure(response(401, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]), NOW),
    ).toEqual({ kind: 'unauthorized', error: 'HTTP 401: INVALID_SESSION_ID: Session expired or invalid', status: 401 });
    expect(
      classifyFailure(
        response(400, [{ message: 'Required fields are missing: [LastName]', errorCode: 'REQUIRED_FIELD_MISSING' }]),
        NOW,
      ),
    ).toEqual({
      kind: 'permanent',
      error: 'HTTP 400: REQUIRED_FIELD_MISSING: Required fields are missing: [LastName]',
      status: 400,
    });
    expect(classifyFailure(response(301), NOW).kind).toBe('permanent');
  });

  it("Salesforce's API limits and row locks are retryable, the daily allowance after an hour; a 300 names the Leads that share the external id", () => {
    expect(
      classifyFailure(
        response(403, [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]),
        NOW,
      ),
    ).toEqual({
      kind: 'retryable',
      error: 'HTTP 403: REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.',
      status: 403,
      retryAfterMs: 3_600_000,
    });
    expect(
      classifyFailure(
        response(403, [
          {
            message: 'ConcurrentRequests (Concurrent API Requests) Limit exceeded.',
            errorCode: 'REQUEST_LIMIT_EXCEEDED',
          },
        ]),
        NOW,
      ),
    ).toMatchObject({ kind: 'retryable', retryAfterMs: 300_000 });
    expect(
      classifyFailure(
        response(400, [
          {
            message: 'unable to obtain exclusive access to this record or 1 records: 00Q1',
            errorCode: 'UNABLE_TO_LOCK_ROW',
            fields: [],
          },
        ]),
        NOW,
      ),
    ).toMatchObject({ kind: 'retryable', status: 400, retryAfterMs: null });
    // Other 403s (a profile without access) stay permanent.
    expect(
      classifyFailure(
        response(403, [
          { message: 'insufficient access rights on object id', errorCode: 'INSUFFICIENT_ACCESS_OR_READONLY' },
        ]),
        NOW,
      ).kind,
    ).toBe('permanent');
    const sf = connection({
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: 'https://acme.my.salesforce.com' },
      credentials: { client_id: 'id', client_secret: 's' },
    });
    expect(
      readSyncResponse(
        sf,
        response(300, ['/services/data/v60.0/sobjects/Lead/00Q1', '/services/data/v60.0/sobjects/Lead/00Q2']),
        NOW,
        'lead_1',
      ),
    ).toEqual({
      kind: 'permanent',
      error:
        "HTTP 300: 2 Salesforce Leads have this lead's external id (Leadstream_Id__c = lead_1): 00Q1, 00Q2; merge them or clear the field on all but one, then sync again",
      status: 300,
    });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs({ 'retry-after': '30' }, NOW)).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': new Date(NOW + 90_000).toUTCString() }, NOW)).toBe(90_000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, NOW)).toBeNull();
  });
});

describe('retry schedule and sync actor', () => {
  const schedule = parseCrmRetrySchedule('1m,5m,30m,2h,24h');

  it('steps through the schedule, jumps ahead for a longer Retry-After, and ends', () => {
    expect(nextRetryStep(schedule, 1, null)?.step.name).toBe('1m');
    expect(nextRetryStep(schedule, 2, 10_000)?.step.name).toBe('5m');
    expect(nextRetryStep(schedule, 1, 10 * 60_000)?.step.name).toBe('30m');
    expect(nextRetryStep(schedule, 1, 48 * 3_600_000)?.step.name).toBe('24h');
    expect(nextRetryStep(schedule, 6, null)).toBeNull();
    expect(() => parseCrmRetrySchedule('1m,soon')).toThrow('"soon" is not a duration');
    // The same text as WEBHOOK_RETRY_SCHEDULE: a delay may repeat, and is named in its largest unit.
    expect(parseCrmRetrySchedule('1s,1s,90s,1d')).toEqual([
      { name: '1s', delayMs: 1_000 },
      { name: '1s', delayMs: 1_000 },
      { name: '90s', delayMs: 90_000 },
      { name: '24h', delayMs: 86_400_000 },
    ]);
  });

  it('goes pending → syncing → retry_scheduled → syncing → synced, keeps a known id on an id-less answer, and resyncs by hand', () => {
    let actor = startCrmSync('crmsync_lead_1_crm_1');
    actor = advanceCrmSync(actor, { type: 'ATTEMPT', at: 'a1' });
    actor = advanceCrmSync(actor, {
      type: 'RETRY_SCHEDULED',
      at: 'a1',
      error: 'HTTP 503',
      status: 503,
      nextAttemptAt: 'a2',
    });
    expect(actor.state).toBe('retry_scheduled');
    actor = advanceCrmSync(advanceCrmSync(actor, { type: 'ATTEMPT', at: 'a2' }), {
      type: 'SUCCEEDED',
      at: 'a2',
      crmId: '00Q1',
      status: 201,
    });
    expect(actor).toMatchObject({ state: 'synced', context: { attempts: 2, crmId: '00Q1', lastError: null } });
    expect(crmSyncCan(actor, { type: 'ATTEMPT', at: 'a3' })).toBe(false);
    actor = advanceCrmSync(advanceCrmSync(advanceCrmSync(actor, { type: 'RESYNC' }), { type: 'ATTEMPT', at: 'a3' }), {
      type: 'SUCCEEDED',
      at: 'a3',
      crmId: null,
      status: 204,
    });
    expect(actor.context).toMatchObject({ attempts: 1, crmId: '00Q1', syncedAt: 'a3' });
  });

  it("derives the lead's crm fields: pending while any sync runs, failed when one failed, the first target's id", () => {
    expect(leadCrmFields([])).toEqual({ crm_sync_status: 'not_applicable', crm_id: null, crm_synced_at: null });
    const second = { status: 'synced' as const, crm_id: 'B', synced_at: '2026-01-02', target_index: 1 };
    expect(
      leadCrmFields([second, { status: 'retry_scheduled', crm_id: null, synced_at: null, target_index: 0 }]),
    ).toEqual({ crm_sync_status: 'pending', crm_id: 'B', crm_synced_at: '2026-01-02' });
    expect(
      leadCrmFields([second, { status: 'synced', crm_id: 'A', synced_at: '2026-01-01', target_index: 0 }]),
    ).toEqual({ crm_sync_status: 'synced', crm_id: 'A', crm_synced_at: '2026-01-02' });
    expect(
      leadCrmFields([second, { status: 'failed', crm_id: null, synced_at: null, target_index: 0 }]).crm_sync_status,
    ).toBe('failed');
  });
});
