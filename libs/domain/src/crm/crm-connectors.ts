/**
 * The CRM connectors as pure request/response shaping (no I/O): what to send for a lead, how to
 * read the answer, and which failures are worth retrying. The crm-sync stage and the API's
 * connection test make the calls (through the runtime's outbound HTTP) and hand the answers back.
 *
 * - webhook_json: POST the mapped lead to the URL with the configured auth header; the record id
 *   is a top-level field of the JSON answer. `Idempotency-Key` and `external_id` carry the lead
 *   id, so a receiver can upsert.
 * - salesforce: OAuth token (client credentials or refresh token; a rotated refresh token in the
 *   answer is read), then REST upsert of a Lead by external id:
 *   PATCH /services/data/vXX.X/sobjects/Lead/{ExternalIdField__c}/{lead id}. A create carries the
 *   placeholders of required fields and the routed owner; an update (the sync knows the record)
 *   only the mapped fields, so a resync never overwrites what a rep changed. A Lead created with
 *   a routed owner, and every update, say `Sforce-Auto-Assign: FALSE` unless the connection keeps
 *   Salesforce's assignment rules. Values longer than their standard Lead field are refused
 *   before any call, naming the field.
 * - hubspot: CRM v3 contacts batch upsert by email (lower-cased: HubSpot matches it exactly)
 *   with a private-app token.
 *
 * Failures: 429, 5xx, 408, timeouts and connection failures are retryable (Retry-After is read),
 * and so are Salesforce's REQUEST_LIMIT_EXCEEDED (403; after a long delay) and
 * UNABLE_TO_LOCK_ROW; 401 asks for a fresh token (once); any other 4xx, a 3xx, or a refused
 * target is permanent.
 */
import type {
  CrmConnection,
  CrmFieldMapping,
  HubspotCredentials,
  HubspotSettings,
  SalesforceCredentials,
  SalesforceSettings,
  WebhookJsonCredentials,
  WebhookJsonSettings,
} from './crm-connection';
import { leadFields } from '../lead/lead-fields';
import { outboundHeaderProblem } from '../outbound/outbound-headers';

export interface CrmHttpRequest {
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (a form body); its content-type is in `headers`. */
  rawBody?: string;
}

/** The answer of a call, or its failure before an answer (status null). */
export interface CrmHttpResponse {
  status: number | null;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** Set when there was no HTTP answer or the call was refused. */
  failure?: { code: 'TARGET_REFUSED' | 'TIMEOUT' | 'CONNECTION_FAILED'; message: string };
}

export type CrmOutcome =
  | { kind: 'synced'; crmId: string | null; created: boolean | null }
  | { kind: 'retryable'; error: string; status: number | null; retryAfterMs: number | null }
  | { kind: 'permanent'; error: string; status: number | null }
  | { kind: 'unauthorized'; error: string; status: number };

/** The lead as connectors read it (a stored lead), and where the route sends it. */
export interface CrmLead {
  _id: string;
  email: string;
  [field: string]: unknown;
}
export interface CrmTarget {
  owner: string | null;
  queue: string | null;
}

export interface CrmAccessToken {
  accessToken: string;
  /** Epoch ms after which the token is fetched again. */
  expiresAt: number;
  /** Salesforce answers the instance to call with the token. */
  instanceUrl: string | null;
}

/** Salesforce sessions last at least 15 minutes; without `expires_in` the token is kept this long (or until a 401). */
const DEFAULT_TOKEN_LIFETIME_MS = 15 * 60_000;
/**
 * Salesforce's daily API allowance is a rolling 24 hours: retried no sooner than an hour later
 * (the retry schedule's first step at least that long). The concurrency limit (25 requests of
 * 20 s or more in flight) clears sooner.
 */
export const SALESFORCE_DAILY_LIMIT_RETRY_MS = 60 * 60_000;
export const SALESFORCE_CONCURRENCY_LIMIT_RETRY_MS = 5 * 60_000;

