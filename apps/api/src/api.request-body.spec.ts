/**
 * What the edge accepts as a request body (docs/decisions.md "Request bodies at the edge"), over
 * real HTTP on the production app:
 * - nesting: a lead's custom field value nests at most 10 levels and custom_fields is at most 64 KiB
 *   of JSON (400 `Validation failed` naming the field); any JSON body nests at most 32 levels (400,
 *   never 500, however deep); nothing over a limit is ever produced to leads.submitted;
 * - media types: every JSON endpoint answers a form or any other non-JSON body 415 in its path's
 *   convention; only the OAuth form endpoints take forms.
 * This server runs no pipeline stage, so a body the edge accepts is answered 202 after the
 * decision deadline and is found on leads.submitted.
 */
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, startAccountsServer, UserApi, type AccountsTestServer } from './accounts/accounts.test-support';

let server: AccountsTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;
let liveKey: string;
let sandboxKey: string;

const SINGLE_PATHS = ['/api/leads/inbound', '/api/v1/leads/ingest'];
const BATCH_PATHS = ['/api/leads/inbound/batch', '/api/v1/leads/bulk-ingest'];
const withSandbox = (paths: string[]): string[] => [...paths, ...paths.map((path) => `/sandbox${path}`)];

/** `{"profile":{"a":{"a":...1}}}` as text: the value of `profile` nests `levels` objects deep (built as text: JSON.stringify itself overflows past a few thousand levels). */
function deepCustomFields(levels: number, key = 'profile'): string {
  return `{"${key}":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
}

const lead = (email: string, customFields: string): string =>
  `{"email":"${email}","first_name":"Ada","custom_fields":${customFields}}`;

async function send(
  path: string,
  body: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const keyFor = (path: string): string => (path.startsWith('/sandbox') ? sandboxKey : liveKey);
const ingest = (path: string, body: string, contentType = 'application/json') =>
  send(path, body, { authorization: `Bearer ${keyFor(path)}`, 'content-type': contentType });
const asUser = (method: string, path: string, body: string, contentType = 'application/json') =>
  send(path, body, { authorization: `Bearer ${owner.token ?? ''}`, 'content-type': contentType }, method);

async function submittedEmails(): Promise<string[]> {
  const records = await readTopic(server.log, 'leads.submitted');
  return records.map((record) =>
    String((JSON.parse(record.value) as { submission?: { email?: unknown } }).submission?.email),
  );
}

beforeAll(async () => {
  server = await startAccountsServer();
  owner = await UserApi.owner(server.url, 'body.owner@example.edu', 'Body College');
  const vendor = await owner.call('POST', '/api/vendors', { name: 'Inquiry Co', type: 'inquiry' });
  const vendorId = String(dataOf(vendor)['id']);
  const live = await owner.call('POST', '/api/api-keys', {
    name: 'live',
    vendor_id: vendorId,
    permissions: ['read', 'write'],
  });
  const sandbox = await owner.call('POST', '/api/api-keys', {
    name: 'sandbox',
    vendor_id: vendorId,
    permissions: ['read', 'write'],
    environment: 'sandbox',
  });
  expect([live.status, sandbox.status]).toEqual([201, 201]);
  liveKey = String(dataOf(live)['key']);
  sandboxKey = String(dataOf(sandbox)['key']);
}, 30_000);

afterAll(async () => {
  await server.close();
});

const TOO_DEEP = {
  field: 'custom_fields.profile',
  message: 'custom_fields.profile must not nest deeper than 10 levels',
};

describe('nesting depth and size of a lead submission', () => {
  it.each(withSandbox(SINGLE_PATHS))(
    '%s answers 400 naming the custom field that nests 11 levels, and produces nothing',
    async (path) => {
      const email = `deep11${path.replace(/\W/g, '-')}@example.edu`;
      const { status, body } = await ingest(path, lead(email, deepCustomFields(11)));
      expect(status).toBe(400);
      expect(body).toEqual({
        success: false,
        error: 'Validation failed',
        code: 'VALIDATION_ERROR',
        details: [TOO_DEEP],
      });
      expect(await submittedEmails()).not.toContain(email);
    },
  );

  it.each([1_000, 3_000, 5_000, 100_000])(
    'a single lead whose custom field nests %i levels is answered 400, never 202 or 500',
    async (levels) => {
      const email = `deep${levels}@example.edu`;
      const { status, body } = await ingest('/api/v1/leads/ingest', lead(email, deepCustomFields(levels)));
      expect(status).toBe(400);
      expect(body).toMatchObject({ success: false, error: 'Validation failed', code: 'VALIDATION_ERROR' });
      const fields = (body['details'] as Array<{ field: string }>).map((detail) => detail.field);
      expect(fields).toEqual([expect.stringMatching(/^custom_fields\.profile/)]);
      expect(await submittedEmails()).not.toContain(email);
    },
  );

  it('a body nested 400,000 levels (inside the 1 MB limit) is answered 400 by the parser side, not 500', async () => {
    const levels = 400_000;
    const { status, body } = await ingest('/api/leads/inbound', `${'['.repeat(levels)}${']'.repeat(levels)}`);
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      error: 'Validation failed',
      code: 'VALIDATION_ERROR',
      details: [{ field: '0.0.0', message: '0.0.0 nests deeper than the 32 levels a request body may have' }],
    });
  });

  it.each(withSandbox(BATCH_PATHS))(
    '%s refuses the too-deep item with its field named, stores the others, and produces nothing for it',
    async (path) => {
      const tag = path.replace(/\W/g, '-');
      const deep = `batch-deep${tag}@example.edu`;
      const fine = `batch-fine${tag}@example.edu`;
      const { status, body } = await ingest(
        path,
        `{"leads":[${lead(deep, deepCustomFields(11))},${lead(fine, deepCustomFields(10))}]}`,
      );
      expect(status).toBe(200);
      const results = body['results'] as Array<Record<string, unknown>>;
      expect(results[0]).toEqual({
        index: 0,
        success: false,
        email: deep,
        error: 'Validation failed',
        details: [TOO_DEEP],
      });
      expect(results[1]).toMatchObject({ index: 1, success: true, email: fine });
      const emails = await submittedEmails();
      expect(emails).toContain(fine);
      expect(emails).not.toContain(deep);
    },
  );

  it('a batch nested 5,000 levels is answered 400 as a whole, naming where it is too deep', async () => {
    const email = 'batch5000@example.edu';
    const { status, body } = await ingest(
      '/api/v1/leads/bulk-ingest',
      `{"leads":[${lead(email, deepCustomFields(5_000))}]}`,
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({
      success: false,
      error: 'Validation failed',
      code: 'VALIDATION_ERROR',
      details: [{ field: 'leads.0.custom_fields' }],
    });
    expect(await submittedEmails()).not.toContain(email);
  });

  it('accepts a custom field nested exactly 10 levels and produces it whole', async () => {
    const email = 'deep10@example.edu';
    const { status } = await ingest('/api/leads/inbound', lead(email, deepCustomFields(10)));
    expect(status).toBe(202);
    const records = await readTopic(server.log, 'leads.submitted');
    const produced = records
      .map((record) => JSON.parse(record.value) as { submission: { email: string; custom_fields: unknown } })
      .find((command) => command.submission.email === email);
    expect(produced?.submission.custom_fields).toEqual(JSON.parse(deepCustomFields(10)));
  });

  it('refuses custom_fields larger than 64 KiB of JSON with 400 naming custom_fields', async () => {
    const email = 'huge-custom@example.edu';
    const { status, body } = await ingest(
      '/api/leads/inbound',
      lead(email, JSON.stringify({ notes: 'x'.repeat(70_000) })),
    );
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      error: 'Validation failed',
      code: 'VALIDATION_ERROR',
      details: [{ field: 'custom_fields', message: 'custom_fields must be at most 65536 characters of JSON' }],
    });
    expect(await submittedEmails()).not.toContain(email);
  });

  it('POST /api/leads answers 400 in the user convention for a too-deep custom field, and at 5,000 levels', async () => {
    const eleven = await asUser('POST', '/api/leads', lead('user-deep11@example.edu', deepCustomFields(11)));
    expect(eleven.status).toBe(400);
    expect(eleven.body).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: [TOO_DEEP] },
    });
    const fiveThousand = await asUser('POST', '/api/leads', lead('user-deep5000@example.edu', deepCustomFields(5_000)));
    expect(fiveThousand.status).toBe(400);
    expect(fiveThousand.body).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Validation failed',
        details: [{ field: expect.stringMatching(/^custom_fields\.profile/) }],
      },
    });
    const emails = await submittedEmails();
    expect(emails).not.toContain('user-deep11@example.edu');
    expect(emails).not.toContain('user-deep5000@example.edu');
  });

  it.each([
    ['POST', '/api/vendors'],
    ['POST', '/api/enrichment/custom-fields'],
    ['PATCH', '/api/organization'],
    ['POST', '/api/auth/login'],
  ])('%s %s answers a 5,000-level body 400, never 500', async (method, path) => {
    const { status, body } = await asUser(method, path, `{"name":${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: [{ field: 'name.0.0' }] },
    });
  });
});

