/**
 * Suppression lists (docs/suppression-lists.md), black box: the real `leadstream start` process on
 * each engine set, driven over HTTP. Lists and their entries through the user API (roles, values
 * normalized as dedup normalizes them, hashed values, check, delete, the CSV import job), then the
 * intake: a lead on a `reject` list is answered 422 `suppressed` and stored rejected, a lead on a
 * `flag` list goes to manual review naming the list, disabled and sandbox-only lists, the lead's
 * "do not contact", and the reason in the CSV export. The last test stops the service and reads the
 * store: entries hold only SHA-256 hashes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { LEADS_COLLECTION, SUPPRESSION_ENTRIES_COLLECTION } from '@leadstream/dal';
import type { BaseDocument } from '@leadstream/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient, type JsonResponse } from './test-support/json-client';

const setups = engineSetups('suppression');
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe.each(setups)('suppression lists on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let base: string;
  let owner: string;
  let manager: string;
  let viewer: string;
  let key: string;
  let sandboxKey: string;
  const call = jsonClient(() => base);
  const tag = randomUUID().slice(0, 6);
  /** The lead the reject test saw refused, read back from the store by the last test. */
  let rejectedLead: { id: string; listId: string } | undefined;

  async function as(
    token: string,
    method: string,
    path: string,
    body: unknown,
    expected: number,
  ): Promise<Record<string, unknown>> {
    const response = await call(method, path, body, token);
    if (response.status !== expected)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }
  const admin = (method: string, path: string, body: unknown, expected: number) =>
    as(owner, method, path, body, expected);
  const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

  function ingest(lead: Record<string, unknown>, sandbox = false): Promise<JsonResponse> {
    return call(
      'POST',
      `${sandbox ? '/sandbox' : ''}/api/v1/leads/ingest`,
      {
        first_name: 'ada',
        last_name: 'lovelace',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
        ...lead,
      },
      sandbox ? sandboxKey : key,
    );
  }

  async function createList(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return data(await admin('POST', '/api/suppression-lists', body, 201));
  }

  /** The one lead whose email holds `text` (the 422 answer names no lead), with its details. */
  async function leadByEmail(text: string, environment = ''): Promise<Record<string, unknown>> {
    const found = await admin(
      'GET',
      `/api/leads?search=${encodeURIComponent(text)}${environment ? `&environment=${environment}` : ''}`,
      undefined,
      200,
    );
    const leads = found['data'] as Array<Record<string, unknown>>;
    expect(leads).toHaveLength(1);
    return leads[0]!;
  }

  async function login(role: 'manager' | 'viewer'): Promise<string> {
    const email = `${role}.${tag}@college.edu`;
    await admin('POST', '/api/users', { email, password: 'Passw0rd!', first_name: role, last_name: 'User', role }, 201);
    const session = await call('POST', '/api/auth/login', { email, password: 'Passw0rd!' });
    expect(session.status).toBe(200);
    return String(session.body['token']);
  }

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
      email: `owner.${tag}@college.edu`,
      password: 'Passw0rd!',
      first_name: 'Olive',
      last_name: 'Owner',
      organization_name: 'Suppression College',
    });
    expect(registered.status).toBe(201);
    owner = String(registered.body['token']);
    manager = await login('manager');
    viewer = await login('viewer');
    const vendor = data(await admin('POST', '/api/vendors', { name: 'List vendor', type: 'inquiry' }, 201));
    const newKey = async (environment: 'live' | 'sandbox') =>
      String(
        data(
          await admin(
            'POST',
            '/api/api-keys',
            { name: environment, vendor_id: vendor['id'], permissions: ['read', 'write'], environment },
            201,
          ),
        )['key'],
      );
    key = await newKey('live');
    sandboxKey = await newKey('sandbox');
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  it('lets owners write lists and managers and viewers only read them', async () => {
    const list = await createList({ name: 'Alumni', kind: 'email' });
    expect(list).toEqual({
      id: expect.stringMatching(/^supl_[0-9A-Za-z]{24}$/),
      name: 'Alumni',
      kind: 'email',
      action: 'reject',
      expires_after_days: null,
      sandbox_only: false,
      enabled: true,
      entry_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = String(list['id']);
    for (const reader of [manager, viewer]) {
      expect(data(await as(reader, 'GET', `/api/suppression-lists/${id}`, undefined, 200))).toEqual(list);
      const listed = await as(reader, 'GET', '/api/suppression-lists?limit=100', undefined, 200);
      expect((listed['data'] as Array<Record<string, unknown>>).map((item) => item['id'])).toContain(id);
      expect(listed['meta']).toMatchObject({ page: 1, limit: 100 });
      const refused = await call('POST', '/api/suppression-lists', { name: 'No', kind: 'email' }, reader);
      expect(refused.status).toBe(403);
      expect((refused.body['error'] as Record<string, unknown>)['code']).toBe('INSUFFICIENT_PERMISSIONS');
      expect((await call('PATCH', `/api/suppression-lists/${id}`, { enabled: false }, reader)).status).toBe(403);
      expect((await call('POST', `/api/suppression-lists/${id}/entries`, { values: ['a@b.edu'] }, reader)).status).toBe(
        403,
      );
      expect((await call('DELETE', `/api/suppression-lists/${id}`, undefined, reader)).status).toBe(403);
    }
    const renamed = data(
      await admin('PATCH', `/api/suppression-lists/${id}`, { name: 'Alumni 2020', action: 'flag' }, 200),
    );
    expect(renamed).toMatchObject({ id, name: 'Alumni 2020', action: 'flag', kind: 'email' });
    const kindChange = await call('PATCH', `/api/suppression-lists/${id}`, { kind: 'phone' }, owner);
    expect(kindChange.status).toBe(400);
    expect(kindChange.body['error']).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'kind', message: 'kind cannot be changed once the list is made' }],
    });
    const invalid = await call('POST', '/api/suppression-lists', { name: 'Bad', kind: 'fax' }, owner);
    expect(invalid.status).toBe(400);
    expect(invalid.body['error']).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'kind' }] });
    await admin('DELETE', `/api/suppression-lists/${id}`, undefined, 204);
    const gone = await call('GET', `/api/suppression-lists/${id}`, undefined, owner);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Suppression list not found' } });
  });

  it('adds, checks and removes entries normalized as dedup normalizes them, or given hashed', async () => {
    const list = await createList({ name: 'Entries', kind: 'email', expires_after_days: 30 });
    const id = String(list['id']);
    const added = data(
      await admin(
        'POST',
        `/api/suppression-lists/${id}/entries`,
        { values: ['Jane.Doe+ads@GMAIL.com', 'x@y.edu'] },
        200,
      ),
    );
    expect(added).toEqual({ list_id: id, added: 2, entry_count: 2 });
    // The same person written another way is already there.
    expect(
      data(await admin('POST', `/api/suppression-lists/${id}/entries`, { values: ['janedoe@googlemail.com'] }, 200)),
    ).toEqual({ list_id: id, added: 0, entry_count: 2 });
    const hashed = data(
      await admin(
        'POST',
        `/api/suppression-lists/${id}/entries`,
        { values: [sha256('hashed.person@school.edu').toUpperCase()], hashed: true },
        200,
      ),
    );
    expect(hashed).toEqual({ list_id: id, added: 1, entry_count: 3 });

    const check = async (value: string, hashedQuery = false) =>
      data(
        await as(
          viewer,
          'GET',
          `/api/suppression-lists/${id}/entries/check?value=${encodeURIComponent(value)}${hashedQuery ? '&hashed=true' : ''}`,
          undefined,
          200,
        ),
      );
    const janeCheck = await check('j.a.n.e.d.o.e@gmail.com');
    expect(janeCheck).toEqual({ suppressed: true, added_at: expect.any(String), expires_at: expect.any(String) });
    expect(Date.parse(String(janeCheck['expires_at'])) - Date.parse(String(janeCheck['added_at']))).toBe(
      30 * 86_400_000,
    );
    expect((await check('Hashed.Person@school.edu'))['suppressed']).toBe(true);
    expect((await check(sha256('x@y.edu'), true))['suppressed']).toBe(true);
    expect(await check('someone.else@gmail.com')).toEqual({ suppressed: false, added_at: null, expires_at: null });
    // A value that cannot be an entry of this list (not an email, not a SHA-256) is not on it: the
    // check answers so instead of refusing a request its OpenAPI operation allows (a fuzzer found it).
    expect(await check('0')).toEqual({ suppressed: false, added_at: null, expires_at: null });
    expect(await check('not-hex', true)).toEqual({ suppressed: false, added_at: null, expires_at: null });
    const tooLong = await call(
      'GET',
      `/api/suppression-lists/${id}/entries/check?value=${'0'.repeat(321)}`,
      undefined,
      viewer,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body['error']).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'value', message: 'value must be at most 320 characters' }],
    });

    const removed = data(
      await admin('DELETE', `/api/suppression-lists/${id}/entries`, { values: ['JaneDoe@gmail.com'] }, 200),
    );
    expect(removed).toEqual({ list_id: id, removed: 1, entry_count: 2 });
    expect((await check('janedoe@gmail.com'))['suppressed']).toBe(false);
    expect(data(await admin('GET', `/api/suppression-lists/${id}`, undefined, 200))['entry_count']).toBe(2);

    const notEmail = await call(
      'POST',
      `/api/suppression-lists/${id}/entries`,
      { values: ['ok@x.edu', 'no-at-sign'] },
      owner,
    );
    expect(notEmail.status).toBe(400);
    expect(notEmail.body['error']).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'values[1]', message: 'values[1] must be a valid email' }],
    });
    const tooMany = await call(
      'POST',
      `/api/suppression-lists/${id}/entries`,
      { values: Array.from({ length: 10_001 }, (_, index) => `p${index}@x.edu`) },
      owner,
    );
    expect(tooMany.status).toBe(400);
    const badHash = await call(
      'POST',
      `/api/suppression-lists/${id}/entries`,
      { values: ['abc'], hashed: true },
      owner,
    );
    expect(badHash.status).toBe(400);
    expect(data(await admin('GET', `/api/suppression-lists/${id}`, undefined, 200))['entry_count']).toBe(2);
  });

  it('imports a CSV file as a job that can be polled, skipping the header and invalid rows', async () => {
    const list = await createList({ name: 'Imported phones', kind: 'phone' });
    const id = String(list['id']);
    const csv = ['phone', '+1 (555) 201-0001', '"555-201-0002"', '15552010003', '12', ''].join('\r\n');
    const response = await fetch(`${base}/api/suppression-lists/${id}/entries/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${owner}` },
      body: csv,
    });
    expect(response.status).toBe(202);
    const job = (await response.json()) as { data: Record<string, unknown> };
    expect(job.data).toMatchObject({
      id: expect.stringMatching(/^supimp_/),
      list_id: id,
      status: 'running',
      status_url: `/api/suppression-lists/${id}/entries/import/${String(job.data['id'])}`,
    });
    let polled = job.data;
    for (let attempt = 0; attempt < 100 && polled['status'] === 'running'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      polled = data(await as(manager, 'GET', String(job.data['status_url']), undefined, 200));
    }
    expect(polled).toMatchObject({ status: 'completed', rows: 4, added: 3, invalid: 1, error: null });
    expect(polled['finished_at']).toEqual(expect.any(String));
    expect(data(await admin('GET', `/api/suppression-lists/${id}`, undefined, 200))['entry_count']).toBe(3);
    const check = data(
      await admin('GET', `/api/suppression-lists/${id}/entries/check?value=5552010002`, undefined, 200),
    );
    expect(check['suppressed']).toBe(true);

    // More than 1,000,000 rows: refused before anything is written.
    const oversized = await fetch(`${base}/api/suppression-lists/${id}/entries/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${owner}` },
      body: '5552019999\n'.repeat(1_000_002),
    });
    expect(oversized.status).toBe(413);
    expect(((await oversized.json()) as { error: Record<string, unknown> }).error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'An import takes at most 1000000 rows',
    });
    expect(data(await admin('GET', `/api/suppression-lists/${id}`, undefined, 200))['entry_count']).toBe(3);

    // Rows given as hashes.
    const hashedImport = await fetch(`${base}/api/suppression-lists/${id}/entries/import?hashed=true`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${owner}` },
      body: `${sha256('5552010077')}\n${sha256('5552010001')}\n`,
    });
    expect(hashedImport.status).toBe(202);
    let hashedJob = ((await hashedImport.json()) as { data: Record<string, unknown> }).data;
    for (let attempt = 0; attempt < 100 && hashedJob['status'] === 'running'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      hashedJob = data(await admin('GET', String(hashedJob['status_url']), undefined, 200));
    }
    expect(hashedJob).toMatchObject({ status: 'completed', rows: 2, added: 1, invalid: 0 });
    expect(
      data(await admin('GET', `/api/suppression-lists/${id}/entries/check?value=(555) 201-0077`, undefined, 200))[
        'suppressed'
      ],
    ).toBe(true);

    const json = await call('POST', `/api/suppression-lists/${id}/entries/import`, { values: ['x'] }, owner);
    expect(json.status).toBe(415);
    expect((json.body['error'] as Record<string, unknown>)['code']).toBe('UNSUPPORTED_MEDIA_TYPE');
    const byViewer = await fetch(`${base}/api/suppression-lists/${id}/entries/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${viewer}` },
      body: '5552010009\n',
    });
    expect(byViewer.status).toBe(403);
  });

  it('rejects a lead on a reject list with 422 suppressed and stores it rejected', async () => {
    const list = await createList({ name: 'Do not call', kind: 'email', action: 'reject' });
    const id = String(list['id']);
    await admin('POST', `/api/suppression-lists/${id}/entries`, { values: [`blocked${tag}@gmail.com`] }, 200);
    const refused = await ingest({ email: `Blocked.${tag}+spring@gmail.com` });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, error: 'Lead rejected', reason: 'suppressed', rule_id: id });
    const stored = await leadByEmail(`blocked.${tag}`);
    expect(stored).toMatchObject({ status: 'rejected' });
    rejectedLead = { id: String(stored['id']), listId: id };

    // Someone not on the list goes through.
    const fine = await ingest({ email: `fine.${tag}@gmail.com` });
    expect(fine.status).toBe(201);
  });

  it('rejects on the email domain list, not on a disabled list, and sandbox-only lists only in the sandbox', async () => {
    const domains = await createList({ name: 'Competitors', kind: 'domain' });
    await admin(
      'POST',
      `/api/suppression-lists/${String(domains['id'])}/entries`,
      { values: [`rival-${tag}.co.uk`] },
      200,
    );
    const refused = await ingest({ email: `someone@admissions.rival-${tag}.co.uk` });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ reason: 'suppressed', rule_id: domains['id'] });

    const disabled = await createList({ name: 'Paused', kind: 'email', enabled: false });
    await admin(
      'POST',
      `/api/suppression-lists/${String(disabled['id'])}/entries`,
      { values: [`paused.${tag}@x.edu`] },
      200,
    );
    expect((await ingest({ email: `paused.${tag}@x.edu` })).status).toBe(201);
    await admin('PATCH', `/api/suppression-lists/${String(disabled['id'])}`, { enabled: true }, 200);
    const now = await ingest({ email: `paused.${tag}@x.edu` });
    expect(now.status).toBe(422);
    expect(now.body).toMatchObject({ reason: 'suppressed', rule_id: disabled['id'] });

    const sandboxOnly = await createList({ name: 'Test people', kind: 'email', sandbox_only: true });
    await admin(
      'POST',
      `/api/suppression-lists/${String(sandboxOnly['id'])}/entries`,
      { values: [`tester.${tag}@x.edu`] },
      200,
    );
    expect((await ingest({ email: `tester.${tag}@x.edu` })).status).toBe(201);
    const sandbox = await ingest({ email: `tester.${tag}@x.edu` }, true);
    expect(sandbox.status).toBe(422);
    expect(sandbox.body).toMatchObject({ success: false, reason: 'suppressed', rule_id: sandboxOnly['id'] });
  });

  it('sends a lead on a flag list to manual review with a review flag naming the list', async () => {
    const list = await createList({ name: 'Existing students', kind: 'phone', action: 'flag' });
    const id = String(list['id']);
    await admin('POST', `/api/suppression-lists/${id}/entries`, { values: ['(415) 555-2671'] }, 200);
    const email = `flagged.${tag}@example.edu`;
    const accepted = await ingest({ email, phone: '+1 415 555 2671' });
    expect(accepted.status).toBe(201);
    expect(accepted.body['flags']).toContain('manual_review');
    const lead = data(await admin('GET', `/api/leads/${String(accepted.body['lead_id'])}`, undefined, 200));
    expect(lead['review_flags']).toContainEqual({
      rule_id: id,
      reason: 'on suppression list "Existing students"',
      severity: 'high',
    });
  });

  it("puts a lead's email on a list (do not contact) so the person's next submission is refused", async () => {
    const list = await createList({ name: 'Opted out', kind: 'email' });
    const id = String(list['id']);
    const email = `optout.${tag}@example.edu`;
    const first = await ingest({ email });
    expect(first.status).toBe(201);
    const leadId = String(first.body['lead_id']);
    expect(data(await admin('POST', `/api/leads/${leadId}/suppress`, { list_id: id }, 200))).toEqual({
      list_id: id,
      added: 1,
      entry_count: 1,
    });
    expect((await call('POST', `/api/leads/${leadId}/suppress`, { list_id: id }, viewer)).status).toBe(403);
    expect((await call('POST', `/api/leads/nope/suppress`, { list_id: id }, owner)).status).toBe(404);
    const again = await ingest({ email: email.toUpperCase() });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ reason: 'suppressed', rule_id: id });
  });

  it('shows the reason in the CSV export', async () => {
    const requested = await call(
      'POST',
      '/api/leads/export',
      { format: 'csv', filters: { status: 'rejected' }, fields: ['email', 'status', 'rejection_reason'] },
      owner,
    );
    expect(requested.status).toBe(200);
    const exportId = String(requested.body['export_id']);
    let status = requested;
    for (let attempt = 0; attempt < 150 && status.body['status'] === 'processing'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await call('GET', `/api/exports/${exportId}`, undefined, owner);
    }
    expect(status.body['status']).toBe('completed');
    const csv = await (
      await fetch(String(status.body['download_url']), { headers: { authorization: `Bearer ${owner}` } })
    ).text();
    expect(csv.split('\n')[0]).toBe('email,status,rejection_reason');
    expect(csv.toLowerCase()).toContain(`blocked.${tag}+spring@gmail.com,rejected,suppressed`);
  });

  it('keeps only SHA-256 hashes of the normalized values, and the rejected lead with its reason', async () => {
    server.kill('SIGTERM');
    await server.exited;
    const store = await setup.openStore();
    try {
      const entries = await store.collection<BaseDocument>(SUPPRESSION_ENTRIES_COLLECTION).find({});
      expect(entries.length).toBeGreaterThan(0);
      const text = JSON.stringify(entries);
      expect(text).not.toContain('gmail');
      expect(text).not.toContain('rival');
      expect(entries.map((entry) => entry['hash'])).toContain(sha256(`blocked${tag}@gmail.com`));
      expect(entries.map((entry) => entry['hash'])).toContain(sha256('5552010001'));
      for (const entry of entries) expect(entry['hash']).toMatch(/^[0-9a-f]{64}$/);
      const lead = await store.collection<BaseDocument>(LEADS_COLLECTION).findOne({ _id: rejectedLead?.id ?? '' });
      expect(lead).toMatchObject({ status: 'rejected', rejection_reason: 'suppressed', rule_id: rejectedLead?.listId });
    } finally {
      await store.close();
    }
  });
});
