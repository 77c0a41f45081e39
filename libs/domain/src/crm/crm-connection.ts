/**
 * CRM connections of an organization (operations `listCrmConnections`, ...; docs/decisions.md "CRM
 * connections and sync" and docs/crm.md have the payloads). A connection has a type, settings
 * anyone with CRM access may read, and credentials that are write-only: the API never answers
 * them, and the store keeps them encrypted (the ciphertext comes from outside the domain).
 */
import type { ErrorDetail } from '../errors';
import { leadFields } from '../lead/lead-fields';
import { outboundHeaderProblem } from '../outbound/outbound-headers';
import type { Environment, TenantContext } from '../tenant';

export const CRM_CONNECTION_TYPES = ['webhook_json', 'salesforce', 'hubspot'] as const;
export type CrmConnectionType = (typeof CRM_CONNECTION_TYPES)[number];

/** Lead fields a field mapping may name: top-level fields, or a path into the nested objects. */
export const CRM_MAPPABLE_TOP_FIELDS = [
  ...leadFields(
    'id',
    'email',
    'first_name',
    'last_name',
    'phone',
    'source',
    'program',
    'program_interest',
    'vendor_id',
    'status',
    'landing_page',
    'referrer',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'utm_term',
    'utm_content',
    'created_at',
  ),
  // Not fields of the lead resource: when the lead was submitted, and the owner and queue of the route's target.
  'submitted_at',
  'owner',
  'queue',
] as const;
const NESTED_FIELD = /^(custom_fields|enrichment_data|calculated_fields)\.[A-Za-z0-9_-]{1,64}$/;
const CRM_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,79}$/;

/** `{CRM field: lead field}`: which lead field fills which field of the CRM record. */
export type CrmFieldMapping = Record<string, string>;

export interface WebhookJsonSettings {
  url: string;
  /** Header the credential goes in (default Authorization); the value is a credential. */
  auth_header: string;
  /** Top-level field of the receiver's JSON answer that holds the record id (default `id`). */
  id_field: string;
  /** `{crm_id}` is replaced by the record id; null = no record URL. */
  record_url_template: string | null;
  field_mapping: CrmFieldMapping | null;
}

export interface SalesforceSettings {
  instance_url: string;
  token_url: string;
  grant_type: 'client_credentials' | 'refresh_token';
  /** Custom external-id field of Lead the upsert is keyed by (holds the leadstream lead id). */
  external_id_field: string;
  api_version: string;
  field_mapping: CrmFieldMapping | null;
  /**
   * false (default): a Lead created with the owner routing chose, and every update, is sent with
   * `Sforce-Auto-Assign: FALSE`, so Salesforce's active assignment rules do not replace that
   * owner or reassign a Lead a rep owns. true: Salesforce's rules run on every create and update.
   * Absent from connections stored before the setting (false).
   */
  keep_assignment_rules?: boolean;
}

export interface HubspotSettings {
  base_url: string;
  /** For record links (app.hubspot.com/contacts/{portal}/record/0-1/{id}); null = no link. */
  portal_id: string | null;
  field_mapping: CrmFieldMapping | null;
}

export type CrmSettings = WebhookJsonSettings | SalesforceSettings | HubspotSettings;

export interface WebhookJsonCredentials {
  auth_value?: string;
}
export interface SalesforceCredentials {
  client_id: string;
  client_secret: string;
  refresh_token?: string;
}
export interface HubspotCredentials {
  private_app_token: string;
}
export type CrmCredentials = WebhookJsonCredentials | SalesforceCredentials | HubspotCredentials;

/**
 * A connection with its settings and decrypted credentials, as the connectors use it. `tenant`
 * names the stored connection (a rotated Salesforce refresh token is written back to it); a
 * connection without one (a test's) keeps a rotated token in memory only.
 */