describe('non-JSON bodies', () => {
  const FORM = 'application/x-www-form-urlencoded';

  it.each([...withSandbox(SINGLE_PATHS), ...withSandbox(BATCH_PATHS)])(
    '%s answers a form 415 in the ingestion convention and produces nothing',
    async (path) => {
      const email = `form${path.replace(/\W/g, '-')}@example.edu`;
      const { status, body } = await ingest(path, `email=${encodeURIComponent(email)}`, FORM);
      expect(status).toBe(415);
      expect(body).toEqual({
        success: false,
        error: 'The request body must be application/json',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
      expect(await submittedEmails()).not.toContain(email);
    },
  );

  it('answers a chunked form (no Content-Length) 415 as well', async () => {
    const email = 'chunked-form@example.edu';
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`email=${encodeURIComponent(email)}`));
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/api/v1/leads/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${liveKey}`, 'content-type': FORM },
      body: chunks,
      duplex: 'half',
    });
    expect(response.status).toBe(415);
    expect(await submittedEmails()).not.toContain(email);
  });

  it.each([
    ['POST', '/api/leads', FORM],
    ['POST', '/api/auth/login', FORM],
    ['POST', '/api/vendors', 'text/plain'],
  ])('%s %s answers %s 415 in the user convention', async (method, path, contentType) => {
    const { status, body } = await asUser(method, path, 'email=x%40y.edu&name=x', contentType);
    expect(status).toBe(415);
    expect(body).toEqual({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be application/json' },
    });
  });

  it.each(['/api/oauth/token', '/oauth/token'])(
    '%s still takes its form (an unknown client is invalid_client, not 415)',
    async (path) => {
      const { status, body } = await send(
        path,
        'grant_type=authorization_code&code=x&client_id=nobody&redirect_uri=https%3A%2F%2Fapp.test%2Fcb',
        { 'content-type': FORM },
      );
      expect(status).toBe(401);
      expect(body).toMatchObject({ error: 'invalid_client' });
    },
  );
});
