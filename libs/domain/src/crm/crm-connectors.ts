/**
 * The CRM connectors as pure request/response shaping (no I/O): what to send for a lead, how to
 * read the answer, and which failures are worth retrying. The crm-sync stage and the API's
 * connection test make the calls (through the runtime's outbound HTTP) and hand the answers back.
 *
 * - webhook_json: POST the mapped lead to the URL with the configured auth header; the record id
 *   is a top-level field of the JSON answer. `Idempotency-Key` and `external_id` carry the lead
 *   id, so a receiver can upsert.
 * - salesforce: OAuth token (client credentials or refresh token), then REST upsert of a Lead by
 *   external id: PATCH /services/data/vXX.X/sobjects/Lead/{ExternalIdField__c}/{lead id}.
 * - hubspot: CRM v3 contacts batch upsert by email with a private-app token.
 *
 * Failures: 429, 5xx, 408, timeouts and connection failures are retryable (Retry-After is read);
 * 401 asks for a fresh token (once); any other 4xx, a 3xx, or a refused target is permanent.
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
export function mapLeadFields(lead: CrmLead, target: CrmTarget, mapping: CrmFieldMapping): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean> = {};
  for (const [crmField, path] of Object.entries(mapping)) {
    const value = leadValue(lead, target, path);
    if (value === undefined || value === null || value === '') continue;
    fields[crmField] = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);
  }
  return fields;
}

export const DEFAULT_SALESFORCE_MAPPING: CrmFieldMapping = { FirstName: 'first_name', LastName: 'last_name', Email: 'email', Phone: 'phone', LeadSource: 'source' };
export const DEFAULT_HUBSPOT_MAPPING: CrmFieldMapping = { email: 'email', firstname: 'first_name', lastname: 'last_name', phone: 'phone' };
/** Salesforce user (005) and group/queue (00G) ids, 15 or 18 characters. */
const SALESFORCE_OWNER_ID = /^00[5G][A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?$/;
const HUBSPOT_OWNER_ID = /^\d{1,20}$/;

const WEBHOOK_LEAD_FIELDS = ['email', 'first_name', 'last_name', 'phone', 'source', 'program', 'program_interest', 'vendor_id', 'landing_page', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'custom_fields', 'created_at'] as const;

function webhookBody(settings: WebhookJsonSettings, lead: CrmLead, target: CrmTarget): Record<string, unknown> {
  if (settings.field_mapping) return { external_id: lead._id, ...mapLeadFields(lead, target, settings.field_mapping) };
  const fields: Record<string, unknown> = { id: lead._id };
  for (const field of WEBHOOK_LEAD_FIELDS) fields[field] = lead[field] ?? null;
  return { external_id: lead._id, lead: fields, owner: target.owner, queue: target.queue };
}

function salesforceFields(settings: SalesforceSettings, lead: CrmLead, target: CrmTarget): Record<string, string | number | boolean> {
  const fields = mapLeadFields(lead, target, settings.field_mapping ?? DEFAULT_SALESFORCE_MAPPING);
  // Lead requires LastName and Company: a placeholder rather than a failure for every lead without them.
  if (fields['LastName'] === undefined) fields['LastName'] = '[not provided]';
  if (fields['Company'] === undefined) fields['Company'] = '[not provided]';
  const owner = [target.owner, target.queue].find((value) => value !== null && SALESFORCE_OWNER_ID.test(value));
  if (owner && fields['OwnerId'] === undefined) fields['OwnerId'] = owner;
  // The upsert key is in the URL; Salesforce refuses it in the body too.
  delete fields[settings.external_id_field];
  return fields;
}

function hubspotProperties(settings: HubspotSettings, lead: CrmLead, target: CrmTarget): Record<string, string | number | boolean> {
  const properties = mapLeadFields(lead, target, settings.field_mapping ?? DEFAULT_HUBSPOT_MAPPING);
  properties['email'] = lead.email;
  if (target.owner !== null && HUBSPOT_OWNER_ID.test(target.owner) && properties['hubspot_owner_id'] === undefined) properties['hubspot_owner_id'] = target.owner;
  return properties;
}

const json = { 'content-type': 'application/json', accept: 'application/json' };

function salesforceBase(settings: SalesforceSettings, token: CrmAccessToken): string {
  return `${(token.instanceUrl ?? settings.instance_url).replace(/\/+$/, '')}/services/data/${settings.api_version}`;
}

/** Whether the connector needs an OAuth access token before its calls. */
export function needsAccessToken(connection: CrmConnection): boolean {
  return connection.type === 'salesforce';
}

/** The OAuth token request (Salesforce: client credentials or refresh-token grant, a form body). */
export function accessTokenRequest(connection: CrmConnection): CrmHttpRequest {
  if (connection.type !== 'salesforce') throw new Error(`${connection.type} connections take no OAuth token`);
  const credentials: SalesforceCredentials = connection.credentials;
  const form = new URLSearchParams({ grant_type: connection.settings.grant_type, client_id: credentials.client_id, client_secret: credentials.client_secret });
  if (connection.settings.grant_type === 'refresh_token') form.set('refresh_token', credentials.refresh_token ?? '');
  return { url: connection.settings.token_url, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, rawBody: form.toString() };
}

/** The token of a token answer, or why there is none (a refused grant is permanent: the credentials are wrong). */
export function readAccessToken(response: CrmHttpResponse, now: number): { ok: true; token: CrmAccessToken } | { ok: false; outcome: Exclude<CrmOutcome, { kind: 'synced' }> } {
  if (response.failure || response.status === null || response.status < 200 || response.status >= 300) {
    const outcome = classifyFailure(response, now);
    // A 401 of the token endpoint itself is not cured by asking again.
    return { ok: false, outcome: outcome.kind === 'unauthorized' ? { kind: 'permanent', error: `token request refused: ${outcome.error}`, status: outcome.status } : prefixed(outcome, 'token request failed: ') };
  }
  const body = parseJson(response.body);
  const accessToken = isRecord(body) && typeof body['access_token'] === 'string' ? body['access_token'] : undefined;
  if (!accessToken) return { ok: false, outcome: { kind: 'permanent', error: 'the token endpoint answered without access_token', status: response.status } };
  const expiresIn = isRecord(body) && typeof body['expires_in'] === 'number' ? body['expires_in'] * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
  const instanceUrl = isRecord(body) && typeof body['instance_url'] === 'string' ? body['instance_url'] : null;
  // Fetched again a minute early, so a token never expires between the check and the call.
  return { ok: true, token: { accessToken, expiresAt: now + Math.max(0, expiresIn - 60_000), instanceUrl } };
}

function prefixed<T extends { error: string }>(outcome: T, prefix: string): T {
  return { ...outcome, error: `${prefix}${outcome.error}` };
}

/**
 * The credential in the header the settings name. A header refused since it was saved (Host and
 * the like, or a value with a line break) is left out rather than sent: the CRM then answers 401.
 */
function authHeader(settings: WebhookJsonSettings, credentials: WebhookJsonCredentials): Record<string, string> {
  if (!credentials.auth_value || outboundHeaderProblem(settings.auth_header, credentials.auth_value, 4000) !== null) return {};
  return { [settings.auth_header.toLowerCase()]: credentials.auth_value };
}

/** The upsert of one lead. */
export function syncRequest(connection: CrmConnection, lead: CrmLead, target: CrmTarget, token: CrmAccessToken | null): CrmHttpRequest {
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
      return {
        url: `${salesforceBase(settings, token)}/sobjects/Lead/${encodeURIComponent(settings.external_id_field)}/${encodeURIComponent(lead._id)}`,
        method: 'PATCH',
        headers: { ...json, authorization: `Bearer ${token.accessToken}` },
        body: salesforceFields(settings, lead, target),
      };
    }
    case 'hubspot': {
      const credentials: HubspotCredentials = connection.credentials;
      return {
        url: `${connection.settings.base_url}/crm/v3/objects/contacts/batch/upsert`,
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${credentials.private_app_token}` },
        body: { inputs: [{ idProperty: 'email', id: lead.email, properties: hubspotProperties(connection.settings, lead, target) }] },
      };
    }
  }
}

/** Salesforce answers an update of an older API version with 204 and no id: the id by external id. */
export function salesforceLookupRequest(connection: CrmConnection, leadId: string, token: CrmAccessToken): CrmHttpRequest {
  if (connection.type !== 'salesforce') throw new Error('only Salesforce records are looked up');
  const settings = connection.settings;
  return { url: `${salesforceBase(settings, token)}/sobjects/Lead/${encodeURIComponent(settings.external_id_field)}/${encodeURIComponent(leadId)}?fields=Id`, method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${token.accessToken}` } };
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
      return { url: `${salesforceBase(connection.settings, token)}/sobjects/Lead/describe`, method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${token.accessToken}` } };
    case 'hubspot': {
      const credentials: HubspotCredentials = connection.credentials;
      return { url: `${connection.settings.base_url}/crm/v3/objects/contacts?limit=1`, method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${credentials.private_app_token}` } };
    }
  }
}

