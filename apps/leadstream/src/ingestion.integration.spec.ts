/**
 * Vendor ingestion, black box: the real `leadstream start` process on the embedded engines and on
 * Kafka + FerretDB, driven over HTTP with keys made in the store beforehand. Every outcome of
 * ingestion (docs/api-conventions.md "Vendor ingestion answers") with its status, body and headers;
 * the events and activity entries it leaves behind.
 */
import { randomUUID } from 'node:crypto';
import { LeadActivityRepository, LeadRepository } from '@leadstream/dal';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { parseLeadEvents } from '@leadstream/schemas';

const setups = engineSetups('ingest');

describe.each(setups)('vendor ingestion on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let base: string;
  let liveKey: string;
  let sandboxKey: string;
  let limitedKey: string;
  let readOnlyKey: string;
  let organizationId: string;
  let vendorId: string;
  const accepted: string[] = [];

  /** Runs `leadstream <args>` (the admin CLI) against the same engines and returns its stdout. */
  const cli = (...args: string[]): Promise<string> => CliProcess.output(args, setup.env);

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

    // Keys are made the way an operator makes them: with the CLI, beside the running service.
    organizationId = await cli('org', 'create', '--name', 'Black Box University');
    vendorId = await cli('vendor', 'create', '--org', organizationId, '--name', 'Inquiry Co', '--type', 'inquiry');
    const key = async (...extra: string[]): Promise<string> =>
      String(
        (
          JSON.parse(await cli('key', 'create', '--org', organizationId, '--vendor', vendorId, '--json', ...extra)) as {
            key: string;
          }
        ).key,
      );
    liveKey = await key('--name', 'live');
    sandboxKey = await key('--name', 'sandbox', '--sandbox');
    limitedKey = await key('--name', 'limited', '--permissions', 'write', '--rate-limit', '2');
    readOnlyKey = await key('--name', 'reader', '--permissions', 'read');
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  const post = (path: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  const secondsAgo = (seconds: number): string => new Date(Date.now() - seconds * 1000).toISOString();

  it('accepts a valid lead with 201 and the documented body, request id and rate-limit headers', async () => {
    const response = await post(
      '/api/v1/leads/ingest',
      liveKey,
      {
        email: 'Ada.Lovelace@Example.edu',
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: '(415) 555-2671',
        program_interest: 'Computer Science',
        form_started_at: secondsAgo(30),
      },
      { 'X-Request-ID': 'vendor-req-1' },
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: true, message: 'Lead accepted' });
    expect(body['lead_id']).toMatch(/^lead_[0-9a-f]{32}$/);
    expect(Date.parse(String(body['timestamp']))).not.toBeNaN();
    expect(response.headers.get('x-request-id')).toBe('vendor-req-1');
    expect(response.headers.get('x-ratelimit-limit')).toBe('500');
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(500);
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    accepted.push(String(body['lead_id']));

    const status = await fetch(`${base}/api/leads/${String(body['lead_id'])}/status`, {
      headers: { authorization: `Bearer ${liveKey}` },
    });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({
      id: body['lead_id'],
      status: 'accepted',
      validation_status: 'passed',
      enrichment_status: 'completed',
    });
    const portal = await fetch(`${base}/api/vendor-portal/leads/${String(body['lead_id'])}`, {
      headers: { authorization: `Bearer ${readOnlyKey}` },
    });
    expect(portal.status).toBe(200);
  });

  it('answers the same lead again with 409 and the duplicate body, on the other path family', async () => {
    const response = await post('/api/leads/inbound', liveKey, {
      email: 'ada.lovelace@example.edu',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      success: false,
      error: 'Duplicate lead detected',
      duplicate_of: accepted[0],
      similarity_score: 100,
      matched_fields: ['email'],
    });
  });

  it.each([
    [
      'a disposable address',
      () => ({ email: 'someone@mailinator.com' }),
      'disposable_email',
      'validation.disposable_email',
    ],
    [
      'a filled honeypot',
      () => ({ email: 'bot@example.edu', website: 'http://spam.example' }),
      'bot_detected',
      'validation.bot_honeypot',
    ],
    [
      'a form sent in under a second',
      () => ({ email: 'fast@example.edu', form_started_at: secondsAgo(0.2) }),
      'bot_detected',
      'validation.bot_timing',
    ],
  ])('rejects %s with 422, reason and rule id', async (_case, body, reason, ruleId) => {
    const response = await post('/api/v1/leads/ingest', liveKey, body());
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ success: false, error: 'Lead rejected', reason, rule_id: ruleId });
  });

  it('answers invalid input with 400 and details naming each field', async () => {
    const response = await post('/api/v1/leads/ingest', liveKey, { email: 'not-an-email', phone: '12', emial: 'typo' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { success: boolean; error: string; details: Array<{ field: string }> };
    expect(body).toMatchObject({ success: false, error: 'Validation failed' });
    expect(body.details.map((detail) => detail.field)).toContain('emial');

    const semantic = await post('/api/v1/leads/ingest', liveKey, { email: 'not-an-email', phone: '12' });
    expect(semantic.status).toBe(400);
    const fields = ((await semantic.json()) as { details: Array<{ field: string }> }).details
      .map((detail) => detail.field)
      .sort();
    expect(fields).toEqual(['email', 'phone']);
  });

  it('accepts a typo with a suggestion and a slow-ish form with a review flag', async () => {
    const typo = await post('/api/v1/leads/ingest', liveKey, { email: 'grace@gmial.com', first_name: 'Grace' });
    expect(typo.status).toBe(201);
    expect(await typo.json()).toMatchObject({
      success: true,
      flags: ['email_typo'],
      warnings: [{ field: 'email', message: expect.stringContaining('gmail.com') }],
    });

    const hasty = await post('/api/v1/leads/ingest', liveKey, {
      email: 'hasty@example.edu',
      form_started_at: secondsAgo(2),
    });
    expect(hasty.status).toBe(201);
    expect(((await hasty.json()) as { flags: string[] }).flags).toEqual(
      expect.arrayContaining(['manual_review', 'possible_bot']),
    );
  });

  it('decides a sandbox batch item by item, duplicates within the batch included', async () => {
    const response = await post('/sandbox/api/v1/leads/bulk-ingest', sandboxKey, {
      leads: [
        { email: 'batch.one@example.edu' },
        { email: 'batch.one@example.edu' },
        { email: 'broken@' },
        { email: 'x@mailinator.com' },
      ],
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      success: boolean;
      total: number;
      accepted: number;
      rejected: number;
      results: Array<Record<string, unknown>>;
    };
    expect(body).toMatchObject({ success: true, total: 4, accepted: 1, rejected: 3 });
    expect(body.results.map((result) => [result['index'], result['success']])).toEqual([
      [0, true],
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(body.results[1]).toMatchObject({
      error: 'Duplicate lead detected',
      duplicate_of: body.results[0]?.['lead_id'],
    });
    expect(body.results[2]).toMatchObject({ email: 'broken@', error: 'Validation failed' });

    // The sandbox is its own world: the live lead of the same person is not a duplicate there.
    const sandboxSingle = await post('/sandbox/api/leads/inbound', sandboxKey, { email: 'ada.lovelace@example.edu' });
    expect(sandboxSingle.status).toBe(201);
  });

  it('refuses a batch over 100 leads and keys used on the wrong base URL', async () => {
    const tooMany = await post('/api/leads/inbound/batch', liveKey, {
      leads: Array.from({ length: 101 }, (_, i) => ({ email: `n${i}@example.edu` })),
    });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ success: false, error: 'Validation failed' });

    const sandboxOnLive = await post('/api/v1/leads/ingest', sandboxKey, { email: 'a@example.edu' });
    expect(sandboxOnLive.status).toBe(401);
    expect(await sandboxOnLive.json()).toMatchObject({ success: false, code: 'API_KEY_INVALID' });
    const liveOnSandbox = await post('/sandbox/api/v1/leads/ingest', liveKey, { email: 'a@example.edu' });
    expect(liveOnSandbox.status).toBe(401);
    const unknown = await post('/api/v1/leads/ingest', 'vk_live_thisisnotakeyatallnotatallnotatall', {
      email: 'a@example.edu',
    });
    expect(unknown.status).toBe(401);
    const readOnly = await post('/api/v1/leads/ingest', readOnlyKey, { email: 'a@example.edu' });
    expect(readOnly.status).toBe(403);
    expect(await readOnly.json()).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS' });
  });

  it('limits a key to its own rate: 429 with the documented body and Retry-After', async () => {
    // Windows are fixed minutes: three calls straddling a minute's end would count in two
    // windows, so start them well inside one (CI once saw 201 for the third call on FerretDB).
    const msLeftInWindow = 60_000 - (Date.now() % 60_000);
    if (msLeftInWindow < 10_000) await new Promise((resolve) => setTimeout(resolve, msLeftInWindow + 100));
    const first = await post('/api/v1/leads/ingest', limitedKey, {
      email: `limit1.${randomUUID().slice(0, 6)}@example.edu`,
    });
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    await post('/api/v1/leads/ingest', limitedKey, { email: `limit2.${randomUUID().slice(0, 6)}@example.edu` });
    const third = await post('/api/v1/leads/ingest', limitedKey, {
      email: `limit3.${randomUUID().slice(0, 6)}@example.edu`,
    });
    expect(third.status).toBe(429);
    const body = (await third.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, error: 'Rate limit exceeded', limit: 2, window: 60 });
    expect(Number(body['retry_after'])).toBeGreaterThan(0);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('leaves the documented events on leads.events and activity entries in the store', async () => {
    const leadId = accepted[0] ?? '';
    if (!setup.readWhileRunning) {
      server.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
    const log = await setup.openLog();
    const store = await setup.openStore();
    try {
      const events = (await readTopic(log, 'leads.events')).flatMap(
        (record) =>
          parseLeadEvents(record.value) as unknown as Array<
            Record<string, unknown> & { data: Record<string, unknown> }
          >,
      );
      const names = new Set(events.map((event) => event['event']));
      for (const name of ['lead.created', 'lead.validated', 'lead.accepted', 'lead.rejected', 'lead.duplicate'])
        expect(names).toContain(name);
      const created = events.find(
        (event) => event['event'] === 'lead.created' && (event.data['lead'] as { id: string }).id === leadId,
      );
      expect(created).toMatchObject({
        organization_id: organizationId,
        environment: 'live',
        data: { lead: { id: leadId, email: 'Ada.Lovelace@example.edu', first_name: 'Ada', phone: '+14155552671' } },
      });
      expect(String(created?.['id'])).toMatch(/^evt_/);
      const rejected = events.find(
        (event) =>
          event['event'] === 'lead.rejected' &&
          event['environment'] === 'live' &&
          event.data['rejection_reason'] === 'disposable_email',
      );
      expect(rejected?.data).toMatchObject({
        lead: { email: 'someone@mailinator.com' },
        rule_id: 'validation.disposable_email',
      });

      const tenant = { organizationId, environment: 'live' as const };
      const lead = await new LeadRepository(store).findById(tenant, leadId);
      expect(lead).toMatchObject({
        status: 'active',
        vendor_id: vendorId,
        phone: '+14155552671',
        program_interest: 'Computer Science',
      });
      let activity = await new LeadActivityRepository(store).forLead(tenant, leadId);
      // lead.created and lead.validated come through the activity stage, lead.routed from the route stage.
      for (let i = 0; i < 100 && activity.length < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        activity = await new LeadActivityRepository(store).forLead(tenant, leadId);
      }
      expect(activity.map((entry) => entry.event).sort()).toEqual(['lead.created', 'lead.routed', 'lead.validated']);
      expect(activity.find((entry) => entry.event === 'lead.created')?.metadata).toMatchObject({ vendor_id: vendorId });
      expect(activity.find((entry) => entry.event === 'lead.validated')?.metadata['validation_rules']).toEqual(
        expect.arrayContaining(['email_syntax', 'disposable_email']),
      );

      // Sandbox leads carry their expiry (24 h after creation) for the TTL index, and no CRM sync.
      const sandboxEvent = events.find(
        (event) => event['event'] === 'lead.created' && event['environment'] === 'sandbox',
      );
      expect(sandboxEvent?.data['lead']).toMatchObject({ id: expect.any(String) });
      const sandboxLeadId = (sandboxEvent!.data['lead'] as { id: string }).id;
      const sandboxLead = await new LeadRepository(store).findById(
        { organizationId, environment: 'sandbox' },
        sandboxLeadId,
      );
      expect(sandboxLead?.crm_sync_status).toBe('not_applicable');
      expect(sandboxLead?.expires_at).toBeInstanceOf(Date);
      expect((sandboxLead?.expires_at?.getTime() ?? 0) - Date.parse(sandboxLead?.created_at ?? '')).toBe(
        24 * 3_600_000,
      );
      expect(await new LeadRepository(store).findById(tenant, sandboxLeadId)).toBeNull();
    } finally {
      await log.close();
      await store.close();
    }
  }, 120_000);
});
