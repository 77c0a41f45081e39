/**
 * A CRM on loopback that speaks the API shapes the connectors call (no HTTP mocks): a Salesforce
 * token endpoint and sObject Lead upsert by external id, HubSpot's contacts batch upsert by email,
 * and a generic JSON receiver that upserts by `external_id`. Records are kept per system, so a
 * test can count them; failures (429 with Retry-After, 5xx, 400s) are scripted per path prefix.
 *
 * It answers as the real services do where a connector could get them wrong:
 * - Salesforce: LastName and Company are required when a Lead is created (an update leaves fields
 *   it is not sent alone); FirstName, LastName and Email longer than 40, 80 and 80 characters are
 *   `400 STRING_TOO_LONG`; a used-up daily allowance or concurrency limit is
 *   `403 REQUEST_LIMIT_EXCEEDED`; a row another transaction holds is `400 UNABLE_TO_LOCK_ROW`;
 *   an external id two Leads share is `300` with their URLs; an active assignment rule gives
 *   every created or updated Lead its owner unless the request says `Sforce-Auto-Assign: FALSE`;
 *   with refresh-token rotation each refresh answers a new refresh token and retires the one
 *   sent, and a retired one sent again is `invalid_grant` and revokes every live token.
 * - HubSpot: the upsert matches `id` (the email) exactly as sent, so `Ada@X.edu` and `ada@x.edu`
 *   are two contacts; a private-app token has scopes, and a call without the scope it needs is
 *   `403 MISSING_SCOPES` naming it.
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

/** What the fake Salesforce org is set up to do (tests change these between calls). */
export interface FakeSalesforceOrg {
  /** Refresh-token rotation (Salesforce's recommended setting for connected apps). */
  rotateRefreshTokens: boolean;
  /** The refresh tokens the token endpoint was sent, in order. */
  readonly refreshTokensSent: string[];
  /** Whether a refresh token is valid now. */
  refreshTokenValid(token: string): boolean;
  /** An active Lead assignment rule's owner (a user or queue id), or null for none. */
  assignmentRuleOwner: string | null;
  /** REST calls left in the org's daily allowance (null: unlimited); at 0 every call is refused. */
  apiCallsLeft: number | null;
  /** The next `times` REST calls find 25 long-running requests in flight (the concurrency limit). */
  concurrencyLimited(times?: number): void;
  /** The next `times` Lead writes find the row locked by another transaction. */
  lockRows(times?: number): void;
  /** Adds a second Lead with the same external id as `externalId`'s record; returns its id. */
  duplicate(externalId: string): string;
}

export interface FakeCrm {
  url: string;
  /** Records by system: `salesforce` (by external id), `hubspot` (by email as sent), `webhook` (by external_id). */
  records: Record<'salesforce' | 'hubspot' | 'webhook', Map<string, FakeCrmRecord>>;
  requests: FakeCrmRequest[];
  tokensIssued: number;
  salesforce: FakeSalesforceOrg;
  /** Answers the next `times` requests whose path starts with `prefix` with `answer`. */
  fail(prefix: string, answer: ScriptedAnswer, times?: number): void;
  /** Makes every token issued so far invalid (an expired Salesforce session). */
  revokeTokens(): void;
  close(): Promise<void>;
}

export const FAKE_SALESFORCE = { clientId: 'sf-client', clientSecret: 'sf-secret', refreshToken: 'sf-refresh-0' };
/** A private-app token with crm.objects.contacts.read and crm.objects.contacts.write. */
export const FAKE_HUBSPOT_TOKEN = 'pat-na1-good';
/** A private-app token with crm.objects.contacts.write only. */
export const FAKE_HUBSPOT_WRITE_ONLY_TOKEN = 'pat-na1-write-only';
export const FAKE_WEBHOOK_AUTH = 'Bearer hook-secret';

const HUBSPOT_SCOPES: Record<string, string[]> = {
  [FAKE_HUBSPOT_TOKEN]: ['crm.objects.contacts.read', 'crm.objects.contacts.write'],
  [FAKE_HUBSPOT_WRITE_ONLY_TOKEN]: ['crm.objects.contacts.write'],
};
/** Lengths of the standard Lead fields the fake checks (Salesforce's Lead object reference). */
const SALESFORCE_LENGTHS: Record<string, { label: string; max: number }> = {
  FirstName: { label: 'First Name', max: 40 },
  LastName: { label: 'Last Name', max: 80 },
  Email: { label: 'Email', max: 80 },
};