/**
 * Whether the upsert creates the record as far as leadstream knows: `create` (no CRM id known
 * yet) sends the placeholders of required fields and the routed owner; `update` (the sync has the
 * record's id) sends the mapped fields only.
 */
export type CrmSyncMode = 'create' | 'update';

/** A lead field by mapping name: top-level, `owner`/`queue` of the target, or a nested path. */
function leadValue(lead: CrmLead, target: CrmTarget, path: string): unknown {
  if (path === 'id') return lead._id;
  if (path === 'owner') return target.owner;
  if (path === 'queue') return target.queue;
  const dot = path.indexOf('.');
  if (dot === -1) return lead[path];
  const root = lead[path.slice(0, dot)];
  return typeof root === 'object' && root !== null ? (root as Record<string, unknown>)[path.slice(dot + 1)] : undefined;
}

/** The CRM fields of a mapping; empty values are left out (a sync never clears a CRM field). */
export function mapLeadFields(
  lead: CrmLead,
  target: CrmTarget,
  mapping: CrmFieldMapping,
): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean> = {};
  for (const [crmField, path] of Object.entries(mapping)) {
    const value = leadValue(lead, target, path);
    if (value === undefined || value === null || value === '') continue;
    fields[crmField] =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : JSON.stringify(value);
  }
  return fields;
}