export type CrmConnection =
  | {
      id: string;
      name: string;
      type: 'webhook_json';
      enabled: boolean;
      settings: WebhookJsonSettings;
      credentials: WebhookJsonCredentials;
      updated_at: string;
      tenant?: TenantContext;
    }
  | {
      id: string;
      name: string;
      type: 'salesforce';
      enabled: boolean;
      settings: SalesforceSettings;
      credentials: SalesforceCredentials;
      updated_at: string;
      tenant?: TenantContext;
    }
  | {
      id: string;
      name: string;
      type: 'hubspot';
      enabled: boolean;
      settings: HubspotSettings;
      credentials: HubspotCredentials;
      updated_at: string;
      tenant?: TenantContext;
    };

/**
 * A connection as stored. `settings_json` holds the settings as a JSON string (a field mapping
 * names free-form CRM fields, which a FerretDB document could not always hold as keys);
 * `credentials_encrypted` is the credentials' ciphertext.
 */
export interface CrmConnectionRecord {
  _id: string;
  organization_id: string;
  environment: Environment;
  name: string;
  type: CrmConnectionType;
  enabled: boolean;
  settings_json: string;
  credentials_encrypted: string;
  /** Names of the credential fields that are set (never their values), for the API. */
  credential_fields: string[];
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

/** What a request to create a connection carries, checked. */
export interface CrmConnectionInput {
  name: string;
  type: CrmConnectionType;
  enabled: boolean;
  settings: CrmSettings;
  credentials: CrmCredentials;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; details: ErrorDetail[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Reader {
  readonly details: ErrorDetail[] = [];
  constructor(
    private readonly source: Record<string, unknown>,
    private readonly prefix: string,
  ) {}

  private problem(field: string, message: string): undefined {
    this.details.push({ field: `${this.prefix}${field}`, message: `${this.prefix}${field} ${message}` });
    return undefined;
  }

  text(
    field: string,
    options: { required?: boolean; max?: number; pattern?: RegExp; patternMessage?: string } = {},
  ): string | undefined {
    const value = this.source[field];
    if (value === undefined || value === null || value === '')
      return options.required ? this.problem(field, 'is required') : undefined;
    if (typeof value !== 'string') return this.problem(field, 'must be a string');
    const trimmed = value.trim();
    if (trimmed.length === 0) return options.required ? this.problem(field, 'is required') : undefined;
    if (trimmed.length > (options.max ?? 2000))
      return this.problem(field, `must be at most ${options.max ?? 2000} characters`);
    if (options.pattern && !options.pattern.test(trimmed))
      return this.problem(field, options.patternMessage ?? 'has an invalid format');
    return trimmed;
  }

  url(field: string, required: boolean): string | undefined {
    const value = this.text(field, { required, max: 2000 });
    if (value === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      return this.problem(field, 'must be an absolute URL');
    }
    // https is required when the call is made (the outbound module, which development settings relax).
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      return this.problem(field, 'must be an http(s) URL');
    if (parsed.username || parsed.password)
      return this.problem(field, 'may not carry credentials; put them in credentials');
    return value.replace(/\/+$/, '');
  }

  /** A header name leadstream may send (the one check of outbound headers). */
  header(field: string): string | undefined {
    const name = this.text(field, { max: 100 });
    if (name === undefined) return undefined;
    const problem = outboundHeaderProblem(name);
    return problem ? this.problem(field, `is refused: ${problem}`) : name;
  }

  /** The value of header `name`, which leadstream may send (the one check of outbound headers). */
  headerValue(field: string, name: string, max: number): string | undefined {
    const value = this.text(field, { max });
    if (value === undefined) return undefined;
    const problem = outboundHeaderProblem(name, value, max);
    return problem ? this.problem(field, `is refused: ${problem}`) : value;
  }

  flag(field: string, fallback: boolean): boolean {
    const value = this.source[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.problem(field, 'must be a boolean');
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], fallback: T): T {
    const value = this.source[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.problem(field, `must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return value as T;
  }

  unknownKeys(allowed: readonly string[]): void {
    for (const key of Object.keys(this.source)) if (!allowed.includes(key)) this.problem(key, 'is not a known field');
  }
}

/** Why a field-mapping entry is unusable, or null. */
function mappingProblems(value: unknown, field: string): { mapping: CrmFieldMapping | null; details: ErrorDetail[] } {
  if (value === undefined || value === null) return { mapping: null, details: [] };
  if (!isObject(value))
    return { mapping: null, details: [{ field, message: `${field} must be an object of {CRM field: lead field}` }] };
  const details: ErrorDetail[] = [];
  const entries = Object.entries(value);
  if (entries.length === 0 || entries.length > 100)
    details.push({ field, message: `${field} must have 1 to 100 entries` });
  const mapping: CrmFieldMapping = {};
  for (const [crmField, leadField] of entries) {
    if (!CRM_FIELD_NAME.test(crmField))
      details.push({
        field: `${field}.${crmField}`,
        message: `${field} key "${crmField}" must be a CRM field name (letters, digits, _)`,
      });
    else if (
      typeof leadField !== 'string' ||
      !((CRM_MAPPABLE_TOP_FIELDS as readonly string[]).includes(leadField) || NESTED_FIELD.test(leadField))
    ) {
      details.push({
        field: `${field}.${crmField}`,
        message: `${field}.${crmField} must name a lead field (${CRM_MAPPABLE_TOP_FIELDS.slice(0, 4).join(', ')}, ..., custom_fields.<name>)`,
      });
    } else mapping[crmField] = leadField;
  }
  return { mapping: details.length === 0 ? mapping : null, details };
}

const SF_FIELD = /^[A-Za-z][A-Za-z0-9_]{0,77}__c$/;
const API_VERSION = /^v\d{2,3}\.\d$/;

function parseSettings(type: CrmConnectionType, raw: Record<string, unknown>): Parsed<CrmSettings> {
  const reader = new Reader(raw, 'settings.');
  const mapping = mappingProblems(raw['field_mapping'], 'settings.field_mapping');
  let settings: CrmSettings;
  switch (type) {
    case 'webhook_json': {
      reader.unknownKeys(['url', 'auth_header', 'id_field', 'record_url_template', 'field_mapping']);
      const template = reader.text('record_url_template', { max: 2000 });
      if (template !== undefined && !template.includes('{crm_id}'))
        reader.details.push({
          field: 'settings.record_url_template',
          message: 'settings.record_url_template must contain {crm_id}',
        });
      settings = {
        url: reader.url('url', true) ?? '',
        auth_header: reader.header('auth_header') ?? 'Authorization',
        id_field:
          reader.text('id_field', {
            max: 100,
            pattern: /^[A-Za-z0-9_-]+$/,
            patternMessage: 'must be a top-level JSON field name',
          }) ?? 'id',
        record_url_template: template ?? null,
        field_mapping: mapping.mapping,
      };
      break;
    }
    case 'salesforce': {
      reader.unknownKeys([
        'instance_url',
        'token_url',
        'grant_type',
        'external_id_field',
        'api_version',
        'field_mapping',
        'keep_assignment_rules',
      ]);
      const instance = reader.url('instance_url', true) ?? '';
      settings = {
        instance_url: instance,
        token_url: reader.url('token_url', false) ?? (instance ? `${instance}/services/oauth2/token` : ''),
        grant_type: reader.oneOf('grant_type', ['client_credentials', 'refresh_token'] as const, 'client_credentials'),
        external_id_field:
          reader.text('external_id_field', {
            max: 80,
            pattern: SF_FIELD,
            patternMessage: 'must be a custom field API name ending in __c',
          }) ?? 'Leadstream_Id__c',
        api_version:
          reader.text('api_version', { max: 10, pattern: API_VERSION, patternMessage: 'must look like v60.0' }) ??
          'v60.0',
        field_mapping: mapping.mapping,
        keep_assignment_rules: reader.flag('keep_assignment_rules', false),
      };
      break;
    }
    case 'hubspot': {
      reader.unknownKeys(['base_url', 'portal_id', 'field_mapping']);
      settings = {
        base_url: reader.url('base_url', false) ?? 'https://api.hubapi.com',
        portal_id:
          reader.text('portal_id', {
            max: 20,
            pattern: /^\d{1,20}$/,
            patternMessage: 'must be the numeric HubSpot account id',
          }) ?? null,
        field_mapping: mapping.mapping,
      };
      break;
    }
  }
  const details = [...reader.details, ...mapping.details];
  return details.length > 0 ? { ok: false, details } : { ok: true, value: settings };
}

function parseCredentials(
  type: CrmConnectionType,
  raw: Record<string, unknown>,
  settings: CrmSettings,
): Parsed<CrmCredentials> {
  const reader = new Reader(raw, 'credentials.');
  let credentials: CrmCredentials;
  switch (type) {
    case 'webhook_json': {
      reader.unknownKeys(['auth_value']);
      const value = reader.headerValue(
        'auth_value',
        (settings as Partial<WebhookJsonSettings>).auth_header ?? 'Authorization',
        4000,
      );
      credentials = value === undefined ? {} : { auth_value: value };
      break;
    }
    case 'salesforce': {
      reader.unknownKeys(['client_id', 'client_secret', 'refresh_token']);
      const refresh = reader.text('refresh_token', {
        required: (settings as SalesforceSettings).grant_type === 'refresh_token',
        max: 4000,
      });
      credentials = {
        client_id: reader.text('client_id', { required: true, max: 4000 }) ?? '',
        client_secret: reader.text('client_secret', { required: true, max: 4000 }) ?? '',
        ...(refresh ? { refresh_token: refresh } : {}),
      };
      break;
    }
    case 'hubspot': {
      reader.unknownKeys(['private_app_token']);
      credentials = { private_app_token: reader.text('private_app_token', { required: true, max: 4000 }) ?? '' };
      break;
    }
  }
  return reader.details.length > 0 ? { ok: false, details: reader.details } : { ok: true, value: credentials };
}

/** Checks the body of POST /api/crm/connections. */
export function parseCrmConnectionInput(
  body: unknown,
): { ok: true; input: CrmConnectionInput } | { ok: false; details: ErrorDetail[] } {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const reader = new Reader(body, '');
  reader.unknownKeys(['name', 'type', 'enabled', 'settings', 'credentials']);
  const name = reader.text('name', { required: true, max: 200 });
  const typeValue = body['type'];
  if (typeof typeValue !== 'string' || !(CRM_CONNECTION_TYPES as readonly string[]).includes(typeValue)) {
    return {
      ok: false,
      details: [
        ...reader.details,
        { field: 'type', message: `type must be one of ${CRM_CONNECTION_TYPES.join(', ')}` },
      ],
    };
  }
  const type = typeValue as CrmConnectionType;
  const enabled = body['enabled'];
  if (enabled !== undefined && typeof enabled !== 'boolean')
    reader.details.push({ field: 'enabled', message: 'enabled must be a boolean' });
  const settingsRaw = body['settings'] ?? {};
  const credentialsRaw = body['credentials'] ?? {};
  if (!isObject(settingsRaw)) reader.details.push({ field: 'settings', message: 'settings must be an object' });
  if (!isObject(credentialsRaw))
    reader.details.push({ field: 'credentials', message: 'credentials must be an object' });
  if (!isObject(settingsRaw) || !isObject(credentialsRaw)) return { ok: false, details: reader.details };
  const settings = parseSettings(type, settingsRaw);
  // Credentials are checked even when the settings are not, so one answer names every problem.
  const grant = settings.ok
    ? settings.value
    : ({
        grant_type: settingsRaw['grant_type'] === 'refresh_token' ? 'refresh_token' : 'client_credentials',
      } as SalesforceSettings);
  const credentials = parseCredentials(type, credentialsRaw, grant);
  const details = [
    ...reader.details,
    ...(settings.ok ? [] : settings.details),
    ...(credentials.ok ? [] : credentials.details),
  ];
  if (details.length > 0 || !settings.ok || !credentials.ok || name === undefined) return { ok: false, details };
  return {
    ok: true,
    input: {
      name,
      type,
      enabled: enabled === undefined ? true : (enabled as boolean),
      settings: settings.value,
      credentials: credentials.value,
    },
  };
}

/** What a PATCH of a connection changes, checked against the connection it changes. */
export interface CrmConnectionPatch {
  name?: string;
  enabled?: boolean;
  settings?: CrmSettings;
  credentials?: CrmCredentials;
}

/**
 * Checks the body of PATCH /api/crm/connections/:id. Every field is optional; `settings` and
 * `credentials` replace the stored ones whole, checked as on creation; the type cannot change.
 * Credentials kept from before must still suit new settings (Salesforce's refresh_token grant
 * needs a refresh token); `current.credentials` is null when the stored ones cannot be decrypted
 * (CRM_CREDENTIALS_KEY changed), and then new settings need new credentials with them (a name or
 * `enabled` alone does not).
 */
export function parseCrmConnectionPatch(
  body: unknown,
  current: { type: CrmConnectionType; settings: CrmSettings; credentials: CrmCredentials | null },
): { ok: true; patch: CrmConnectionPatch } | { ok: false; details: ErrorDetail[] } {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  if (Object.keys(body).length === 0)
    return {
      ok: false,
      details: [{ field: '(body)', message: 'name, enabled, settings or credentials: send at least one' }],
    };
  const reader = new Reader(body, '');
  reader.unknownKeys(['name', 'type', 'enabled', 'settings', 'credentials']);
  const patch: CrmConnectionPatch = {};
  if (body['name'] !== undefined) patch.name = reader.text('name', { required: true, max: 200 });
  if (body['type'] !== undefined && body['type'] !== current.type) {
    reader.details.push({
      field: 'type',
      message: `type cannot be changed (this connection is ${current.type}); add a new connection of the other type`,
    });
  }
  if (body['enabled'] !== undefined) {
    if (typeof body['enabled'] === 'boolean') patch.enabled = body['enabled'];
    else reader.details.push({ field: 'enabled', message: 'enabled must be a boolean' });
  }
  const details = [...reader.details];
  let settings = current.settings;
  if (body['settings'] !== undefined) {
    const parsed = isObject(body['settings'])
      ? parseSettings(current.type, body['settings'])
      : { ok: false as const, details: [{ field: 'settings', message: 'settings must be an object' }] };
    if (parsed.ok) settings = patch.settings = parsed.value;
    else details.push(...parsed.details);
  }
  if (body['credentials'] !== undefined) {
    const parsed = isObject(body['credentials'])
      ? parseCredentials(current.type, body['credentials'], settings)
      : { ok: false as const, details: [{ field: 'credentials', message: 'credentials must be an object' }] };
    if (parsed.ok) patch.credentials = parsed.value;
    else details.push(...parsed.details);
  } else if (patch.settings && current.credentials === null) {
    details.push({
      field: 'credentials',
      message:
        'the stored credentials cannot be read (was CRM_CREDENTIALS_KEY changed?), so they cannot be checked against new settings: send the credentials too',
    });
  } else if (patch.settings && current.credentials !== null) {
    const kept = parseCredentials(current.type, current.credentials as Record<string, unknown>, settings);
    if (!kept.ok)
      details.push(
        ...kept.details.map((detail) => ({
          field: detail.field,
          message: `${detail.message} with these settings: send the credentials too`,
        })),
      );
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, patch };
}

/** Which credential fields are set, never their values (the API shows this instead). */
export function credentialFieldsSet(credentials: CrmCredentials): string[] {
  return Object.entries(credentials)
    .filter(([, value]) => typeof value === 'string' && value.length > 0)
    .map(([key]) => key)
    .sort();
}

/** The connection as the API answers it: settings, never credentials. */
export interface CrmConnectionView {
  id: string;
  name: string;
  type: CrmConnectionType;
  enabled: boolean;
  settings: CrmSettings;
  credentials_set: boolean;
  credential_fields: string[];
  created_at: string;
  updated_at: string;
  last_sync_at: string | null;
  stats: { synced: number; failed: number };
}

export function crmConnectionView(
  record: CrmConnectionRecord,
  stats: { synced: number; failed: number; last_sync_at: string | null },
): CrmConnectionView {
  const credentialFields = record.credential_fields ?? [];
  return {
    id: record._id,
    name: record.name,
    type: record.type,
    enabled: record.enabled,
    settings: JSON.parse(record.settings_json) as CrmSettings,
    credentials_set: credentialFields.length > 0,
    credential_fields: credentialFields,
    created_at: record.created_at,
    updated_at: record.updated_at,
    last_sync_at: stats.last_sync_at,
    stats: { synced: stats.synced, failed: stats.failed },
  };
}