export async function startFakeCrm(): Promise<FakeCrm> {
  const records = {
    salesforce: new Map<string, FakeCrmRecord>(),
    hubspot: new Map<string, FakeCrmRecord>(),
    webhook: new Map<string, FakeCrmRecord>(),
  };
  const requests: FakeCrmRequest[] = [];
  const scripts: Array<{ prefix: string; answer: ScriptedAnswer; left: number }> = [];
  const validTokens = new Set<string>();
  const refreshTokens = new Set<string>([FAKE_SALESFORCE.refreshToken]);
  const retiredRefreshTokens = new Set<string>();
  const refreshTokensSent: string[] = [];
  /** Extra Lead ids per external id (a 300 on upsert). */
  const duplicates = new Map<string, string[]>();
  let concurrencyLimited = 0;
  let lockedRows = 0;
  let tokens = 0;
  let refreshes = 0;
  let sequence = 0;

  const send = (
    response: ServerResponse,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ): void => {
    response.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const nextId = (idPrefix: string): string => `${idPrefix}${String(++sequence).padStart(12, '0')}`;
  const upsert = (
    system: keyof typeof records,
    key: string,
    fields: Record<string, unknown>,
    idPrefix: string,
  ): { record: FakeCrmRecord; created: boolean } => {
    const existing = records[system].get(key);
    if (existing) {
      existing.fields = { ...existing.fields, ...fields };
      existing.writes++;
      return { record: existing, created: false };
    }
    const record = { id: nextId(idPrefix), key, fields, writes: 1 };
    records[system].set(key, record);
    return { record, created: true };
  };

  const org: FakeSalesforceOrg = {
    rotateRefreshTokens: false,
    refreshTokensSent,
    refreshTokenValid: (token) => refreshTokens.has(token),
    assignmentRuleOwner: null,
    apiCallsLeft: null,
    concurrencyLimited(times = 1) {
      concurrencyLimited += times;
    },
    lockRows(times = 1) {
      lockedRows += times;
    },
    duplicate(externalId) {
      const id = nextId('00Q');
      duplicates.set(externalId, [...(duplicates.get(externalId) ?? []), id]);
      return id;
    },
  };

  const salesforceToken = (request: IncomingMessage, text: string, response: ServerResponse): void => {
    const form = new URLSearchParams(text);
    if (
      form.get('client_id') !== FAKE_SALESFORCE.clientId ||
      form.get('client_secret') !== FAKE_SALESFORCE.clientSecret
    ) {
      send(response, 400, { error: 'invalid_client', error_description: 'invalid client credentials' });
      return;
    }
    let rotated: string | undefined;
    if (form.get('grant_type') === 'refresh_token') {
      const sent = form.get('refresh_token') ?? '';
      refreshTokensSent.push(sent);
      if (retiredRefreshTokens.has(sent)) {
        // A retired refresh token used again: Salesforce takes it for a stolen one and revokes the live ones.
        refreshTokens.clear();
        validTokens.clear();
        send(response, 400, { error: 'invalid_grant', error_description: 'expired access/refresh token' });
        return;
      }
      if (!refreshTokens.has(sent)) {
        send(response, 400, { error: 'invalid_grant', error_description: 'expired access/refresh token' });
        return;
      }
      if (org.rotateRefreshTokens) {
        refreshTokens.delete(sent);
        retiredRefreshTokens.add(sent);
        rotated = `sf-refresh-${++refreshes}`;
        refreshTokens.add(rotated);
      }
    }
    const token = `00Dtoken${++tokens}`;
    validTokens.add(token);
    send(response, 200, {
      access_token: token,
      ...(rotated ? { refresh_token: rotated } : {}),
      instance_url: `http://${request.headers.host}`,
      token_type: 'Bearer',
      issued_at: String(Date.now()),
      signature: 'sig',
    });
  };

  const salesforceLead = (
    request: IncomingMessage,
    externalIdField: string,
    externalId: string,
    fields: Record<string, unknown>,
    response: ServerResponse,
  ): void => {
    const extra = duplicates.get(externalId);
    const existing = records.salesforce.get(externalId);
    if (extra && existing) {
      send(
        response,
        300,
        [existing.id, ...extra].map((id) => `/services/data/v60.0/sobjects/Lead/${id}`),
      );
      return;
    }
    if (lockedRows > 0) {
      lockedRows--;
      send(response, 400, [
        {
          message: `unable to obtain exclusive access to this record or 1 records: ${existing?.id ?? '00Q000000000000AAA'}`,
          errorCode: 'UNABLE_TO_LOCK_ROW',
          fields: [],
        },
      ]);
      return;
    }
    // Required on create only: an update keeps the fields it is not sent.
    const missing = existing
      ? []
      : ['LastName', 'Company'].filter((field) => typeof fields[field] !== 'string' || fields[field] === '');
    if (missing.length > 0) {
      send(response, 400, [
        {
          message: `Required fields are missing: [${missing.join(', ')}]`,
          errorCode: 'REQUIRED_FIELD_MISSING',
          fields: missing,
        },
      ]);
      return;
    }
    if (fields[externalIdField] !== undefined) {
      send(response, 400, [
        {
          message: `Unable to create/update fields: ${externalIdField}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`,
          errorCode: 'INVALID_FIELD_FOR_INSERT_UPDATE',
          fields: [externalIdField],
        },
      ]);
      return;
    }
    for (const [field, { label, max }] of Object.entries(SALESFORCE_LENGTHS)) {
      const value = fields[field];
      if (typeof value === 'string' && value.length > max) {
        send(response, 400, [
          {
            message: `${label}: data value too large: ${value} (max length=${max})`,
            errorCode: 'STRING_TOO_LONG',
            fields: [field],
          },
        ]);
        return;
      }
    }
    if (typeof fields['Email'] === 'string' && !fields['Email'].includes('@')) {
      send(response, 400, [
        { message: 'Email: invalid email address', errorCode: 'INVALID_EMAIL_ADDRESS', fields: ['Email'] },
      ]);
      return;
    }
    // Active assignment rules run on every create and update unless the request turns them off.
    const assign = String(request.headers['sforce-auto-assign'] ?? 'TRUE').toUpperCase() !== 'FALSE';
    const written =
      org.assignmentRuleOwner !== null && assign ? { ...fields, OwnerId: org.assignmentRuleOwner } : fields;
    const { record, created } = upsert('salesforce', externalId, written, '00Q');
    send(response, created ? 201 : 200, { id: record.id, success: true, errors: [], created });
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
      salesforceToken(request, text, response);
      return;
    }
    const lead = /^\/services\/data\/v\d+\.\d\/sobjects\/Lead\/([^/]+)\/([^/]+)$/.exec(path);
    if (path.startsWith('/services/data/')) {
      if (!validTokens.has(bearer)) {
        send(response, 401, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
        return;
      }
      if (org.apiCallsLeft !== null && org.apiCallsLeft <= 0) {
        send(response, 403, [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]);
        return;
      }
      if (org.apiCallsLeft !== null) org.apiCallsLeft--;
      if (concurrencyLimited > 0) {
        concurrencyLimited--;
        send(response, 403, [
          { message: 'ConcurrentPerOrgLongTxn Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' },
        ]);
        return;
      }
      if (path.endsWith('/sobjects/Lead/describe')) {
        send(response, 200, { name: 'Lead', fields: [] });
        return;
      }
      if (lead && request.method === 'PATCH') {
        salesforceLead(request, decodeURIComponent(lead[1]!), decodeURIComponent(lead[2]!), json(), response);
        return;
      }
      send(response, 404, [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }]);
      return;
    }

    // HubSpot CRM v3.
    if (path.startsWith('/crm/v3/')) {
      const scopes = HUBSPOT_SCOPES[bearer];
      if (!scopes) {
        send(response, 401, {
          status: 'error',
          message: 'Authentication credentials not found.',
          category: 'INVALID_AUTHENTICATION',
        });
        return;
      }
      const needs = (scope: string): boolean => {
        if (scopes.includes(scope)) return true;
        send(response, 403, {
          status: 'error',
          message:
            "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
          correlationId: '00000000-0000-0000-0000-000000000000',
          errors: [
            {
              message: 'One or more of the following scopes are required.',
              context: { requiredGranularScopes: [scope] },
            },
          ],
          links: { scopes: 'https://developers.hubspot.com/scopes' },
          category: 'MISSING_SCOPES',
        });
        return false;
      };
      if (path === '/crm/v3/objects/contacts' && request.method === 'GET') {
        if (needs('crm.objects.contacts.read')) send(response, 200, { results: [] });
        return;
      }
      if (path === '/crm/v3/objects/contacts/batch/upsert' && request.method === 'POST') {
        if (!needs('crm.objects.contacts.write')) return;
        const inputs = (json()['inputs'] ?? []) as Array<{
          idProperty: string;
          id: string;
          properties: Record<string, unknown>;
        }>;
        const results = inputs.map((input) => {
          // The id is matched exactly as sent: another case is another contact.
          const { record, created } = upsert('hubspot', input.id, input.properties, '');
          return {
            id: record.id,
            properties: record.fields,
            new: created,
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-01T00:00:00.000Z',
            archived: false,
          };
        });
        send(response, 200, {
          status: 'COMPLETE',
          results,
          startedAt: '2026-01-01T00:00:00.000Z',
          completedAt: '2026-01-01T00:00:00.000Z',
        });
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
    salesforce: org,
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