export const DEFAULT_SALESFORCE_MAPPING: CrmFieldMapping = {
  FirstName: 'first_name',
  LastName: 'last_name',
  Email: 'email',
  Phone: 'phone',
  LeadSource: 'source',
};
export const DEFAULT_HUBSPOT_MAPPING: CrmFieldMapping = {
  email: 'email',
  firstname: 'first_name',
  lastname: 'last_name',
  phone: 'phone',
};
/** Salesforce user (005) and group/queue (00G) ids, 15 or 18 characters. */
const SALESFORCE_OWNER_ID = /^00[5G][A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?$/;
const HUBSPOT_OWNER_ID = /^\d{1,20}$/;

const WEBHOOK_LEAD_FIELDS = leadFields(
  'email',
  'first_name',
  'last_name',
  'phone',
  'source',
  'program',
  'program_interest',
  'vendor_id',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'custom_fields',
  'created_at',
);

function webhookBody(settings: WebhookJsonSettings, lead: CrmLead, target: CrmTarget): Record<string, unknown> {
  if (settings.field_mapping) return { external_id: lead._id, ...mapLeadFields(lead, target, settings.field_mapping) };
  const fields: Record<string, unknown> = { id: lead._id };
  for (const field of WEBHOOK_LEAD_FIELDS) fields[field] = lead[field] ?? null;
  return { external_id: lead._id, lead: fields, owner: target.owner, queue: target.queue };
}

function salesforceFields(
  settings: SalesforceSettings,
  lead: CrmLead,
  target: CrmTarget,
  mode: CrmSyncMode,
): Record<string, string | number | boolean> {
  const fields = mapLeadFields(lead, target, settings.field_mapping ?? DEFAULT_SALESFORCE_MAPPING);
  // The upsert key is in the URL; Salesforce refuses it in the body too.
  delete fields[settings.external_id_field];
  if (mode === 'update') {
    // An existing Lead: what a rep changed (a real last name, the company, the owner) stays.
    delete fields['OwnerId'];
    return fields;
  }
  // Lead requires LastName and Company: a placeholder rather than a failure for every lead without them.
  if (fields['LastName'] === undefined) fields['LastName'] = '[not provided]';
  if (fields['Company'] === undefined) fields['Company'] = '[not provided]';
  const owner = [target.owner, target.queue].find((value) => value !== null && SALESFORCE_OWNER_ID.test(value));
  if (owner && fields['OwnerId'] === undefined) fields['OwnerId'] = owner;
  return fields;
}

/** HubSpot matches the email of a batch upsert exactly: lower-cased, `Ada@X.edu` is the contact `ada@x.edu`. */
function hubspotEmail(lead: CrmLead): string {
  return lead.email.trim().toLowerCase();
}

function hubspotProperties(
  settings: HubspotSettings,
  lead: CrmLead,
  target: CrmTarget,
): Record<string, string | number | boolean> {
  const properties = mapLeadFields(lead, target, settings.field_mapping ?? DEFAULT_HUBSPOT_MAPPING);
  properties['email'] = hubspotEmail(lead);
  if (target.owner !== null && HUBSPOT_OWNER_ID.test(target.owner) && properties['hubspot_owner_id'] === undefined)
    properties['hubspot_owner_id'] = target.owner;
  return properties;
}

/**
 * Lengths of standard Lead fields (Salesforce's Lead object reference) a lead's values can
 * exceed: Salesforce refuses a longer value (400 STRING_TOO_LONG) and the Lead is not written.
 */
export const SALESFORCE_LEAD_FIELD_LENGTHS: Readonly<Record<string, number>> = {
  FirstName: 40,
  MiddleName: 40,
  LastName: 80,
  Suffix: 40,
  Email: 80,
  Phone: 40,
  MobilePhone: 40,
  Title: 128,
  Company: 255,
  City: 40,
  State: 80,
  PostalCode: 20,
  Country: 80,
};

/**
 * Why the lead cannot be sent as it is, before any call (a permanent failure that names the field
 * and what to do), or null. Salesforce: a mapped value longer than its standard Lead field; the
 * value is not cut short, which would store another name or another address without a word.
 */
export function syncProblem(connection: CrmConnection, lead: CrmLead, target: CrmTarget): string | null {
  if (connection.type !== 'salesforce') return null;
  const mapping = connection.settings.field_mapping ?? DEFAULT_SALESFORCE_MAPPING;
  const fields = mapLeadFields(lead, target, mapping);
  for (const [field, max] of Object.entries(SALESFORCE_LEAD_FIELD_LENGTHS)) {
    const value = fields[field];
    if (typeof value !== 'string' || value.length <= max) continue;
    const source = mapping[field] ?? field;
    return `${source} is ${value.length} characters and Salesforce's Lead.${field} holds at most ${max}: shorten the lead's ${source} (PATCH /api/leads/:id) and sync it again`;
  }
  return null;
}

const json = { 'content-type': 'application/json', accept: 'application/json' };

function salesforceBase(settings: SalesforceSettings, token: CrmAccessToken): string {
  return `${(token.instanceUrl ?? settings.instance_url).replace(/\/+$/, '')}/services/data/${settings.api_version}`;
}

/** Whether the connector needs an OAuth access token before its calls. */
export function needsAccessToken(connection: CrmConnection): boolean {
  return connection.type === 'salesforce';
}

/**
 * The OAuth token request (Salesforce: client credentials or refresh-token grant, a form body).
 * `refreshToken`: the newest refresh token (rotated since the connection was read), else the
 * connection's own.
 */
export function accessTokenRequest(connection: CrmConnection, refreshToken?: string): CrmHttpRequest {
  if (connection.type !== 'salesforce') throw new Error(`${connection.type} connections take no OAuth token`);
  const credentials: SalesforceCredentials = connection.credentials;
  const form = new URLSearchParams({
    grant_type: connection.settings.grant_type,
    client_id: credentials.client_id,
    client_secret: credentials.client_secret,
  });
  if (connection.settings.grant_type === 'refresh_token')
    form.set('refresh_token', refreshToken ?? credentials.refresh_token ?? '');
  return {
    url: connection.settings.token_url,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    rawBody: form.toString(),
  };
}

/**
 * The token of a token answer, or why there is none (a refused grant is permanent: the credentials
 * are wrong). `refreshToken` is the new refresh token a rotating connected app answers (it
 * replaces the one sent, which no longer works), or null.
 */
export function readAccessToken(
  response: CrmHttpResponse,
  now: number,
):
  | { ok: true; token: CrmAccessToken; refreshToken: string | null }
  | { ok: false; outcome: Exclude<CrmOutcome, { kind: 'synced' }> } {
  if (response.failure || response.status === null || response.status < 200 || response.status >= 300) {
    const outcome = classifyFailure(response, now);
    // A 401 of the token endpoint itself is not cured by asking again.
    return {
      ok: false,
      outcome:
        outcome.kind === 'unauthorized'
          ? { kind: 'permanent', error: `token request refused: ${outcome.error}`, status: outcome.status }
          : prefixed(outcome, 'token request failed: '),
    };
  }
  const body = parseJson(response.body);
  const accessToken = isRecord(body) && typeof body['access_token'] === 'string' ? body['access_token'] : undefined;
  if (!accessToken)
    return {
      ok: false,
      outcome: {
        kind: 'permanent',
        error: 'the token endpoint answered without access_token',
        status: response.status,
      },
    };
  const expiresIn =
    isRecord(body) && typeof body['expires_in'] === 'number' ? body['expires_in'] * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
  const instanceUrl = isRecord(body) && typeof body['instance_url'] === 'string' ? body['instance_url'] : null;
  const refreshToken =
    isRecord(body) && typeof body['refresh_token'] === 'string' && body['refresh_token'].length > 0
      ? body['refresh_token']
      : null;
  // Fetched again a minute early, so a token never expires between the check and the call.
  return {
    ok: true,
    token: { accessToken, expiresAt: now + Math.max(0, expiresIn - 60_000), instanceUrl },
    refreshToken,
  };
}

function prefixed<T extends { error: string }>(outcome: T, prefix: string): T {
  return { ...outcome, error: `${prefix}${outcome.error}` };
}

/**
 * The credential in the header the settings name. A header refused since it was saved (Host and
 * the like, or a value with a line break) is left out rather than sent: the CRM then answers 401.
 */
function authHeader(settings: WebhookJsonSettings, credentials: WebhookJsonCredentials): Record<string, string> {
  if (!credentials.auth_value || outboundHeaderProblem(settings.auth_header, credentials.auth_value, 4000) !== null)
    return {};
  return { [settings.auth_header.toLowerCase()]: credentials.auth_value };
}

/** The upsert of one lead (`mode`: see CrmSyncMode; only Salesforce sends the two differently). */
export function syncRequest(
  connection: CrmConnection,
  lead: CrmLead,
  target: CrmTarget,
  token: CrmAccessToken | null,
  mode: CrmSyncMode = 'create',
): CrmHttpRequest {
  switch (connection.type) {
    case 'webhook_json': {
      const credentials: WebhookJsonCredentials = connection.credentials;
      return {
        url: connection.settings.url,
        method: 'POST',
        headers: { ...json, 'idempotency-key': lead._id, ...authHeader(connection.settings, credentials) },
        body: webhookBody(connection.settings, lead, target),
      };
    }
    case 'salesforce': {
      if (!token) throw new Error('a Salesforce sync needs an access token');
      const settings = connection.settings;
      const body = salesforceFields(settings, lead, target, mode);
      const headers: Record<string, string> = { ...json, authorization: `Bearer ${token.accessToken}` };
      // Salesforce runs its active assignment rules on every create and update unless told not to:
      // they would replace the owner routing chose, or take an existing Lead from its rep. A Lead
      // created without an owner is left to them (else the integration user would own it).
      if (!settings.keep_assignment_rules && (mode === 'update' || body['OwnerId'] !== undefined))
        headers['sforce-auto-assign'] = 'FALSE';
      return {
        url: `${salesforceBase(settings, token)}/sobjects/Lead/${encodeURIComponent(settings.external_id_field)}/${encodeURIComponent(lead._id)}`,
        method: 'PATCH',
        headers,
        body,
      };
    }
    case 'hubspot': {
      const credentials: HubspotCredentials = connection.credentials;
      return {
        url: `${connection.settings.base_url}/crm/v3/objects/contacts/batch/upsert`,
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${credentials.private_app_token}` },
        body: {
          inputs: [
            {
              idProperty: 'email',
              id: hubspotEmail(lead),
              properties: hubspotProperties(connection.settings, lead, target),
            },
          ],
        },
      };
    }
  }
}

/** Salesforce answers an update of an older API version with 204 and no id: the id by external id. */
export function salesforceLookupRequest(
  connection: CrmConnection,
  leadId: string,
  token: CrmAccessToken,
): CrmHttpRequest {
  if (connection.type !== 'salesforce') throw new Error('only Salesforce records are looked up');
  const settings = connection.settings;
  return {
    url: `${salesforceBase(settings, token)}/sobjects/Lead/${encodeURIComponent(settings.external_id_field)}/${encodeURIComponent(leadId)}?fields=Id`,
    method: 'GET',
    headers: { accept: 'application/json', authorization: `Bearer ${token.accessToken}` },
  };
}

/** A call that checks the connection without writing anything to the CRM (POST /api/crm/connections/:id/test). */
export function testRequest(connection: CrmConnection, token: CrmAccessToken | null): CrmHttpRequest {
  switch (connection.type) {
    case 'webhook_json': {
      const credentials: WebhookJsonCredentials = connection.credentials;
      // The receiver is told it is a test (docs/crm.md): answer 2xx, store nothing.
      return {
        url: connection.settings.url,
        method: 'POST',
        headers: { ...json, 'x-leadstream-test': 'true', ...authHeader(connection.settings, credentials) },
        body: { test: true },
      };
    }
    case 'salesforce':
      if (!token) throw new Error('a Salesforce test needs an access token');
      return {
        url: `${salesforceBase(connection.settings, token)}/sobjects/Lead/describe`,
        method: 'GET',
        headers: { accept: 'application/json', authorization: `Bearer ${token.accessToken}` },
      };
    case 'hubspot': {
      const credentials: HubspotCredentials = connection.credentials;
      return {
        url: `${connection.settings.base_url}/crm/v3/objects/contacts?limit=1`,
        method: 'GET',
        headers: { accept: 'application/json', authorization: `Bearer ${credentials.private_app_token}` },
      };
    }
  }
}

/**
 * Whether Salesforce refused an update body because the upsert would create the Lead (it was
 * deleted there): the create body, with the placeholders of required fields, goes instead.
 */
export function salesforceNeedsCreateBody(response: CrmHttpResponse): boolean {
  return response.status === 400 && salesforceErrorCodes(response.body).includes('REQUIRED_FIELD_MISSING');
}

/** Reads the answer of a sync request (`leadId`: the external id sent, for the error of a 300). */
export function readSyncResponse(
  connection: CrmConnection,
  response: CrmHttpResponse,
  now: number,
  leadId?: string,
): CrmOutcome {
  if (connection.type === 'salesforce' && response.status === 300 && !response.failure)
    return salesforceSeveralRecords(connection.settings, response, leadId);
  if (response.failure || response.status === null || response.status < 200 || response.status >= 300)
    return classifyFailure(response, now);
  const body = parseJson(response.body);
  switch (connection.type) {
    case 'webhook_json': {
      const id = isRecord(body) ? body[connection.settings.id_field] : undefined;
      if (typeof id === 'string' && id.length > 0) return { kind: 'synced', crmId: id, created: null };
      if (typeof id === 'number') return { kind: 'synced', crmId: String(id), created: null };
      // Accepted without an id: synced, with no id to show.
      return { kind: 'synced', crmId: null, created: null };
    }
    case 'salesforce': {
      if (response.status === 204) return { kind: 'synced', crmId: null, created: false };
      const id =
        isRecord(body) && typeof body['id'] === 'string'
          ? body['id']
          : isRecord(body) && typeof body['Id'] === 'string'
            ? body['Id']
            : null;
      return {
        kind: 'synced',
        crmId: id,
        created:
          response.status === 201
            ? true
            : isRecord(body) && typeof body['created'] === 'boolean'
              ? body['created']
              : null,
      };
    }
    case 'hubspot': {
      const results = isRecord(body) && Array.isArray(body['results']) ? (body['results'] as unknown[]) : [];
      const errors = isRecord(body) && Array.isArray(body['errors']) ? (body['errors'] as unknown[]) : [];
      const first = results[0];
      if (isRecord(first) && (typeof first['id'] === 'string' || typeof first['id'] === 'number'))
        return {
          kind: 'synced',
          crmId: String(first['id']),
          created: typeof first['new'] === 'boolean' ? first['new'] : null,
        };
      // 207 Multi-Status: the input failed on its own (a property HubSpot does not have, a bad value).
      return {
        kind: 'permanent',
        error:
          errors.length > 0
            ? `HubSpot refused the contact: ${messageOf(errors[0]) ?? 'error'}`
            : 'HubSpot answered without a contact id',
        status: response.status,
      };
    }
  }
}

/**
 * Salesforce answers an upsert whose external id several Leads share with 300 and their URLs
 * (`["/services/data/v60.0/sobjects/Lead/00Q…", …]`), and writes none of them: a person has to
 * merge them, so the error names them.
 */
function salesforceSeveralRecords(
  settings: SalesforceSettings,
  response: CrmHttpResponse,
  leadId: string | undefined,
): CrmOutcome {
  const body = parseJson(response.body);
  const ids = (Array.isArray(body) ? body : [])
    .map((entry) =>
      typeof entry === 'string'
        ? entry
        : isRecord(entry)
          ? typeof entry['url'] === 'string'
            ? entry['url']
            : typeof entry['Id'] === 'string'
              ? entry['Id']
              : null
          : null,
    )
    .filter((entry): entry is string => entry !== null && entry.length > 0)
    .map(
      (entry) =>
        entry
          .split('/')
          .filter((part) => part.length > 0)
          .at(-1) ?? entry,
    )
    .slice(0, 20);
  const key = `${settings.external_id_field}${leadId ? ` = ${leadId}` : ''}`;
  const named =
    ids.length > 0
      ? `${ids.length} Salesforce Leads have this lead's external id (${key}): ${ids.join(', ')}`
      : `several Salesforce Leads have this lead's external id (${key})`;
  return {
    kind: 'permanent',
    error: `HTTP 300: ${named}; merge them or clear the field on all but one, then sync again`,
    status: 300,
  };
}

/** The record id of a Salesforce look-up answer. */
export function readSalesforceLookup(response: CrmHttpResponse): string | null {
  const body = parseJson(response.body);
  return isRecord(body) && typeof body['Id'] === 'string' ? body['Id'] : null;
}

/** Where a person opens the CRM record (lead.crm_synced's crm_record_url), or null. */
export function crmRecordUrl(
  connection: CrmConnection,
  crmId: string | null,
  token?: CrmAccessToken | null,
): string | null {
  if (crmId === null) return null;
  switch (connection.type) {
    case 'webhook_json':
      return connection.settings.record_url_template
        ? connection.settings.record_url_template.replaceAll('{crm_id}', encodeURIComponent(crmId))
        : null;
    case 'salesforce':
      return `${(token?.instanceUrl ?? connection.settings.instance_url).replace(/\/+$/, '')}/${encodeURIComponent(crmId)}`;
    case 'hubspot':
      return connection.settings.portal_id
        ? `https://app.hubspot.com/contacts/${connection.settings.portal_id}/record/0-1/${encodeURIComponent(crmId)}`
        : null;
  }
}

/**
 * Which failures are worth another attempt: none of a refused target, a permanent 4xx or a 3xx
 * (redirects are not followed, so a moved endpoint is a configuration error).
 */
export function classifyFailure(response: CrmHttpResponse, now: number): Exclude<CrmOutcome, { kind: 'synced' }> {
  if (response.failure) {
    if (response.failure.code === 'TARGET_REFUSED')
      return { kind: 'permanent', error: response.failure.message, status: null };
    return { kind: 'retryable', error: response.failure.message, status: null, retryAfterMs: null };
  }
  const status = response.status ?? 0;
  const message = crmErrorMessage(response.body);
  const error = message ? `HTTP ${status}: ${message}` : `HTTP ${status}`;
  if (status === 401) return { kind: 'unauthorized', error, status };
  if (status === 408 || status === 429 || status >= 500)
    return { kind: 'retryable', error, status, retryAfterMs: retryAfterMs(response.headers, now) };
  const codes = salesforceErrorCodes(response.body);
  if (codes.includes('REQUEST_LIMIT_EXCEEDED')) {
    // 403: the org's daily API allowance is used up, or too many long requests are in flight.
    // Every lead of that window would fail for good if this were permanent.
    const wait = /concurrent/i.test(message ?? '')
      ? SALESFORCE_CONCURRENCY_LIMIT_RETRY_MS
      : SALESFORCE_DAILY_LIMIT_RETRY_MS;
    return { kind: 'retryable', error, status, retryAfterMs: Math.max(wait, retryAfterMs(response.headers, now) ?? 0) };
  }
  // Another transaction (a rep, a flow, a data load) holds the Lead: free again in seconds.
  if (codes.includes('UNABLE_TO_LOCK_ROW'))
    return { kind: 'retryable', error, status, retryAfterMs: retryAfterMs(response.headers, now) };
  return { kind: 'permanent', error, status };
}

/** The `errorCode`s of a Salesforce error answer (`[{message, errorCode, fields}]`). */
export function salesforceErrorCodes(body: string): string[] {
  const parsed = parseJson(body);
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((entry) =>
    isRecord(entry) && typeof entry['errorCode'] === 'string' ? [entry['errorCode']] : [],
  );
}

/** Retry-After as milliseconds from now (delta seconds or an HTTP date), or null. */
export function retryAfterMs(headers: CrmHttpResponse['headers'], now: number): number | null {
  const raw = headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * The CRM's own words from an error body: Salesforce `[{message, errorCode}]`, HubSpot `{message}`
 * (with the scopes a private app lacks, from `errors[].context`), OAuth `{error_description}`.
 */
export function crmErrorMessage(body: string): string | null {
  const parsed = parseJson(body);
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  const message = messageOf(first);
  const scopes = requiredScopes(first);
  if (message) return `${message.slice(0, 400)}${scopes.length > 0 ? ` (required scopes: ${scopes.join(', ')})` : ''}`;
  const text = body.trim();
  return text.length > 0 && parsed === undefined ? text.slice(0, 200) : null;
}

/** HubSpot's MISSING_SCOPES answer names the scopes in `errors[].context.requiredGranularScopes` (or `requiredScopes`). */
function requiredScopes(value: unknown): string[] {
  if (!isRecord(value) || !Array.isArray(value['errors'])) return [];
  const scopes = new Set<string>();
  for (const entry of value['errors'] as unknown[]) {
    const context = isRecord(entry) && isRecord(entry['context']) ? entry['context'] : null;
    for (const key of ['requiredGranularScopes', 'requiredScopes']) {
      const listed = context?.[key];
      if (Array.isArray(listed))
        for (const scope of listed) if (typeof scope === 'string' && scope.length <= 100) scopes.add(scope);
    }
  }
  return [...scopes].slice(0, 10);
}

function messageOf(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const code = typeof value['errorCode'] === 'string' ? `${value['errorCode']}: ` : '';
  for (const key of ['message', 'error_description', 'error']) {
    const candidate = value[key];
    if (typeof candidate === 'string' && candidate.length > 0) return `${code}${candidate}`;
    if (isRecord(candidate) && typeof candidate['message'] === 'string') return `${code}${candidate['message']}`;
  }
  return null;
}

function parseJson(text: string): unknown {
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