/** Reads the answer of a sync request. */
export function readSyncResponse(connection: CrmConnection, response: CrmHttpResponse, now: number): CrmOutcome {
  if (response.failure || response.status === null || response.status < 200 || response.status >= 300) return classifyFailure(response, now);
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
      const id = isRecord(body) && typeof body['id'] === 'string' ? body['id'] : isRecord(body) && typeof body['Id'] === 'string' ? body['Id'] : null;
      return { kind: 'synced', crmId: id, created: response.status === 201 ? true : isRecord(body) && typeof body['created'] === 'boolean' ? body['created'] : null };
    }
    case 'hubspot': {
      const results = isRecord(body) && Array.isArray(body['results']) ? (body['results'] as unknown[]) : [];
      const errors = isRecord(body) && Array.isArray(body['errors']) ? (body['errors'] as unknown[]) : [];
      const first = results[0];
      if (isRecord(first) && (typeof first['id'] === 'string' || typeof first['id'] === 'number')) return { kind: 'synced', crmId: String(first['id']), created: typeof first['new'] === 'boolean' ? first['new'] : null };
      // 207 Multi-Status: the input failed on its own (a property HubSpot does not have, a bad value).
      return { kind: 'permanent', error: errors.length > 0 ? `HubSpot refused the contact: ${messageOf(errors[0]) ?? 'error'}` : 'HubSpot answered without a contact id', status: response.status };
    }
  }
}

