/**
 * A CRM on loopback that speaks the API shapes the connectors call (no HTTP mocks): a Salesforce
 * token endpoint and sObject Lead upsert by external id, HubSpot's contacts batch upsert by email,
 * and a generic JSON receiver that upserts by `external_id`. Records are kept per system, so a
 * test can count them; failures (429 with Retry-After, 5xx, 400s) are scripted per path prefix.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCrmRecord {
  id: string;
  key: string;
  fields: Record<string, unknown>;
  writes: number;
}

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeCrmRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeCrm {
  url: string;
  /** Records by system: `salesforce` (by external id), `hubspot` (by email), `webhook` (by external_id). */
  records: Record<'salesforce' | 'hubspot' | 'webhook', Map<string, FakeCrmRecord>>;
  requests: FakeCrmRequest[];
  tokensIssued: number;
  /** Answers the next `times` requests whose path starts with `prefix` with `answer`. */
  fail(prefix: string, answer: ScriptedAnswer, times?: number): void;
  /** Makes every token issued so far invalid (an expired Salesforce session). */
  revokeTokens(): void;
  close(): Promise<void>;
}

export const FAKE_SALESFORCE = { clientId: 'sf-client', clientSecret: 'sf-secret' };
export const FAKE_HUBSPOT_TOKEN = 'pat-na1-good';
export const FAKE_WEBHOOK_AUTH = 'Bearer hook-secret';

export async function startFakeCrm(): Promise<FakeCrm> {
  const records = { salesforce: new Map<string, FakeCrmRecord>(), hubspot: new Map<string, FakeCrmRecord>(), webhook: new Map<string, FakeCrmRecord>() };
  const requests: FakeCrmRequest[] = [];
  const scripts: Array<{ prefix: string; answer: ScriptedAnswer; left: number }> = [];
  const validTokens = new Set<string>();
  let tokens = 0;
  let sequence = 0;

  const send = (response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void => {
    response.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const upsert = (system: keyof typeof records, key: string, fields: Record<string, unknown>, idPrefix: string): { record: FakeCrmRecord; created: boolean } => {
    const existing = records[system].get(key);
    if (existing) {
      existing.fields = { ...existing.fields, ...fields };
      existing.writes++;
      return { record: existing, created: false };
    }
    const record = { id: `${idPrefix}${String(++sequence).padStart(12, '0')}`, key, fields, writes: 1 };
    records[system].set(key, record);
    return { record, created: true };
  };

  const handle = (request: IncomingMessage, text: string, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body: text });
    const script = scripts.find((entry) => entry.left > 0 && path.startsWith(entry.prefix));
    if (script) {
      script.left--;
      send(response, script.answer.status, script.answer.body, script.answer.headers);
      return;
    }
    const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const json = (): Record<string, unknown> => (text ? (JSON.parse(text) as Record<string, unknown>) : {});

    // Salesforce: OAuth token endpoint (client credentials or refresh token).
    if (path === '/services/oauth2/token' && request.method === 'POST') {
      const form = new URLSearchParams(text);
      if (form.get('client_id') !== FAKE_SALESFORCE.clientId || form.get('client_secret') !== FAKE_SALESFORCE.clientSecret) {
        send(response, 400, { error: 'invalid_client', error_description: 'invalid client credentials' });
        return;
      }
      const token = `00Dtoken${++tokens}`;
      validTokens.add(token);
      send(response, 200, { access_token: token, instance_url: `http://${request.headers.host}`, token_type: 'Bearer', issued_at: String(Date.now()), signature: 'sig' });
      return;
    }
    const lead = /^\/services\/data\/v\d+\.\d\/sobjects\/Lead\/([^/]+)\/([^/]+)$/.exec(path);
    if (path.startsWith('/services/data/')) {
      if (!validTokens.has(bearer)) {
        send(response, 401, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
        return;
      }
      if (path.endsWith('/sobjects/Lead/describe')) {
        send(response, 200, { name: 'Lead', fields: [] });
        return;
      }
      if (lead && request.method === 'PATCH') {
        const fields = json();
        const missing = ['LastName', 'Company'].filter((field) => typeof fields[field] !== 'string' || fields[field] === '');
        if (missing.length > 0) {
          send(response, 400, [{ message: `Required fields are missing: [${missing.join(', ')}]`, errorCode: 'REQUIRED_FIELD_MISSING', fields: missing }]);
          return;
        }
        if (typeof fields['Email'] === 'string' && !fields['Email'].includes('@')) {
          send(response, 400, [{ message: 'Email: invalid email address', errorCode: 'INVALID_EMAIL_ADDRESS', fields: ['Email'] }]);
          return;
        }
        const { record, created } = upsert('salesforce', decodeURIComponent(lead[2]!), fields, '00Q');
        send(response, created ? 201 : 200, { id: record.id, success: true, errors: [], created });
        return;
      }
      send(response, 404, [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }]);
      return;
    }

    // HubSpot CRM v3.
    if (path.startsWith('/crm/v3/')) {
      if (bearer !== FAKE_HUBSPOT_TOKEN) {
        send(response, 401, { status: 'error', message: 'Authentication credentials not found.', category: 'INVALID_AUTHENTICATION' });
        return;
      }
      if (path === '/crm/v3/objects/contacts' && request.method === 'GET') {
        send(response, 200, { results: [] });
        return;
      }
      if (path === '/crm/v3/objects/contacts/batch/upsert' && request.method === 'POST') {
        const inputs = (json()['inputs'] ?? []) as Array<{ idProperty: string; id: string; properties: Record<string, unknown> }>;
        const results = inputs.map((input) => {
          const { record, created } = upsert('hubspot', input.id.toLowerCase(), input.properties, '');
          return { id: record.id, properties: record.fields, new: created, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', archived: false };
        });
        send(response, 200, { status: 'COMPLETE', results, startedAt: '2026-01-01T00:00:00.000Z', completedAt: '2026-01-01T00:00:00.000Z' });
        return;
      }
      send(response, 404, { status: 'error', message: 'Not found', category: 'OBJECT_NOT_FOUND' });
      return;
    }

    // A generic JSON receiver: upserts by external_id, answers the record id.
    if (path === '/hook' && request.method === 'POST') {
      if (request.headers.authorization !== FAKE_WEBHOOK_AUTH) {
        send(response, 401, { error: 'unauthorized' });
        return;
      }
      if (request.headers['x-leadstream-test'] === 'true') {
        send(response, 200, { ok: true });
        return;
      }
      const body = json();
      const external = body['external_id'];
      const key = typeof external === 'string' ? external : String(request.headers['idempotency-key'] ?? '');
      if (!key) {
        send(response, 422, { error: { message: 'external_id is required' } });
        return;
      }
      const { record, created } = upsert('webhook', key, body, 'rec_');
      send(response, created ? 201 : 200, { id: record.id, created });
      return;
    }
    send(response, 404, { error: 'not found' });
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeCrm = {
    url: `http://127.0.0.1:${port}`,
    records,
    requests,
    get tokensIssued() {
      return tokens;
    },
    fail(prefix, answer, times = 1) {
      scripts.push({ prefix, answer, left: times });
    },
    revokeTokens() {
      validTokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
