/**
 * Consent evidence and erasure (docs/consent.md), black box: the real `leadstream start` process
 * on each engine set, driven over HTTP. A submission's consent is stored with the lead, hashed,
 * and read back with its tamper check; malformed consent is refused at the edge; the
 * organization's consent requirements reject (422 with reason and rule id) or flag the lead in the
 * intake; an update never changes the evidence and a deletion keeps it; an erasure removes the
 * person from the lead, its activity, the dedup log and an export not yet downloaded, puts the
 * email on a suppression list, emits lead.erased and scrubs the analytics projection. The last test
 * stops the service, changes a stored evidence behind its back and starts it again: the check says so.
 */
import { createHash, randomUUID } from 'node:crypto';
import { LEADS_COLLECTION } from '@leadstream/dal';
import { openAnalytics } from '@leadstream/engine-clickhouse';
import type { Analytics, BaseDocument } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient, type JsonResponse } from './test-support/json-client';
import { parseLeadEvents } from '@leadstream/schemas';

const setups = engineSetups('consent');
const clickhouse = lookupInfra('CLICKHOUSE_URL');
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(setups)('consent evidence and erasure on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const tag = randomUUID().slice(0, 6);
  const database = `consent_${tag}`;
  const env = {
    TOPIC_PARTITIONS: '3',
    DECISION_TIMEOUT_MS: '10000',
    ...(clickhouse.value ? { CLICKHOUSE_URL: clickhouse.value, CLICKHOUSE_DATABASE: database } : {}),
    ...setup.env,
  };
  let server: CliProcess;
  let base = '';
  let owner = '';
  let manager = '';
  let key = '';
  const call = jsonClient(() => base);
  /** The lead of the first test, whose stored evidence the last test changes. */
  let firstLead = '';
  let firstHash = '';
  /** The lead the update test deleted, erased by the erasure test. */
  let deletedLead = '';
  let erasedLead = '';

  const consent = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    text: 'Yes, I agree to be contacted by Consent College and its partners by phone, text and email.',
    given_at: new Date(Date.now() - 60_000).toISOString(),
    page_url: 'https://apply.consent.edu/form',
    ip: '203.0.113.9',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
    certificate_url: 'https://cert.trustedform.com/0123456789abcdef',
    method: 'checkbox',
    ...overrides,
  });
  let people = 0;
  /** A submission of a person of its own (names and phone differ, so deduplication never matches two). */
  const submission = (email: string, extra: Record<string, unknown> = {}): Record<string, unknown> => {
    people++;
    const names = ['Rosalind', 'Marie', 'Lise', 'Emmy', 'Dorothy', 'Barbara', 'Chien', 'Hedy', 'Mary', 'Ada'];
    return {
      email,
      first_name: `${names[people % names.length]}${String.fromCharCode(97 + (people % 26))}`,
      last_name: `Person${'xyzw'[people % 4]}${String.fromCharCode(97 + ((people * 7) % 26))}`,
      phone: `+1415${String(2_000_000 + people * 7_919)}`,
      ip_address: '198.51.100.4',
      form_started_at: new Date(Date.now() - 30_000).toISOString(),
      ...extra,
    };
  };
  const ingest = (body: Record<string, unknown>): Promise<JsonResponse> =>
    call('POST', '/api/v1/leads/ingest', body, key);
  const data = (response: JsonResponse): Record<string, unknown> => response.body['data'] as Record<string, unknown>;

  async function as(
    token: string,
    method: string,
    path: string,
    body: unknown,
    expected: number,
  ): Promise<JsonResponse> {
    const response = await call(method, path, body, token);
    if (response.status !== expected)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response;
  }

  async function leadByEmail(email: string): Promise<Record<string, unknown>> {
    const found = await as(owner, 'GET', `/api/leads?search=${encodeURIComponent(email)}`, undefined, 200);
    const leads = found.body['data'] as Array<Record<string, unknown>>;
    expect(leads).toHaveLength(1);
    return data(await as(owner, 'GET', `/api/leads/${String(leads[0]!['id'])}`, undefined, 200));
  }

  /** The vendor's view of a lead (GET /api/leads/:id/status with the API key): status, rejection reason and rule. */
  async function vendorStatus(id: string): Promise<Record<string, unknown>> {
    return (await as(key, 'GET', `/api/leads/${id}/status`, undefined, 200)).body;
  }

  async function setRequirements(requirements: Record<string, unknown>): Promise<JsonResponse> {
    return as(owner, 'PATCH', '/api/organization', { settings: { consent_requirements: requirements } }, 200);
  }

  async function start(): Promise<void> {
    server = CliProcess.start(['start'], serviceEnv(env));
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
    base = String(listening['url']);
  }

  beforeAll(async () => {
    const store = await setup.openStore();
    await ensureAllIndexes(store);
    await store.close();
    await start();
    const registered = await call('POST', '/api/auth/register', {
      email: `owner.${tag}@consent.edu`,
      password: 'Passw0rd!',
      first_name: 'Olive',
      last_name: 'Owner',
      organization_name: 'Consent College',
    });
    expect(registered.status).toBe(201);
    owner = String(registered.body['token']);
    const managerEmail = `manager.${tag}@consent.edu`;
    await as(
      owner,
      'POST',
      '/api/users',
      { email: managerEmail, password: 'Passw0rd!', first_name: 'Max', last_name: 'Manager', role: 'manager' },
      201,
    );
    manager = String(
      (await call('POST', '/api/auth/login', { email: managerEmail, password: 'Passw0rd!' })).body['token'],
    );
    const vendor = data(await as(owner, 'POST', '/api/vendors', { name: 'Consent forms', type: 'inquiry' }, 201));
    key = String(
      data(
        await as(
          owner,
          'POST',
          '/api/api-keys',
          { name: 'forms', vendor_id: vendor['id'], permissions: ['read', 'write'] },
          201,
        ),
      )['key'],
    );
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  it('stores the evidence with the lead: canonical JSON, its SHA-256 and the time received', async () => {
    const given = consent();
    const before = Date.now();
    const answer = await ingest(submission(`first.${tag}@example.edu`, { consent: given }));
    expect(answer).toMatchObject({ status: 201, body: { success: true, message: 'Lead accepted' } });
    firstLead = String(answer.body['lead_id']);
    const read = data(await as(owner, 'GET', `/api/leads/${firstLead}/consent`, undefined, 200));
    const canonical = `{"certificate_url":${JSON.stringify(given['certificate_url'])},"given_at":${JSON.stringify(given['given_at'])},"ip":"203.0.113.9","method":"checkbox","page_url":"https://apply.consent.edu/form","text":${JSON.stringify(given['text'])},"user_agent":"Mozilla/5.0 (X11; Linux x86_64)"}`;
    expect(read).toEqual({
      lead_id: firstLead,
      evidence: given,
      canonical_json: canonical,
      sha256: sha256(canonical),
      received_at: expect.any(String),
      matches: true,
      erased: false,
      lead_deleted_at: null,
    });
    expect(Date.parse(String(read['received_at']))).toBeGreaterThanOrEqual(before - 1_000);
    firstHash = String(read['sha256']);
    // A lead without consent has none to show.
    const plain = await ingest(submission(`plain.${tag}@example.edu`));
    expect(plain.status).toBe(201);
    expect(
      data(await as(owner, 'GET', `/api/leads/${String(plain.body['lead_id'])}/consent`, undefined, 200)),
    ).toMatchObject({ evidence: null, sha256: null, matches: null });
    // Another organization's user does not see it.
    const stranger = await call('POST', '/api/auth/register', {
      email: `stranger.${tag}@other.edu`,
      password: 'Passw0rd!',
      first_name: 'Sam',
      last_name: 'Stranger',
      organization_name: 'Other College',
    });
    const foreign = await call('GET', `/api/leads/${firstLead}/consent`, undefined, String(stranger.body['token']));
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: 'LEAD_NOT_FOUND' } } });
  });

  it('refuses malformed consent at the edge: 400 on single ingest, a failed item in bulk, 400 on POST /api/leads', async () => {
    const single = await ingest(
      submission(`bad.${tag}@example.edu`, { consent: consent({ method: 'telepathy', ip: undefined }) }),
    );
    expect(single.status).toBe(400);
    expect(single.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    const fields = JSON.stringify(single.body['details']);
    expect(fields).toContain('consent');
    expect(fields).toContain('method');
    expect(fields).toContain('ip');

    const bulk = await call(
      'POST',
      '/api/v1/leads/bulk-ingest',
      {
        leads: [
          submission(`bulk.ok.${tag}@example.edu`, { consent: consent() }),
          submission(`bulk.bad.${tag}@example.edu`, { consent: consent({ given_at: 'yesterday', extra: 1 }) }),
        ],
      },
      key,
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body).toMatchObject({ total: 2, accepted: 1, rejected: 1 });
    const results = bulk.body['results'] as Array<Record<string, unknown>>;
    expect(results[0]).toMatchObject({ index: 0, success: true });
    expect(results[1]).toMatchObject({ index: 1, success: false });
    expect(JSON.stringify(results[1])).toContain('given_at');

    const created = await call(
      'POST',
      '/api/leads',
      { ...submission(`user.${tag}@example.edu`), consent: { text: 'yes' } },
      owner,
    );
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect(JSON.stringify((created.body['error'] as Record<string, unknown>)['details'])).toContain('consent');
    // With good consent POST /api/leads stores it like ingestion.
    const good = await as(
      owner,
      'POST',
      '/api/leads',
      { ...submission(`user.ok.${tag}@example.edu`), consent: consent() },
      201,
    );
    const evidence = data(await as(owner, 'GET', `/api/leads/${String(data(good)['id'])}/consent`, undefined, 200));
    expect(evidence).toMatchObject({ matches: true, evidence: { method: 'checkbox' } });
  });

  it('reads consent_requirements and consent_retention_days in the organization settings, and refuses bad ones', async () => {
    const initial = data(await as(owner, 'GET', '/api/organization', undefined, 200));
    expect(initial['settings']).toMatchObject({
      consent_requirements: {
        required: false,
        required_terms: [],
        forbidden_terms: [],
        max_age_hours: null,
        action: 'reject',
      },
      consent_retention_days: 1826,
      validation: expect.any(Object),
    });
    await setRequirements({ required_terms: ['agree to be contacted by {{*}} by phone'] });
    await as(owner, 'PATCH', '/api/organization', { settings: { consent_retention_days: 365 } }, 200);
    const read = data(await as(owner, 'GET', '/api/organization', undefined, 200));
    expect(read['settings']).toMatchObject({
      consent_requirements: {
        required: false,
        required_terms: ['agree to be contacted by {{*}} by phone'],
        forbidden_terms: [],
        max_age_hours: null,
        action: 'reject',
      },
      consent_retention_days: 365,
    });
    const bad = await call(
      'PATCH',
      '/api/organization',
      { settings: { consent_requirements: { action: 'ignore', max_age_hours: -1, unknown: true } } },
      owner,
    );
    expect(bad.status).toBe(400);
    expect(
      (bad.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field).sort(),
    ).toEqual([
      'settings.consent_requirements.action',
      'settings.consent_requirements.max_age_hours',
      'settings.consent_requirements.unknown',
    ]);
    // A manager reads but does not write the organization's settings.
    expect(
      (await call('PATCH', '/api/organization', { settings: { consent_requirements: { required: true } } }, manager))
        .status,
    ).toBe(403);
  });

  it('rejects a lead whose consent fails a requirement: 422 with reason and rule_id, stored rejected', async () => {
    await setRequirements({
      required: true,
      required_terms: ['agree to be contacted by {{*}} by phone'],
      forbidden_terms: ['no calls'],
      max_age_hours: 24,
      action: 'reject',
    });
    const cases: Array<[string, Record<string, unknown> | undefined, string, string]> = [
      ['missing', undefined, 'consent_missing', 'consent.required'],
      ['terms', consent({ text: 'I agree to receive emails.' }), 'consent_invalid', 'consent.required_terms'],
      [
        'forbidden',
        consent({ text: 'I agree to be contacted by the college by phone, but no calls on Sundays.' }),
        'consent_invalid',
        'consent.forbidden_terms',
      ],
      [
        'old',
        consent({ given_at: new Date(Date.now() - 25 * 3_600_000).toISOString() }),
        'consent_invalid',
        'consent.max_age',
      ],
    ];
    for (const [label, given, reason, ruleId] of cases) {
      const email = `reject.${label}.${tag}@example.edu`;
      const answer = await ingest(submission(email, given ? { consent: given } : {}));
      expect(answer).toMatchObject({
        status: 422,
        body: { success: false, error: 'Lead rejected', reason, rule_id: ruleId },
      });
      const stored = await leadByEmail(email);
      expect(stored).toMatchObject({ status: 'rejected', validation_status: 'failed' });
      expect(await vendorStatus(String(stored['id']))).toMatchObject({
        status: 'rejected',
        rejection_reason: reason,
        rule_id: ruleId,
      });
    }
    // The wildcard stands for the words between: this text passes every requirement.
    const passing = await ingest(submission(`pass.${tag}@example.edu`, { consent: consent() }));
    expect(passing).toMatchObject({ status: 201, body: { success: true } });

    const bulk = await call(
      'POST',
      '/api/v1/leads/bulk-ingest',
      {
        leads: [
          submission(`bulk.pass.${tag}@example.edu`, { consent: consent() }),
          submission(`bulk.missing.${tag}@example.edu`),
        ],
      },
      key,
    );
    expect(bulk.body).toMatchObject({ total: 2, accepted: 1, rejected: 1 });
    expect((bulk.body['results'] as unknown[])[1]).toMatchObject({
      index: 1,
      success: false,
      reason: 'consent_missing',
      rule_id: 'consent.required',
    });
  });

  it('flags the lead for manual review instead when the action is flag', async () => {
    await setRequirements({ action: 'flag' });
    const email = `flag.${tag}@example.edu`;
    const answer = await ingest(submission(email));
    expect(answer).toMatchObject({ status: 201, body: { success: true } });
    expect(answer.body['flags']).toContain('manual_review');
    const lead = await leadByEmail(email);
    expect(lead).toMatchObject({
      validation_status: 'flagged',
      review_flags: [
        { rule_id: 'consent.required', reason: expect.stringContaining('consent_missing'), severity: 'high' },
      ],
    });
    await setRequirements({
      required: false,
      required_terms: [],
      forbidden_terms: [],
      max_age_hours: null,
      action: 'reject',
    });
  });

  it('keeps the evidence through updates (which cannot set it) and after the lead is deleted', async () => {
    const answer = await ingest(submission(`update.${tag}@example.edu`, { consent: consent({ method: 'signature' }) }));
    expect(answer.status).toBe(201);
    const id = String(answer.body['lead_id']);
    const before = data(await as(owner, 'GET', `/api/leads/${id}/consent`, undefined, 200));
    await as(owner, 'PATCH', `/api/leads/${id}`, { first_name: 'Rosa', status: 'contacted' }, 200);
    const refused = await call('PATCH', `/api/leads/${id}`, { consent: consent({ text: 'something else' }) }, owner);
    expect(refused.status).toBe(400);
    expect(data(await as(owner, 'GET', `/api/leads/${id}/consent`, undefined, 200))).toEqual(before);
    await as(owner, 'DELETE', `/api/leads/${id}`, undefined, 204);
    deletedLead = id;
    expect((await call('GET', `/api/leads/${id}`, undefined, owner)).status).toBe(404);
    const kept = data(await as(owner, 'GET', `/api/leads/${id}/consent`, undefined, 200));
    expect(kept).toMatchObject({
      evidence: before['evidence'],
      sha256: before['sha256'],
      matches: true,
      lead_deleted_at: expect.any(String),
    });
  });

  it('erases a person: owner or admin only; lead, activity, dedup log, the export not yet downloaded, suppression, lead.erased, analytics', async () => {
    const email = `erase.${tag}@example.edu`;
    const answer = await ingest(submission(email, { first_name: 'Erin', last_name: 'Erasable', consent: consent() }));
    expect(answer.status).toBe(201);
    const id = String(answer.body['lead_id']);
    erasedLead = id;
    // Wait for the pipeline to finish with the lead (enriched), so every event of it exists.
    for (let i = 0; i < 300; i++) {
      if ((await vendorStatus(id))['enrichment_status'] === 'completed') break;
      await pause(100);
    }
    const exported = await as(
      owner,
      'POST',
      '/api/leads/export',
      { format: 'csv', fields: ['id', 'email', 'first_name', 'last_name', 'phone'] },
      200,
    );
    const exportId = String(exported.body['export_id']);
    let exportStatus = exported;
    for (let i = 0; i < 300 && exportStatus.body['status'] === 'processing'; i++) {
      await pause(100);
      exportStatus = await as(owner, 'GET', `/api/exports/${exportId}`, undefined, 200);
    }
    expect(exportStatus.body).toMatchObject({ status: 'completed' });
    const rowsBefore = Number(exportStatus.body['row_count']);
    const list = data(
      await as(
        owner,
        'POST',
        '/api/suppression-lists',
        { name: `Erased ${tag}`, kind: 'email', action: 'reject' },
        201,
      ),
    );

    const forbidden = await call('POST', `/api/leads/${id}/erase`, {}, manager);
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 'INSUFFICIENT_PERMISSIONS' } } });
    expect((await call('POST', `/api/leads/${id}/erase`, { suppress_list: 'x' }, owner)).status).toBe(400);

    const erased = await as(owner, 'POST', `/api/leads/${id}/erase`, { suppress_list_id: list['id'] }, 200);
    expect(data(erased)).toMatchObject({
      lead_id: id,
      erased_at: expect.any(String),
      exports_cleaned: 1,
      suppression: { list_id: list['id'], added: 1 },
    });

    // The lead: a tombstone that keeps its status, vendor and times.
    const lead = data(await as(owner, 'GET', `/api/leads/${id}`, undefined, 200));
    expect(lead).toMatchObject({
      id,
      email: '',
      first_name: null,
      last_name: null,
      phone: null,
      ip_address: null,
      status: 'active',
      custom_fields: {},
    });
    expect(data(await as(owner, 'GET', `/api/leads/${id}/consent`, undefined, 200))).toMatchObject({
      evidence: null,
      sha256: null,
      erased: true,
    });
    // Its activity: the entries stay (with lead.erased once the activity consumer has it), without personal data.
    let activity: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 120; i++) {
      activity = (await as(owner, 'GET', `/api/leads/${id}/activity`, undefined, 200)).body['data'] as Array<
        Record<string, unknown>
      >;
      if (activity.some((entry) => entry['event'] === 'lead.erased')) break;
      await pause(250);
    }
    expect(activity.map((entry) => entry['event'])).toEqual(expect.arrayContaining(['lead.created', 'lead.erased']));
    const activityText = JSON.stringify(activity);
    expect(activityText).not.toContain('erase.');
    expect(activityText).not.toContain('198.51.100.4');
    expect(activityText).not.toContain('Erin');
    // The dedup log keeps the decision, not the person.
    const log = (await as(owner, 'GET', '/api/dedup/log?limit=100', undefined, 200)).body;
    const logText = JSON.stringify(log);
    expect(logText).toContain(id);
    expect(logText).not.toContain(email);
    expect(logText).not.toContain('Erasable');
    // The export not yet downloaded lost the lead's row, and only that row.
    const after = await as(owner, 'GET', `/api/exports/${exportId}`, undefined, 200);
    expect(after.body).toMatchObject({ status: 'completed', row_count: rowsBefore - 1 });
    const csv = await (
      await fetch(String(after.body['download_url']), { headers: { authorization: `Bearer ${owner}` } })
    ).text();
    expect(csv).not.toContain(id);
    expect(csv).not.toContain(email);
    expect(csv.trimEnd().split('\n')).toHaveLength(rowsBefore);
    expect(csv).toContain(`first.${tag}@example.edu`);
    // The email is on the suppression list: the person cannot come back through a vendor.
    expect(
      data(
        await as(
          owner,
          'GET',
          `/api/suppression-lists/${String(list['id'])}/entries/check?value=${encodeURIComponent(email)}`,
          undefined,
          200,
        ),
      ),
    ).toMatchObject({ suppressed: true });
    expect(await ingest(submission(email))).toMatchObject({ status: 422, body: { reason: 'suppressed' } });
    // A deleted lead can be erased too: its kept evidence goes.
    await as(owner, 'POST', `/api/leads/${deletedLead}/erase`, {}, 200);
    expect(data(await as(owner, 'GET', `/api/leads/${deletedLead}/consent`, undefined, 200))).toMatchObject({
      evidence: null,
      erased: true,
      lead_deleted_at: expect.any(String),
    });
    // Erasing again changes nothing and emits nothing new.
    expect(data(await as(owner, 'POST', `/api/leads/${id}/erase`, {}, 200))).toMatchObject({
      erased_at: data(erased)['erased_at'],
    });

    if (clickhouse.value) {
      // The projection: the lead's rows lose the email key and the personal fields.
      const analytics: Analytics = await openAnalytics({ url: clickhouse.value, database });
      try {
        let rows: Array<{ event: string; email_key: string; data: string }> = [];
        for (let i = 0; i < 600; i++) {
          rows = await analytics.query(
            'SELECT event, email_key, data FROM lead_events FINAL WHERE lead_id = {lead:String}',
            { lead: id },
          );
          if (
            rows.some((row) => row.event === 'lead.erased') &&
            rows.every((row) => row.email_key === '' && !row.data.includes(email))
          )
            break;
          await pause(100);
        }
        expect(rows.map((row) => row.event)).toEqual(expect.arrayContaining(['lead.created', 'lead.erased']));
        expect(rows.every((row) => row.email_key === '')).toBe(true);
        const projected = rows.map((row) => row.data).join(' ');
        expect(projected).not.toContain(email);
        expect(projected).not.toContain('Erin');
      } finally {
        await analytics.close();
      }
    }
  }, 180_000);

  it('shows a stored evidence changed behind its back: the hash no longer matches; lead.erased carries no personal data', async () => {
    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    const log = await setup.openLog();
    try {
      const events = (await readTopic(log, 'leads.events'))
        .flatMap((record) => parseLeadEvents(record.value))
        .filter((message) => message.event === 'lead.erased');
      // The erased lead and the deleted one, once each.
      expect(events).toHaveLength(2);
      expect(events.map((message) => message.data['lead_id']).sort()).toEqual([deletedLead, erasedLead].sort());
      expect(events.find((message) => message.data['lead_id'] === erasedLead)?.data).toMatchObject({
        lead: { status: 'active' },
        erased_at: expect.any(String),
      });
      expect(JSON.stringify(events)).not.toContain('@example.edu');
    } finally {
      await log.close();
    }
    const store = await setup.openStore();
    try {
      const leads = store.collection<BaseDocument>(LEADS_COLLECTION);
      const stored = await leads.findOne({ _id: firstLead });
      const record = stored?.['consent'] as { evidence: Record<string, unknown> } | undefined;
      expect(record?.evidence['method']).toBe('checkbox');
      await leads.updateOne(
        { _id: firstLead },
        {
          $set: {
            consent: { ...record, evidence: { ...record?.evidence, text: 'I agree to nothing at all.' } } as never,
          },
        },
      );
    } finally {
      await store.close();
    }
    await start();
    const read = data(await as(owner, 'GET', `/api/leads/${firstLead}/consent`, undefined, 200));
    expect(read).toMatchObject({ sha256: firstHash, matches: false, evidence: { text: 'I agree to nothing at all.' } });
  }, 240_000);
});