/** The record id of a Salesforce look-up answer. */
export function readSalesforceLookup(response: CrmHttpResponse): string | null {
  const body = parseJson(response.body);
  return isRecord(body) && typeof body['Id'] === 'string' ? body['Id'] : null;
}

/** Where a person opens the CRM record (lead.crm_synced's crm_record_url), or null. */
export function crmRecordUrl(connection: CrmConnection, crmId: string | null, token?: CrmAccessToken | null): string | null {
  if (crmId === null) return null;
  switch (connection.type) {
    case 'webhook_json':
      return connection.settings.record_url_template ? connection.settings.record_url_template.replaceAll('{crm_id}', encodeURIComponent(crmId)) : null;
    case 'salesforce':
      return `${(token?.instanceUrl ?? connection.settings.instance_url).replace(/\/+$/, '')}/${encodeURIComponent(crmId)}`;
    case 'hubspot':
      return connection.settings.portal_id ? `https://app.hubspot.com/contacts/${connection.settings.portal_id}/record/0-1/${encodeURIComponent(crmId)}` : null;
  }
}

/**
 * Which failures are worth another attempt: none of a refused target, a permanent 4xx or a 3xx
 * (redirects are not followed, so a moved endpoint is a configuration error).
 */
export function classifyFailure(response: CrmHttpResponse, now: number): Exclude<CrmOutcome, { kind: 'synced' }> {
  if (response.failure) {
    if (response.failure.code === 'TARGET_REFUSED') return { kind: 'permanent', error: response.failure.message, status: null };
    return { kind: 'retryable', error: response.failure.message, status: null, retryAfterMs: null };
  }
  const status = response.status ?? 0;
  const message = crmErrorMessage(response.body);
  const error = message ? `HTTP ${status}: ${message}` : `HTTP ${status}`;
  if (status === 401) return { kind: 'unauthorized', error, status };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retryable', error, status, retryAfterMs: retryAfterMs(response.headers, now) };
  return { kind: 'permanent', error, status };
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

/** The CRM's own words from an error body: Salesforce `[{message, errorCode}]`, HubSpot `{message}`, OAuth `{error_description}`. */
export function crmErrorMessage(body: string): string | null {
  const parsed = parseJson(body);
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  const message = messageOf(first);
  if (message) return message.slice(0, 500);
  const text = body.trim();
  return text.length > 0 && parsed === undefined ? text.slice(0, 200) : null;
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
