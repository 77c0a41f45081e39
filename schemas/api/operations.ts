/**
 * Every HTTP operation of leadstream, the documented ones and the ones we added, with the
 * schemas of what it takes and what it answers. This table is the one source of the OpenAPI
 * document (`openapi.ts`); the API test servers check every answer against it, and a test fails
 * when a mounted route is missing here.
 */
import leadSubmissionSchema from '../requests/lead-submission.schema.json' with { type: 'json' };
import leadBatchSchema from '../requests/lead-batch.schema.json' with { type: 'json' };
import {
  BLANK,
  TEXT_FIELDS as LEAD_TEXT_FIELDS,
  CUSTOM_FIELD_TYPES,
  EXPORT_FIELDS,
  LEAD_SORT_FIELDS,
  DEDUP_ACTIONS,
  DEDUP_ALGORITHMS,
  DEDUP_COMBINATIONS,
  DEDUP_MAX_MATCH_FIELDS,
  DEDUP_SCOPES,
  DEDUP_STANDARD_FIELDS,
  DEDUP_WINDOW_HOURS,
  SUBMISSION_TEXT_FIELDS,
  VALIDATION_RULE_ACTIONS,
  VALIDATION_RULE_TYPES,
  VALIDATION_TRANSFORMS,
} from '@leadstream/domain';
import { LEAD_STATUSES, ROLES, STORABLE_KEY } from './components';
import { PLAN_LIMITS, PLANS, WEBHOOK_EVENTS, type PlanLimits } from '@leadstream/domain';
import {
  anyObject,
  array,
  body,
  bool,
  data,
  dataList,
  int,
  nullable,
  num,
  obj,
  oneOfValues,
  pagedList,
  ref,
  str,
  trimmedText,
  type JsonSchema,
} from './json-schema';
import { reviewQueueOperations, reviewSettingsSchemas } from './review-queue.operations';
import { reprocessOperations } from './reprocess.operations';
import { suppressionOperations } from './suppression.operations';
import { capsOperations } from './caps.operations';
import { consentOperations, consentRequirementsBody, consentRetentionDays } from './consent.operations';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call: a user's session token (or OAuth token), a vendor API key, either (the funnel), or anyone. */
export type Auth = 'session' | 'apiKey' | 'sessionOrApiKey' | 'none';

/** Which error body the operation answers with (docs/api-conventions.md). */
export type Convention = 'user' | 'ingestion' | 'funnel' | 'oauth';

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: JsonSchema;
  required?: boolean;
  description?: string;
}

export interface Operation {
  method: Method;
  /** Koa-style path (`/api/leads/:id`). */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  convention: Convention;
  /** The permission of the matrix (docs/permissions.md) a session needs. */
  permission?: string;
  query?: Parameter[];
  /** A JSON body (or, with `form`, an application/x-www-form-urlencoded one). */
  requestBody?: JsonSchema;
  form?: boolean;
  /** A request body of another media type (a CSV upload), read by the route as a stream; `requestBody` describes it. */
  requestMediaType?: string;
  /** Success statuses and their bodies; `null` for no body, a string for a non-JSON media type. */
  responses: Record<number, JsonSchema | null | { mediaType: string }>;
  /** Error statuses this operation answers besides the common ones of its convention. */
  errors?: number[];
  /** Also served under `/sandbox` (ingestion and vendor portal). */
  sandbox?: boolean;
  /** Schemas of the path parameters, when more than non-empty text. */
  pathParams?: Record<string, JsonSchema>;
  /**
   * What the service checks beyond what a JSON Schema can state (a formula's grammar, a phone
   * numbering plan, a token's validity, ...). A body that satisfies the schema but fails these
   * checks is answered 400 (or 422 when a rule rejects a lead); the document says so, and the
   * fuzzer's "valid data is accepted" check allows it on these operations only.
   */
  semanticChecks?: string;
  /**
   * The plan limit a success would count against (docs/enrichment-rules.md "Plan limits"): the
   * operation may answer 422 PLAN_LIMIT_REACHED, and the document says which limit.
   */
  planLimit?: string;
}

/** An object of any keys but `__proto__`, which the JSON parser refuses (prototype poisoning). */
const openObject = (extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  propertyNames: { not: { anyOf: [{ const: '__proto__' }, { pattern: '\\u0000' }] } },
  additionalProperties: ref('AnyJson'),
  ...extra,
});

/** A query enum whose empty value means the default. */
const orDefault = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values, ''] });

/** A lead's custom fields: up to 100, values as `CustomFieldValue`. */
const customFields = openObject({
  maxProperties: 100,
  propertyNames: STORABLE_KEY,
  additionalProperties: ref('CustomFieldValue'),
});

const customFieldValidation = nullable(
  body({
    pattern: nullable(str({ minLength: 1 })),
    min: nullable(num()),
    max: nullable(num()),
    enum: nullable(array({ anyOf: [{ type: ['number', 'boolean'] }, str()] }, { minItems: 1, maxItems: 100 })),
  }),
);

const page = { name: 'page', in: 'query', schema: int({ minimum: 1, maximum: 1_000_000, default: 1 }) } as const;
const limit = { name: 'limit', in: 'query', schema: int({ minimum: 1, maximum: 100, default: 20 }) } as const;
/** Reads of leads may look at the sandbox: the leads sent with vk_test_ keys (the console's environment switch). */
const leadEnvironment = {
  name: 'environment',
  in: 'query',
  schema: orDefault(['live', 'sandbox']),
  description: 'Empty: live. sandbox: the leads sent with vk_test_ keys (kept 24 hours; changed only by the pipeline)',
} as const;

/**
 * An email address as the domain's parser takes it (libs/domain/src/validation/email-syntax.ts):
 * a dot-atom or quoted local part of at most 64 characters, a host name of letter-digit-hyphen
 * labels and an alphabetic or punycode top-level domain, 254 characters in all.
 */
const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const email = str({
  maxLength: 254,
  pattern: `^(?=[^@]{1,64}@|"[^"]*"@)(?:[${ATEXT}]+(?:\\.[${ATEXT}]+)*|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")@(?:${LABEL}\\.)+(?:[A-Za-z]{2,63}|[Xx][Nn]--[A-Za-z0-9-]{1,59})$`,
});
/** Optional text: null is the same as leaving the field out. */
const optionalText = (min: 1 | 2, max: number): JsonSchema => nullable(trimmedText(min, max));
const password = str({
  minLength: 8,
  maxLength: 128,
  pattern: '^(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[0-9])',
});
const personName = trimmedText(2, 50);
const role = oneOfValues(ROLES.filter((candidate) => candidate !== 'owner'));
const optionalRole = nullable(role);
const permissions = array(oneOfValues(['read', 'write']), { minItems: 1, maxItems: 2 });
const ipRestrictions = array(str(), { maxItems: 100 });
const IP_CHECKS = 'that each IP restriction is an IPv4 or IPv6 address or CIDR range';
const leadIds = array(str({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 });

/** The lead text fields and their longest values (the domain's), and the phone as sent. */
const LEAD_TEXT_LIMITS: Record<string, number> = { ...LEAD_TEXT_FIELDS, phone: 40 };
/** The lead fields a user writes: text (null clears a field on update), and custom fields. */
function leadFields(clearable: boolean): Record<string, JsonSchema> {
  const fields: Record<string, JsonSchema> = {};
  for (const [name, max] of Object.entries(LEAD_TEXT_LIMITS))
    fields[name] = clearable ? nullable(str({ maxLength: max })) : str({ maxLength: max });
  fields['custom_fields'] = customFields;
  return fields;
}
const LEAD_PROCESSING =
  'A lead whose creation was answered 202 is 409 `LEAD_PROCESSING` until the pipeline has decided it (follow its `status_url`).';
const LEAD_CHECKS =
  "the email (syntax, MX record, disposable domains), the phone (a real number of its country), the organization's required fields, validation rules and custom field definitions, and bot signals (honeypot, form timing, high-risk addresses)";

const vendorBody = body(
  {
    name: trimmedText(1, 200),
    type: oneOfValues(['inquiry', 'application']),
    group: nullable(trimmedText(1, 100)),
    contact_email: nullable(email),
    cost_per_lead: nullable(num({ minimum: 0, maximum: 100_000 })),
    enabled: bool(),
  },
  ['name', 'type'],
);
const redirectUri = str({
  maxLength: 2000,
  // The same pattern as REDIRECT_URI_PATTERN in libs/domain/src/accounts/oauth.ts (an API test keeps them equal).
  pattern: String.raw`^(?:https://[a-z][a-z0-9-]{0,62}(?:\.[a-z][a-z0-9-]{0,62})*|http://(?:127\.0\.0\.1|localhost|\[::1\]))(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(?:/[A-Za-z0-9._~!$&'()*+,;=:@/%-]*)?(?:\?[A-Za-z0-9._~!$&'()*+,;=:@/?%-]*)?$`,
});

const validationField = {
  anyOf: [oneOfValues(SUBMISSION_TEXT_FIELDS), str({ pattern: '^custom_fields\\.[a-z][a-z0-9_]{0,63}$' })],
};
const organizationValidation = body({
  allow_disposable_emails: bool(),
  mx_check: bool(),
  default_phone_country: str({ pattern: '^[A-Za-z]{2}$' }),
  required_fields: array(str({ pattern: '^[a-z][a-z0-9_]{0,63}$' }), { maxItems: 50 }),
  bot_detection: body({
    honeypot: bool(),
    reject_below_ms: int({ minimum: 0, maximum: 3_600_000 }),
    flag_below_ms: int({ minimum: 0, maximum: 3_600_000 }),
    high_risk_ips: array(str(), { maxItems: 1000 }),
    high_risk_ip_action: nullable(oneOfValues(['reject', 'flag', 'allow'])),
  }),
});

const dedupWindow = { anyOf: [{ enum: [...DEDUP_WINDOW_HOURS] }, { enum: ['all', null] }] };
const dedupThreshold = num({ minimum: 0, maximum: 100 });
const dedupConfigBody = body({
  enabled: bool(),
  threshold: dedupThreshold,
  window_hours: dedupWindow,
  action: oneOfValues(DEDUP_ACTIONS),
  match_fields: array(
    body(
      {
        field: { anyOf: [oneOfValues(DEDUP_STANDARD_FIELDS), str({ pattern: '^custom_fields\\.[A-Za-z0-9_-]+$' })] },
        algorithm: oneOfValues(DEDUP_ALGORITHMS),
        weight: num({ minimum: 0, maximum: 1 }),
      },
      ['field', 'algorithm'],
    ),
    { minItems: 1, maxItems: DEDUP_MAX_MATCH_FIELDS },
  ),
  combination: oneOfValues(DEDUP_COMBINATIONS),
  scope: oneOfValues(DEDUP_SCOPES),
  vendor_overrides: obj({}, [], {
    propertyNames: { pattern: `[^${BLANK}]`, ...STORABLE_KEY },
    additionalProperties: body({
      window_hours: dedupWindow,
      threshold: dedupThreshold,
      action: oneOfValues(DEDUP_ACTIONS),
      compare_across_types: bool(),
    }),
  }),
});

const conditionGroup = body(
  { operator: oneOfValues(['AND', 'OR']), rules: array(openObject(), { minItems: 1, maxItems: 100 }) },
  ['operator', 'rules'],
);
const RULE_CHECKS = "each condition's field path and operator, each action's fields, formulas and lookup tables";
/** A plan limit as the document states it: "<what>: 300 on the education plan, 1,000 on the enterprise plan". */
const planLimit = (limit: keyof PlanLimits, what: string): string =>
  `${what}: ${PLANS.map((plan) => `${PLAN_LIMITS[plan][limit].toLocaleString('en-US')} on the ${plan} plan`).join(', ')}`;
const webhookEvents = array(oneOfValues(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length * 2 });
const WEBHOOK_URL_CHECKS =
  'that the URL uses https and its host resolves to public addresses (both relaxed by WEBHOOK_ALLOW_INSECURE_TARGETS)';
/** A routing rule's target; weight only with distribution weighted. */
const routingTarget = (weighted: boolean): JsonSchema =>
  body(
    {
      connection_id: trimmedText(1, 100),
      owner: optionalText(1, 200),
      queue: optionalText(1, 200),
      ...(weighted ? { weight: nullable(int({ minimum: 1, maximum: 1000 })) } : {}),
    },
    ['connection_id'],
  );
const ROUTING_CHECKS =
  "each condition's field path and operator (as enrichment rules'), that targets fit the distribution (one for single, each connection once for all, a weight on every target for weighted only) and that each connection_id is a CRM connection of the organization";
const routingRuleFields = {
  name: trimmedText(1, 200),
  description: nullable(str({ maxLength: 2000 })),
  priority: int({ minimum: 0, maximum: 1_000_000 }),
  enabled: bool(),
  conditions: nullable(conditionGroup),
  targets: array(routingTarget(true), { minItems: 1, maxItems: 50 }),
  distribution: oneOfValues(['single', 'all', 'round_robin', 'weighted']),
};
const ruleFields = {
  name: trimmedText(1, 200),
  description: nullable(str({ maxLength: 2000 })),
  priority: int({ minimum: 0, maximum: 1_000_000 }),
  enabled: bool(),
  conditions: conditionGroup,
  actions: array(openObject(), { minItems: 1, maxItems: 50 }),
};

const crmFieldMapping = obj({}, [], {
  minProperties: 1,
  maxProperties: 100,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,79}$' },
  additionalProperties: str({ minLength: 1, maxLength: 100 }),
});
const crmConnectionFields = {
  name: trimmedText(1, 200),
  type: oneOfValues(['webhook_json', 'salesforce', 'hubspot']),
  enabled: bool(),
  settings: body({
    url: nullable(str({ maxLength: 2000 })),
    auth_header: nullable(str({ maxLength: 100 })),
    id_field: nullable(str({ maxLength: 100 })),
    record_url_template: nullable(str({ maxLength: 2000 })),
    instance_url: nullable(str({ maxLength: 2000 })),
    token_url: nullable(str({ maxLength: 2000 })),
    grant_type: nullable(oneOfValues(['client_credentials', 'refresh_token'])),
    external_id_field: nullable(str({ maxLength: 80 })),
    api_version: nullable(str({ maxLength: 10 })),
    keep_assignment_rules: {
      ...nullable(bool()),
      description:
        "Salesforce: true lets Salesforce's active assignment rules run on every create and update (default false: a Lead created with a routed owner, and every update, is sent with Sforce-Auto-Assign: FALSE)",
    },
    base_url: nullable(str({ maxLength: 2000 })),
    portal_id: nullable(str({ maxLength: 20 })),
    field_mapping: nullable(crmFieldMapping),
  }),
  credentials: body({
    auth_value: nullable(str({ maxLength: 4000 })),
    client_id: nullable(str({ maxLength: 4000 })),
    client_secret: nullable(str({ maxLength: 4000 })),
    refresh_token: nullable(str({ maxLength: 4000 })),
    private_app_token: nullable(str({ maxLength: 4000 })),
  }),
};
const crmConnectionBody = body(crmConnectionFields, ['name', 'type', 'settings']);
const crmConnectionPatchBody = body(crmConnectionFields, [], { minProperties: 1 });
const CRM_CHECKS =
  'the settings and credentials each type needs (docs/crm.md): URLs, header names, a Salesforce external-id field ending in __c, a refresh token with the refresh_token grant, and field mappings from CRM field names to lead fields';

/**
 * A schema file of `requests/` as an inline schema: its `$schema` and `$id` belong to the file,
 * and its open objects (custom_fields, batch items) say, as everywhere in the document, that no
 * key at any depth may be `__proto__`.
 */
function inline(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  const properties = { ...(rest['properties'] as Record<string, JsonSchema>) };
  if (properties['custom_fields']) properties['custom_fields'] = customFields;
  // Batch items: anything an item may hold is answered per index (200), not refused as a whole.
  if (properties['leads'])
    properties['leads'] = {
      ...properties['leads'],
      items: openObject({ additionalProperties: ref('BatchItemValue') }),
    };
  return { ...rest, properties };
}

const ingestion = (path: string, operationId: string, summary: string, batch: boolean): Operation => ({
  method: 'post',
  path,
  operationId,
  tag: 'Ingestion',
  summary,
  auth: 'apiKey',
  convention: 'ingestion',
  sandbox: true,
  requestBody: inline(batch ? leadBatchSchema : leadSubmissionSchema),
  ...(batch ? {} : { semanticChecks: LEAD_CHECKS }),
  responses: batch
    ? { 200: ref('LeadBatchResult') }
    : { 201: ref('LeadSubmissionAccepted'), 202: ref('LeadSubmissionPending') },
  errors: batch ? [400, 415] : [400, 409, 415, 422],
});

/** The funnel convention's success body: `{success: true, data}`. */
const funnelData = (schema: JsonSchema): JsonSchema =>
  obj({ success: { const: true }, data: schema }, ['success', 'data']);

const periodParameter = (name: string, meaning: string): Parameter => ({
  name,
  in: 'query',
  schema: str({ maxLength: 40 }),
  description: `ISO 8601 date (a whole UTC day) or date-time with a time zone; default ${meaning}`,
});
/** The period of the funnel and analytics reports. */
const PERIOD_QUERY: Parameter[] = [
  periodParameter('startDate', '30 days before today'),
  periodParameter('endDate', 'today'),
];
const PERIOD_CHECKS =
  'that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days';

/** A funnel report: GET /api/analytics/funnel/<path>?startDate&endDate[&...]. */
function funnelReport(
  path: string,
  operationId: string,
  summary: string,
  component: string,
  extraQuery: Parameter[] = [],
): Operation {
  return {
    method: 'get',
    path: `/api/analytics/funnel/${path}`,
    operationId,
    tag: 'Funnel',
    summary,
    auth: 'sessionOrApiKey',
    convention: 'funnel',
    permission: 'analytics:read',
    sandbox: true,
    query: [...PERIOD_QUERY, ...extraQuery],
    responses: { 200: funnelData(ref(component)) },
    errors: [400],
    semanticChecks: PERIOD_CHECKS,
  };
}

/** A general analytics report: GET /api/analytics<path>?startDate&endDate[&...] (user API). */
function analyticsReport(
  path: string,
  operationId: string,
  summary: string,
  component: string,
  extraQuery: Parameter[] = [],
): Operation {
  return {
    method: 'get',
    path: `/api/analytics${path}`,
    operationId,
    tag: 'Analytics',
    summary,
    auth: 'session',
    convention: 'user',
    permission: 'analytics:read',
    query: [...PERIOD_QUERY, ...extraQuery],
    responses: { 200: data(ref(component)) },
    errors: [400],
    semanticChecks: PERIOD_CHECKS,
  };
}

export const operations: Operation[] = [
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'openApiDocument',
    tag: 'Reference',
    summary: 'This document (the page at /docs renders it)',
    auth: 'none',
    convention: 'user',
    responses: { 200: obj({ openapi: str(), info: anyObject(), paths: anyObject() }, ['openapi', 'info', 'paths']) },
  },

  // Account authentication
  {
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login',
    tag: 'Authentication',
    summary: 'Log in',
    auth: 'none',
    convention: 'user',
    requestBody: body(
      { email: str({ minLength: 1, maxLength: 254 }), password: str({ minLength: 1, maxLength: 128 }) },
      ['email', 'password'],
    ),
    responses: { 200: ref('Session') },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/api/auth/register',
    operationId: 'register',
    tag: 'Authentication',
    summary: 'Register a user and a new organization (the user is its owner)',
    auth: 'none',
    convention: 'user',
    requestBody: body(
      { email, password, first_name: personName, last_name: personName, organization_name: trimmedText(2, 100) },
      ['email', 'password', 'first_name', 'last_name', 'organization_name'],
    ),
    responses: { 201: ref('Registered') },
    errors: [400, 409],
  },
  {
    method: 'post',
    path: '/api/auth/forgot-password',
    operationId: 'forgotPassword',
    tag: 'Authentication',
    summary: 'Send a password reset link (always succeeds)',
    auth: 'none',
    convention: 'user',
    requestBody: body({ email }, ['email']),
    responses: { 200: ref('Message') },
    errors: [400],
  },
  {
    method: 'post',
    path: '/api/auth/reset-password',
    operationId: 'resetPassword',
    tag: 'Authentication',
    summary: 'Set a new password with a reset token',
    auth: 'none',
    convention: 'user',
    requestBody: body({ token: str({ minLength: 1, maxLength: 200 }), new_password: password }, [
      'token',
      'new_password',
    ]),
    responses: { 200: ref('Message') },
    errors: [400],
    semanticChecks: 'that the token is a reset token still valid (400 INVALID_RESET_TOKEN otherwise)',
  },
  {
    method: 'post',
    path: '/api/auth/accept-invite',
    operationId: 'acceptInvite',
    tag: 'Authentication',
    summary: 'Accept an invitation: set a password and sign in',
    auth: 'none',
    convention: 'user',
    requestBody: body(
      {
        token: str({ minLength: 1, maxLength: 200 }),
        password,
        first_name: optionalText(2, 50),
        last_name: optionalText(2, 50),
      },
      ['token', 'password'],
    ),
    responses: { 200: ref('Session') },
    errors: [400],
    semanticChecks: 'that the token is an invitation still valid (400 INVALID_RESET_TOKEN otherwise)',
  },
  {
    method: 'post',
    path: '/api/auth/change-password',
    operationId: 'changePassword',
    tag: 'Authentication',
    summary: 'Change your password: every earlier session ends, and the answer carries a new session for this client',
    auth: 'session',
    convention: 'user',
    permission: 'authenticated',
    requestBody: body({ current_password: str({ minLength: 1, maxLength: 200 }), new_password: password }, [
      'current_password',
      'new_password',
    ]),
    responses: { 200: ref('ChangedPassword') },
    errors: [400],
    semanticChecks:
      'that current_password is the password of the signed-in user (400 VALIDATION_ERROR on current_password otherwise) and that new_password differs from it',
  },
  {
    method: 'post',
    path: '/api/auth/refresh',
    operationId: 'refreshSession',
    tag: 'Authentication',
    summary: 'A new session token for the current one',
    auth: 'session',
    convention: 'user',
    permission: 'authenticated',
    responses: { 200: ref('RefreshedSession') },
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    operationId: 'logout',
    tag: 'Authentication',
    summary: 'End the current session',
    auth: 'session',
    convention: 'user',
    permission: 'authenticated',
    responses: { 204: null },
  },

  // OAuth
  {
    method: 'post',
    path: '/oauth/token',
    operationId: 'oauthToken',
    tag: 'OAuth',
    summary: 'Exchange an authorization code or a refresh token for tokens (RFC 6749)',
    auth: 'none',
    convention: 'oauth',
    form: true,
    requestBody: obj(
      {
        grant_type: oneOfValues(['authorization_code', 'refresh_token']),
        client_id: str(),
        client_secret: str(),
        code: str(),
        redirect_uri: str(),
        refresh_token: str(),
        code_verifier: str(),
      },
      ['grant_type'],
    ),
    responses: { 200: ref('OAuthToken') },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/api/oauth/token',
    operationId: 'oauthTokenUnderApi',
    tag: 'OAuth',
    summary: 'The token endpoint under /api',
    auth: 'none',
    convention: 'oauth',
    form: true,
    requestBody: obj(
      {
        grant_type: oneOfValues(['authorization_code', 'refresh_token']),
        client_id: str(),
        client_secret: str(),
        code: str(),
        redirect_uri: str(),
        refresh_token: str(),
        code_verifier: str(),
      },
      ['grant_type'],
    ),
    responses: { 200: ref('OAuthToken') },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/api/oauth/clients',
    operationId: 'listOAuthClients',
    tag: 'OAuth',
    summary: 'OAuth clients of the organization',
    auth: 'session',
    convention: 'user',
    permission: 'oauth_clients:read',
    responses: { 200: dataList(ref('OAuthClient')) },
  },
  {
    method: 'post',
    path: '/api/oauth/clients',
    operationId: 'createOAuthClient',
    tag: 'OAuth',
    summary: 'Register an OAuth client (the secret is shown once)',
    auth: 'session',
    convention: 'user',
    permission: 'oauth_clients:write',
    requestBody: body(
      {
        name: trimmedText(2, 100),
        redirect_uris: array(redirectUri, { minItems: 1, maxItems: 10 }),
        public: nullable(bool()),
      },
      ['name', 'redirect_uris'],
    ),
    responses: { 201: data(ref('CreatedOAuthClient')) },
    errors: [400],
  },
  {
    method: 'delete',
    path: '/api/oauth/clients/:id',
    operationId: 'deleteOAuthClient',
    tag: 'OAuth',
    summary: 'Delete an OAuth client and revoke its tokens',
    auth: 'session',
    convention: 'user',
    permission: 'oauth_clients:write',
    responses: { 204: null },
    errors: [404],
  },

  // API keys
  {
    method: 'get',
    path: '/api/api-keys',
    operationId: 'listApiKeys',
    tag: 'API keys',
    summary: 'API keys (without their secret)',
    auth: 'session',
    convention: 'user',
    permission: 'api_keys:read',
    responses: { 200: dataList(ref('ApiKey')) },
  },
  {
    method: 'post',
    path: '/api/api-keys',
    operationId: 'createApiKey',
    tag: 'API keys',
    summary: 'Create a vendor API key (the key is shown once); permissions default to read and write',
    auth: 'session',
    convention: 'user',
    permission: 'api_keys:write',
    requestBody: body(
      {
        name: trimmedText(1, 100),
        vendor_id: trimmedText(1, 100),
        permissions,
        ip_restrictions: ipRestrictions,
        rate_limit: nullable(int({ minimum: 1, maximum: 100_000 })),
        environment: nullable(oneOfValues(['live', 'sandbox'])),
      },
      ['name', 'vendor_id'],
    ),
    responses: { 201: data(ref('CreatedApiKey')) },
    errors: [400, 404],
    semanticChecks: `${IP_CHECKS}, and that vendor_id names a vendor of the organization`,
  },
  {
    method: 'patch',
    path: '/api/api-keys/:id',
    operationId: 'updateApiKey',
    tag: 'API keys',
    summary: 'Rename, enable or disable a key, change its permissions or IP restrictions',
    auth: 'session',
    convention: 'user',
    permission: 'api_keys:write',
    requestBody: body(
      { name: optionalText(1, 100), enabled: bool(), permissions, ip_restrictions: ipRestrictions },
      [],
      { minProperties: 1 },
    ),
    responses: { 200: data(ref('ApiKey')) },
    errors: [400, 404],
    semanticChecks: IP_CHECKS,
  },
  {
    method: 'delete',
    path: '/api/api-keys/:id',
    operationId: 'revokeApiKey',
    tag: 'API keys',
    summary: 'Revoke a key',
    auth: 'session',
    convention: 'user',
    permission: 'api_keys:write',
    responses: { 204: null },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/api-keys/:id/rotate',
    operationId: 'rotateApiKey',
    tag: 'API keys',
    summary: 'A new key; the old one stays valid for 24 hours',
    auth: 'session',
    convention: 'user',
    permission: 'api_keys:write',
    responses: { 200: ref('RotatedApiKey') },
    errors: [404],
  },

  // Ingestion
  ingestion('/api/leads/inbound', 'submitLead', 'Submit one lead', false),
  ingestion('/api/v1/leads/ingest', 'ingestLead', 'Submit one lead (versioned path)', false),
  ingestion('/api/leads/inbound/batch', 'submitLeadBatch', 'Submit up to 100 leads', true),
  ingestion('/api/v1/leads/bulk-ingest', 'bulkIngestLeads', 'Submit up to 100 leads (versioned path)', true),
  {
    method: 'get',
    path: '/api/leads/:lead_id/status',
    operationId: 'leadProcessingStatus',
    tag: 'Ingestion',
    summary: "A submitted lead's processing status",
    auth: 'apiKey',
    convention: 'ingestion',
    sandbox: true,
    responses: { 200: ref('ProcessingStatus') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/vendor-portal/leads/:lead_id',
    operationId: 'vendorPortalLead',
    tag: 'Vendor portal',
    summary: "A submitted lead's processing status",
    auth: 'apiKey',
    convention: 'ingestion',
    sandbox: true,
    responses: { 200: ref('ProcessingStatus') },
    errors: [404],
  },

  // Vendor reporting
  {
    method: 'get',
    path: '/api/vendor-portal/daily-stats',
    operationId: 'vendorDailyStats',
    tag: 'Vendor portal',
    summary: "The vendor's submissions of one day (today by default)",
    auth: 'apiKey',
    convention: 'ingestion',
    sandbox: true,
    query: [{ name: 'date', in: 'query', schema: str({ format: 'date' }) }],
    responses: { 200: ref('VendorDailyStats') },
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/vendor-portal/summary/:year/:month',
    operationId: 'vendorMonthlySummary',
    tag: 'Vendor portal',
    summary: "The vendor's submissions of one month",
    auth: 'apiKey',
    convention: 'ingestion',
    sandbox: true,
    pathParams: {
      year: str({ pattern: '^(?:19[7-9][0-9]|[2-9][0-9]{3})$' }),
      month: str({ pattern: '^(?:0?[1-9]|1[0-2])$' }),
    },
    responses: { 200: ref('VendorMonthlySummary') },
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/vendor-portal/export',
    operationId: 'vendorExport',
    tag: 'Vendor portal',
    summary: "The vendor's submissions as CSV",
    auth: 'apiKey',
    convention: 'ingestion',
    sandbox: true,
    query: [
      { name: 'start_date', in: 'query', schema: str({ format: 'date' }), required: true },
      { name: 'end_date', in: 'query', schema: str({ format: 'date' }), required: true },
      { name: 'format', in: 'query', schema: orDefault(['csv']) },
    ],
    responses: { 200: { mediaType: 'text/csv' } },
    errors: [400],
    semanticChecks: 'that start_date is not after end_date',
  },

  // Leads
  {
    method: 'get',
    path: '/api/leads',
    operationId: 'listLeads',
    tag: 'Leads',
    summary: 'Leads, filtered, sorted and paged',
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    query: [
      page,
      limit,
      { name: 'sortBy', in: 'query', schema: orDefault(LEAD_SORT_FIELDS), description: 'Empty: created_at' },
      { name: 'sortOrder', in: 'query', schema: orDefault(['asc', 'desc']), description: 'Empty: desc' },
      { name: 'status', in: 'query', schema: orDefault(LEAD_STATUSES), description: 'Empty: every status' },
      { name: 'source', in: 'query', schema: str() },
      { name: 'vendor_id', in: 'query', schema: str() },
      { name: 'program', in: 'query', schema: str() },
      {
        name: 'start_date',
        in: 'query',
        schema: str({ description: 'An ISO 8601 date or date-time: leads created at or after it' }),
      },
      {
        name: 'end_date',
        in: 'query',
        schema: str({ description: 'An ISO 8601 date or date-time: leads created before it' }),
      },
      {
        name: 'search',
        in: 'query',
        schema: str({ maxLength: 200 }),
        description:
          'Text anywhere in the email or full name, 3 or more characters, accents and case ignored (gmail, example.edu, zoe lopez); a search of phone characters with 4 or more digits also matches those digits anywhere in the phone (555-2671). One or two characters match the start of the email, first or last name.',
      },
      leadEnvironment,
    ],
    responses: { 200: pagedList(ref('LeadSummary')) },
    errors: [400],
    semanticChecks: 'that start_date and end_date are ISO 8601 dates or date-times, start_date before end_date',
  },
  {
    method: 'post',
    path: '/api/leads',
    operationId: 'createLead',
    tag: 'Leads',
    summary: 'Create a lead (it goes through the same pipeline as a vendor submission)',
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    requestBody: body(
      { email: str({ minLength: 1, maxLength: 320 }), ...leadFields(false), vendor_id: str({ maxLength: 100 }) },
      ['email'],
    ),
    responses: { 201: data(ref('Lead')), 202: data(obj({ id: str(), status: str(), status_url: str() }, ['id'])) },
    errors: [400, 409, 422],
    semanticChecks: `${LEAD_CHECKS}, and that vendor_id names a vendor of the organization`,
  },
  {
    method: 'get',
    path: '/api/leads/:id',
    operationId: 'getLead',
    tag: 'Leads',
    summary: 'One lead',
    description: LEAD_PROCESSING,
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    query: [leadEnvironment],
    responses: { 200: data(ref('Lead')) },
    errors: [404, 409],
  },
  {
    method: 'patch',
    path: '/api/leads/:id',
    operationId: 'updateLead',
    tag: 'Leads',
    summary: 'Change some fields of a lead',
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    requestBody: body(
      { email: str({ minLength: 1, maxLength: 320 }), status: oneOfValues(LEAD_STATUSES), ...leadFields(true) },
      [],
      { minProperties: 1 },
    ),
    responses: { 200: data(ref('Lead')) },
    errors: [400, 404, 409],
    semanticChecks: "the email's syntax, the phone (a real number of its country) and custom field definitions",
  },
  {
    method: 'delete',
    path: '/api/leads/:id',
    operationId: 'deleteLead',
    tag: 'Leads',
    summary: 'Delete a lead (soft delete)',
    description: LEAD_PROCESSING,
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    responses: { 204: null },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/leads/:id/activity',
    operationId: 'leadActivity',
    tag: 'Leads',
    summary: "A lead's activity timeline",
    description: LEAD_PROCESSING,
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    query: [leadEnvironment],
    responses: { 200: dataList(ref('ActivityEntry')) },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/leads/:id/timeline',
    operationId: 'leadTimeline',
    tag: 'Leads',
    summary: "The stages a lead passed, in order, with each stage's times and outcome (docs/timeline.md)",
    description: LEAD_PROCESSING,
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    query: [leadEnvironment],
    responses: { 200: dataList(ref('TimelineEntry')) },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/leads/bulk-update',
    operationId: 'bulkUpdateLeads',
    tag: 'Leads',
    summary: 'Apply one change to up to 100 leads',
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    requestBody: body(
      {
        lead_ids: leadIds,
        updates: body({ status: oneOfValues(LEAD_STATUSES), ...leadFields(true) }, [], { minProperties: 1 }),
      },
      ['lead_ids', 'updates'],
    ),
    semanticChecks: 'the phone (a real number of its country) and custom field definitions',
    responses: {
      200: obj({ success: bool(), updated: int(), failed: int(), results: array(ref('BulkResult')) }, [
        'success',
        'updated',
        'failed',
        'results',
      ]),
    },
    errors: [400],
  },
  {
    method: 'post',
    path: '/api/leads/bulk-delete',
    operationId: 'bulkDeleteLeads',
    tag: 'Leads',
    summary: 'Delete up to 100 leads',
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    requestBody: body({ lead_ids: leadIds }, ['lead_ids']),
    responses: {
      200: obj({ success: bool(), deleted: int(), failed: int(), results: array(ref('BulkResult')) }, [
        'success',
        'deleted',
        'failed',
      ]),
    },
    errors: [400],
  },
  {
    method: 'post',
    path: '/api/leads/export',
    operationId: 'exportLeads',
    tag: 'Exports',
    summary: 'Start an export of the leads matching the filters',
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    requestBody: body({
      format: nullable(oneOfValues(['csv'])),
      filters: nullable(
        body({
          status: oneOfValues(LEAD_STATUSES),
          source: str({ minLength: 1, maxLength: 200 }),
          vendor_id: str({ minLength: 1, maxLength: 200 }),
          program: str({ minLength: 1, maxLength: 200 }),
          start_date: str({ minLength: 1 }),
          end_date: str({ minLength: 1 }),
          search: str({ minLength: 1, maxLength: 200 }),
        }),
      ),
      fields: nullable(array(oneOfValues(EXPORT_FIELDS), { minItems: 1, maxItems: EXPORT_FIELDS.length })),
    }),
    responses: { 200: ref('ExportStarted') },
    errors: [400],
    semanticChecks: 'that start_date and end_date are ISO 8601 dates or date-times, and that no field is listed twice',
  },
  {
    method: 'get',
    path: '/api/exports/:export_id',
    operationId: 'getExport',
    tag: 'Exports',
    summary: 'An export and its progress',
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    responses: { 200: ref('Export') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/exports/:export_id/download',
    operationId: 'downloadExportUnderApi',
    tag: 'Exports',
    summary: "A finished export's file",
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    responses: { 200: { mediaType: 'text/csv' } },
    errors: [404, 409, 410],
  },
  {
    method: 'get',
    path: '/exports/:export_id/download',
    operationId: 'downloadExport',
    tag: 'Exports',
    summary: "A finished export's file (the address outside /api that download_url names)",
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    responses: { 200: { mediaType: 'text/csv' } },
    errors: [404, 409, 410],
  },

  // Custom fields, enrichment
  {
    method: 'get',
    path: '/api/enrichment/custom-fields',
    operationId: 'listCustomFields',
    tag: 'Custom fields',
    summary: 'Custom field definitions',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: dataList(ref('CustomField')) },
  },
  {
    method: 'post',
    path: '/api/enrichment/custom-fields',
    operationId: 'createCustomField',
    tag: 'Custom fields',
    summary: 'Define a custom field',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(
      {
        name: str({ pattern: '^[a-z][a-z0-9_]{0,63}$' }),
        label: trimmedText(1, 200),
        type: oneOfValues(CUSTOM_FIELD_TYPES),
        required: bool(),
        default_value: ref('CustomFieldValue'),
        validation: customFieldValidation,
      },
      ['name', 'type'],
    ),
    responses: { 201: data(ref('CustomField')) },
    errors: [400, 409],
    semanticChecks:
      'that the validation settings suit the type (a valid RE2 pattern, consistent bounds) and that the default value passes them',
  },
  {
    method: 'patch',
    path: '/api/enrichment/custom-fields/:id',
    operationId: 'updateCustomField',
    tag: 'Custom fields',
    summary: 'Change a custom field definition',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body({
      name: str(),
      type: str(),
      label: trimmedText(1, 200),
      required: bool(),
      default_value: ref('CustomFieldValue'),
      validation: customFieldValidation,
    }),
    responses: { 200: data(ref('CustomField')) },
    errors: [400, 404],
    semanticChecks:
      'that name and type stay as they are, that the validation settings suit the type (a valid RE2 pattern, consistent bounds) and that the default value passes them',
  },
  {
    method: 'delete',
    path: '/api/enrichment/custom-fields/:id',
    operationId: 'deleteCustomField',
    tag: 'Custom fields',
    summary: 'Delete a custom field definition',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    responses: { 204: null },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/enrichment/rules',
    operationId: 'listEnrichmentRules',
    tag: 'Enrichment',
    summary: 'Enrichment rules in priority order',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: dataList(ref('EnrichmentRule')) },
  },
  {
    method: 'post',
    path: '/api/enrichment/rules',
    operationId: 'createEnrichmentRule',
    tag: 'Enrichment',
    summary: 'Create an enrichment rule',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(ruleFields, ['name', 'priority', 'conditions', 'actions']),
    responses: { 201: data(ref('EnrichmentRuleSummary')) },
    errors: [400],
    semanticChecks: RULE_CHECKS,
    planLimit: planLimit('enrichment_rules', 'enrichment rules per organization'),
  },
  {
    method: 'get',
    path: '/api/enrichment/rules/:id',
    operationId: 'getEnrichmentRule',
    tag: 'Enrichment',
    summary: 'One rule with its match statistics',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: data(ref('EnrichmentRule')) },
    errors: [404],
  },
  {
    method: 'patch',
    path: '/api/enrichment/rules/:id',
    operationId: 'updateEnrichmentRule',
    tag: 'Enrichment',
    summary: 'Change some fields of a rule',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(ruleFields, [], { minProperties: 1 }),
    responses: { 200: data(ref('EnrichmentRuleSummary')) },
    errors: [400, 404],
    semanticChecks: RULE_CHECKS,
  },
  {
    method: 'delete',
    path: '/api/enrichment/rules/:id',
    operationId: 'deleteEnrichmentRule',
    tag: 'Enrichment',
    summary: 'Delete a rule (permanent)',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    responses: { 204: null },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/enrichment/rules/reorder',
    operationId: 'reorderEnrichmentRules',
    tag: 'Enrichment',
    summary: 'Set the priorities of several rules at once',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(
      {
        rules: array(
          body({ id: str({ minLength: 1 }), priority: int({ minimum: 0, maximum: 1_000_000 }) }, ['id', 'priority']),
          { minItems: 1, maxItems: 1000 },
        ),
      },
      ['rules'],
    ),
    responses: { 200: dataList(ref('EnrichmentRule')) },
    errors: [400, 404],
    semanticChecks: 'that no rule id is listed twice',
  },
  {
    method: 'get',
    path: '/api/enrichment/rules/export',
    operationId: 'exportEnrichmentRules',
    tag: 'Enrichment',
    summary: 'All rules as a document that import takes',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: ref('EnrichmentRulesDocument') },
  },
  {
    method: 'post',
    path: '/api/enrichment/rules/import',
    operationId: 'importEnrichmentRules',
    tag: 'Enrichment',
    summary: 'Add the rules of an exported document (existing rules are kept)',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(
      {
        format: { const: 'leadstream.enrichment-rules' },
        version: { const: 1 },
        exported_at: str(),
        rules: array(openObject(), { maxItems: 1000 }),
      },
      ['format', 'version', 'rules'],
    ),
    responses: { 201: data(ref('EnrichmentRulesImported')) },
    errors: [400],
    semanticChecks: `every rule as on creation: ${RULE_CHECKS}`,
    planLimit: `${planLimit('enrichment_rules', 'enrichment rules per organization')} (the rules there and the document's together; none is added when they pass it)`,
  },
  {
    method: 'post',
    path: '/api/enrichment/test',
    operationId: 'testEnrichmentRules',
    tag: 'Enrichment',
    summary: 'Run the rules on a lead without storing anything',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    requestBody: body({ lead_data: openObject() }, ['lead_data']),
    responses: { 200: ref('EnrichmentTestResult') },
    errors: [400],
  },
  ...configResource(
    '/api/enrichment/lookup-tables',
    'LookupTable',
    'Lookup tables',
    'lookup table',
    body(
      {
        name: str({ pattern: '^[a-z][a-z0-9_]{0,63}$' }),
        description: nullable(str({ maxLength: 1000 })),
        mappings: openObject({
          propertyNames: {
            minLength: 1,
            maxLength: 200,
            not: { anyOf: [{ const: '__proto__' }, { pattern: '\\u0000' }] },
          },
          additionalProperties: str({ maxLength: 1000 }),
          maxProperties: 10_000,
        }),
      },
      ['name', 'mappings'],
    ),
    undefined,
    {
      create: `${planLimit('lookup_tables', 'lookup tables per organization')}; and ${planLimit('lookup_table_rows', 'mappings per table')}`,
      update: planLimit('lookup_table_rows', 'mappings per table (when the request replaces them)'),
    },
  ),

  // Routing (docs/routing.md; docs/decisions.md "Routing"): permissions as enrichment rules.
  {
    method: 'get',
    path: '/api/routing/rules',
    operationId: 'listRoutingRules',
    tag: 'Routing',
    summary: 'Routing rules in the order they are tried',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: dataList(ref('RoutingRule')) },
  },
  {
    method: 'post',
    path: '/api/routing/rules',
    operationId: 'createRoutingRule',
    tag: 'Routing',
    summary: 'Create a routing rule',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(routingRuleFields, ['name', 'targets']),
    responses: { 201: data(ref('RoutingRule')) },
    errors: [400],
    semanticChecks: ROUTING_CHECKS,
    planLimit: planLimit('routing_rules', 'routing rules per organization'),
  },
  {
    method: 'post',
    path: '/api/routing/rules/reorder',
    operationId: 'reorderRoutingRules',
    tag: 'Routing',
    summary: 'Set the priorities of several routing rules at once',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(
      {
        rules: array(
          body({ id: str({ minLength: 1 }), priority: int({ minimum: 0, maximum: 1_000_000 }) }, ['id', 'priority']),
          { minItems: 1, maxItems: 1000 },
        ),
      },
      ['rules'],
    ),
    responses: { 200: dataList(ref('RoutingRule')) },
    errors: [400, 404],
    semanticChecks: 'that no rule id is listed twice',
  },
  {
    method: 'get',
    path: '/api/routing/rules/:id',
    operationId: 'getRoutingRule',
    tag: 'Routing',
    summary: 'One routing rule',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: data(ref('RoutingRule')) },
    errors: [404],
  },
  {
    method: 'patch',
    path: '/api/routing/rules/:id',
    operationId: 'updateRoutingRule',
    tag: 'Routing',
    summary: 'Change some fields of a routing rule',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(routingRuleFields, [], { minProperties: 1 }),
    responses: { 200: data(ref('RoutingRule')) },
    errors: [400, 404],
    semanticChecks: ROUTING_CHECKS,
  },
  {
    method: 'delete',
    path: '/api/routing/rules/:id',
    operationId: 'deleteRoutingRule',
    tag: 'Routing',
    summary: 'Delete a routing rule (permanent)',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    responses: { 204: null },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/routing/settings',
    operationId: 'getRoutingSettings',
    tag: 'Routing',
    summary: 'Where leads no rule matches go',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: data(ref('RoutingSettings')) },
  },
  {
    method: 'put',
    path: '/api/routing/settings',
    operationId: 'setRoutingSettings',
    tag: 'Routing',
    summary: 'Set where leads no rule matches go (fields left out take their defaults)',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body({
      default_targets: array(routingTarget(false), { maxItems: 50 }),
      when_unmatched: oneOfValues(['all_connections', 'none']),
    }),
    responses: { 200: data(ref('RoutingSettings')) },
    errors: [400],
    semanticChecks: 'that each connection_id is a CRM connection of the organization, listed once',
  },
  {
    method: 'post',
    path: '/api/routing/test',
    operationId: 'testRouting',
    tag: 'Routing',
    summary: 'Which rule and targets a lead would get, without storing anything',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    requestBody: body({ lead_data: openObject(), lead_id: str({ minLength: 1, maxLength: 100 }) }, ['lead_data']),
    responses: { 200: data(ref('RoutingTestResult')) },
    errors: [400],
  },
  // Calculated fields
  ...configResource(
    '/api/calculated-fields',
    'CalculatedField',
    'Calculated fields',
    'calculated field',
    body(
      {
        name: str({ pattern: '^[a-z][a-z0-9_]{0,63}$' }),
        label: trimmedText(1, 200),
        formula: str({ minLength: 1, maxLength: 2000 }),
        type: oneOfValues(['text', 'number', 'boolean', 'date']),
        recalculate_on_change: bool(),
        description: nullable(str({ maxLength: 2000 })),
      },
      ['name', 'label', 'formula', 'type'],
    ),
    "the formula's grammar, its limits (2,000 characters, conditionals nested 5 levels, 3 lookups), the fields and lookup tables it names, and dependency cycles",
    { create: planLimit('calculated_fields', 'calculated fields per organization') },
  ),
  {
    method: 'post',
    path: '/api/calculated-fields/:id/recalculate',
    operationId: 'recalculateField',
    tag: 'Calculated fields',
    summary: 'Recompute one field on every lead (a background job)',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    responses: { 202: data(ref('CalculationJob')) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/calculated-fields/recalculate-all',
    operationId: 'recalculateAllFields',
    tag: 'Calculated fields',
    summary: 'Recompute every calculated field on every lead (a background job)',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    responses: { 202: data(ref('CalculationJob')) },
  },
  {
    method: 'get',
    path: '/api/calculated-fields/jobs',
    operationId: 'listCalculationJobs',
    tag: 'Calculated fields',
    summary: 'Recent recalculation jobs',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: dataList(ref('CalculationJob')) },
  },
  {
    method: 'get',
    path: '/api/calculated-fields/jobs/:id',
    operationId: 'getCalculationJob',
    tag: 'Calculated fields',
    summary: 'One recalculation job',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    responses: { 200: data(ref('CalculationJob')) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/calculated-fields/:id/snapshot',
    operationId: 'snapshotCalculatedField',
    tag: 'Calculated fields',
    summary: "Store a lead's current value of the field in its activity log",
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body({ lead_id: str({ minLength: 1, maxLength: 100 }) }, ['lead_id']),
    responses: { 201: data(ref('CalculatedSnapshot')) },
    errors: [400, 404],
    semanticChecks: 'that lead_id names a lead of the organization',
  },

  // Deduplication and validation
  {
    method: 'post',
    path: '/api/dedup/check-duplicate',
    operationId: 'checkDuplicate',
    tag: 'Deduplication',
    summary: 'Would this lead be a duplicate?',
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    requestBody: body({ email: str(), first_name: str(), last_name: str(), phone: str(), vendor_id: str() }, [], {
      minProperties: 1,
    }),
    responses: { 200: ref('DuplicateCheckResult') },
    errors: [400],
    semanticChecks: 'that the body names an email, a phone, or a first and last name',
  },
  {
    method: 'get',
    path: '/api/dedup',
    operationId: 'getDedupConfig',
    tag: 'Deduplication',
    summary: 'The deduplication configuration',
    auth: 'session',
    convention: 'user',
    permission: 'dedup:read',
    responses: { 200: data(ref('DedupConfig')) },
  },
  {
    method: 'post',
    path: '/api/dedup',
    operationId: 'updateDedupConfig',
    tag: 'Deduplication',
    summary: 'Change the deduplication configuration',
    auth: 'session',
    convention: 'user',
    permission: 'dedup:write',
    requestBody: dedupConfigBody,
    responses: { 200: data(ref('DedupConfig')) },
    errors: [400],
    semanticChecks:
      'the match fields and their algorithms, and weights that sum to 1 when the combination is weighted (with the current settings for what the body leaves out)',
  },
  {
    method: 'get',
    path: '/api/dedup/log',
    operationId: 'dedupLog',
    tag: 'Deduplication',
    summary: 'Recent deduplication decisions',
    auth: 'session',
    convention: 'user',
    permission: 'dedup:read',
    query: [limit],
    responses: { 200: obj({ data: array(ref('DedupLogEntry')), meta: obj({ limit: int() }) }, ['data']) },
  },
  {
    method: 'post',
    path: '/api/validation/check',
    operationId: 'checkValidation',
    tag: 'Validation',
    summary: 'Run the validation rules on lead fields without storing anything',
    auth: 'session',
    convention: 'user',
    permission: 'rules:read',
    requestBody: openObject(),
    responses: { 200: ref('ValidationCheckResult') },
    errors: [400],
  },
  ...configResource(
    '/api/validation',
    'ValidationRule',
    'Validation',
    'validation rule',
    body(
      {
        name: trimmedText(1, 200),
        field: validationField,
        rule_type: oneOfValues(VALIDATION_RULE_TYPES),
        condition: nullable(str({ maxLength: 200 })),
        value: {},
        action: oneOfValues(VALIDATION_RULE_ACTIONS),
        transform: oneOfValues(VALIDATION_TRANSFORMS),
        message: str({ maxLength: 500, pattern: `[^${BLANK}]` }),
        priority: int({ minimum: 0, maximum: 1_000_000 }),
        enabled: bool(),
      },
      ['name', 'field', 'rule_type', 'action', 'message'],
    ),
    'that the condition and value suit the rule type (a valid RE2 pattern, bounds, lists), and transform only with the transform action',
    { create: planLimit('validation_rules', 'validation rules per organization') },
  ),

  // Webhooks (docs/webhooks.md): configuration of owners and admins, read by managers
  // (docs/permissions.md).
  {
    method: 'get',
    path: '/api/webhooks',
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'Webhooks of both environments, with their masked secret, stats and last_triggered_at',
    auth: 'session',
    convention: 'user',
    permission: 'webhooks:read',
    responses: { 200: dataList(ref('Webhook')) },
  },
  {
    method: 'post',
    path: '/api/webhooks',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Subscribe an https URL to events (the only answer that holds the full signing secret)',
    auth: 'session',
    convention: 'user',
    permission: 'webhooks:write',
    requestBody: body(
      {
        url: str({ minLength: 1, maxLength: 2048 }),
        events: webhookEvents,
        enabled: bool(),
        description: nullable(str({ maxLength: 500 })),
        sandbox: bool(),
      },
      ['url', 'events'],
    ),
    responses: { 201: data(ref('WebhookCreated')) },
    errors: [400],
    semanticChecks: WEBHOOK_URL_CHECKS,
  },
  {
    method: 'patch',
    path: '/api/webhooks/:id',
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Change the URL, the events or whether the webhook is enabled',
    auth: 'session',
    convention: 'user',
    permission: 'webhooks:write',
    requestBody: body({ url: str({ minLength: 1, maxLength: 2048 }), events: webhookEvents, enabled: bool() }, [], {
      minProperties: 1,
    }),
    responses: { 200: data(ref('WebhookUpdated')) },
    errors: [400, 404],
    semanticChecks: WEBHOOK_URL_CHECKS,
  },
  {
    method: 'delete',
    path: '/api/webhooks/:id',
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook and its deliveries',
    auth: 'session',
    convention: 'user',
    permission: 'webhooks:write',
    responses: { 204: null },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/webhooks/:id/test',
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a signed evt_test_ event now and report the outcome',
    auth: 'session',
    convention: 'user',
    permission: 'webhooks:write',
    responses: { 200: ref('WebhookTestResult') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'Deliveries of a webhook, newest first',
    auth: 'session',
    convention: 'user',
    permission: 'webhooks:read',
    query: [page, limit],
    responses: {
      200: obj(
        {
          data: array(ref('WebhookDelivery')),
          meta: obj({ page: int({ minimum: 1 }), limit: int({ minimum: 1 }), total: int({ minimum: 0 }) }, [
            'page',
            'limit',
            'total',
          ]),
        },
        ['data', 'meta'],
      ),
    },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/api/webhooks/:id/deliveries/:delivery_id/retry',
    operationId: 'resendWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Send a delivery again now (one attempt, made by the deliver stage)',
    auth: 'session',
    convention: 'user',
    permission: 'webhooks:write',
    responses: { 202: data(ref('WebhookResend')) },
    errors: [404],
  },

  // Vendors
  {
    method: 'get',
    path: '/api/vendors',
    operationId: 'listVendors',
    tag: 'Vendors',
    summary: 'Vendors',
    auth: 'session',
    convention: 'user',
    permission: 'vendors:read',
    responses: { 200: dataList(ref('Vendor')) },
  },
  {
    method: 'post',
    path: '/api/vendors',
    operationId: 'createVendor',
    tag: 'Vendors',
    summary: 'Add a vendor',
    auth: 'session',
    convention: 'user',
    permission: 'vendors:write',
    requestBody: vendorBody,
    responses: { 201: data(ref('Vendor')) },
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/vendors/:id',
    operationId: 'getVendor',
    tag: 'Vendors',
    summary: 'One vendor',
    auth: 'session',
    convention: 'user',
    permission: 'vendors:read',
    responses: { 200: data(ref('Vendor')) },
    errors: [404],
  },
  {
    method: 'put',
    path: '/api/vendors/:id',
    operationId: 'replaceVendor',
    tag: 'Vendors',
    summary: 'Replace a vendor (absent optional fields become null)',
    auth: 'session',
    convention: 'user',
    permission: 'vendors:write',
    requestBody: vendorBody,
    responses: { 200: data(ref('Vendor')) },
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/api/vendors/:id',
    operationId: 'deleteVendor',
    tag: 'Vendors',
    summary: 'Delete a vendor',
    auth: 'session',
    convention: 'user',
    permission: 'vendors:write',
    responses: { 204: null },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/vendors/:id/enable',
    operationId: 'enableVendor',
    tag: 'Vendors',
    summary: "Accept the vendor's leads again",
    auth: 'session',
    convention: 'user',
    permission: 'vendors:write',
    responses: { 200: data(ref('Vendor')) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/vendors/:id/disable',
    operationId: 'disableVendor',
    tag: 'Vendors',
    summary: "Refuse the vendor's leads",
    auth: 'session',
    convention: 'user',
    permission: 'vendors:write',
    responses: { 200: data(ref('Vendor')) },
    errors: [404],
  },

  // Users
  {
    method: 'get',
    path: '/api/users',
    operationId: 'listUsers',
    tag: 'Users',
    summary: 'Users of the organization',
    auth: 'session',
    convention: 'user',
    permission: 'users:read',
    responses: { 200: dataList(ref('User')) },
  },
  {
    method: 'post',
    path: '/api/users',
    operationId: 'createUser',
    tag: 'Users',
    summary: 'Add a user with a password',
    auth: 'session',
    convention: 'user',
    permission: 'users:write',
    requestBody: body({ email, password, first_name: personName, last_name: personName, role }, [
      'email',
      'password',
      'first_name',
      'last_name',
      'role',
    ]),
    responses: { 201: data(ref('User')) },
    errors: [400, 409],
  },
  {
    method: 'post',
    path: '/api/users/invite',
    operationId: 'inviteUser',
    tag: 'Users',
    summary: 'Invite a user by email',
    auth: 'session',
    convention: 'user',
    permission: 'users:write',
    requestBody: body({ email, role, first_name: optionalText(2, 50), last_name: optionalText(2, 50) }, [
      'email',
      'role',
    ]),
    responses: { 201: data(ref('User')) },
    errors: [400, 409, 503],
  },
  {
    method: 'get',
    path: '/api/users/:id',
    operationId: 'getUser',
    tag: 'Users',
    summary: 'One user',
    auth: 'session',
    convention: 'user',
    permission: 'users:read',
    responses: { 200: data(ref('User')) },
    errors: [404],
  },
  {
    method: 'patch',
    path: '/api/users/:id',
    operationId: 'updateUser',
    tag: 'Users',
    summary: "Change a user's name or role",
    auth: 'session',
    convention: 'user',
    permission: 'users:write',
    requestBody: body({ first_name: optionalText(2, 50), last_name: optionalText(2, 50), role: optionalRole }, [], {
      minProperties: 1,
    }),
    semanticChecks:
      'that the body changes at least one of first_name, last_name and role (null leaves a field as it is)',
    responses: { 200: data(ref('User')) },
    errors: [400, 404, 409],
  },
  {
    method: 'delete',
    path: '/api/users/:id',
    operationId: 'deleteUser',
    tag: 'Users',
    summary: 'Remove a user',
    auth: 'session',
    convention: 'user',
    permission: 'users:write',
    responses: { 204: null },
    errors: [404, 409],
  },

  // CRM (docs/crm.md): owners and admins; credentials are write-only.
  {
    method: 'get',
    path: '/api/crm/connections',
    operationId: 'listCrmConnections',
    tag: 'CRM',
    summary: 'CRM connections (settings, never credentials)',
    auth: 'session',
    convention: 'user',
    permission: 'crm:read',
    responses: { 200: dataList(ref('CrmConnection')) },
  },
  {
    method: 'post',
    path: '/api/crm/connections',
    operationId: 'createCrmConnection',
    tag: 'CRM',
    summary: 'Add a CRM connection (credentials are stored encrypted and never shown again)',
    auth: 'session',
    convention: 'user',
    permission: 'crm:write',
    requestBody: crmConnectionBody,
    responses: { 201: data(ref('CrmConnection')) },
    errors: [400],
    semanticChecks: CRM_CHECKS,
  },
  {
    method: 'patch',
    path: '/api/crm/connections/:id',
    operationId: 'updateCrmConnection',
    tag: 'CRM',
    summary:
      "Change a connection's name, enabled, settings or credentials (settings and credentials are replaced whole; the id and type stay)",
    auth: 'session',
    convention: 'user',
    permission: 'crm:write',
    requestBody: crmConnectionPatchBody,
    responses: { 200: data(ref('CrmConnection')) },
    errors: [400, 404, 503],
    semanticChecks: `${CRM_CHECKS}; that the type stays as it is; and that credentials kept from before suit new settings (new settings of a connection whose stored credentials no longer decrypt need new credentials)`,
  },
  {
    method: 'post',
    path: '/api/crm/connections/:id/test',
    operationId: 'testCrmConnection',
    tag: 'CRM',
    summary: 'Call the CRM with the connection (token, then a read; nothing is written) and report its answer',
    auth: 'session',
    convention: 'user',
    permission: 'crm:write',
    responses: { 200: ref('CrmConnectionTest') },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/crm/connections/:id',
    operationId: 'deleteCrmConnection',
    tag: 'CRM',
    summary: 'Remove a CRM connection',
    auth: 'session',
    convention: 'user',
    permission: 'crm:write',
    responses: { 204: null },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/crm/:id/sync/:leadId',
    operationId: 'syncLeadToCrm',
    tag: 'CRM',
    summary: 'Sync one lead to the connection again (an upsert); the crm-sync stage makes the call, with retries',
    auth: 'session',
    convention: 'user',
    permission: 'crm:write',
    responses: { 202: data(ref('CrmSyncRequested')) },
    errors: [400, 404, 503],
  },

  // Organization
  {
    method: 'get',
    path: '/api/organization',
    operationId: 'getOrganization',
    tag: 'Organization',
    summary: 'The organization and its settings',
    auth: 'session',
    convention: 'user',
    permission: 'organization:read',
    responses: { 200: data(ref('Organization')) },
  },
  {
    method: 'patch',
    path: '/api/organization',
    operationId: 'updateOrganization',
    tag: 'Organization',
    summary: 'Rename the organization or change its validation, consent and review settings',
    auth: 'session',
    convention: 'user',
    permission: 'organization:write',
    requestBody: body(
      {
        name: optionalText(2, 100),
        settings: body({
          validation: organizationValidation,
          // docs/consent.md
          consent_requirements: consentRequirementsBody,
          consent_retention_days: consentRetentionDays,
          // docs/review-queue.md "Settings"
          ...reviewSettingsSchemas,
        }),
      },
      [],
      { minProperties: 1 },
    ),
    semanticChecks:
      'that high_risk_ips are IP addresses or CIDR ranges, that flag_below_ms is not below reject_below_ms, and that auto_decision is set when auto_decision_after_hours is (with the current settings for what the body leaves out)',
    responses: { 200: data(ref('Organization')) },
    errors: [400],
  },
  {
    method: 'delete',
    path: '/api/organization',
    operationId: 'deleteOrganization',
    tag: 'Organization',
    summary: 'Delete the organization and everything in it (owner only)',
    auth: 'session',
    convention: 'user',
    permission: 'organization:delete',
    responses: { 204: null },
  },

  // Funnel: session token or vendor API key, the funnel convention, also under /sandbox.
  {
    method: 'get',
    path: '/api/vendor-funnel-links',
    operationId: 'listFunnelLinks',
    tag: 'Funnel',
    summary: 'Funnel links with the vendor names (an API key sees those of its vendor)',
    auth: 'sessionOrApiKey',
    convention: 'funnel',
    permission: 'analytics:read',
    sandbox: true,
    responses: { 200: funnelData(array(ref('FunnelLink'))) },
  },
  {
    method: 'post',
    path: '/api/vendor-funnel-links',
    operationId: 'createFunnelLink',
    tag: 'Funnel',
    summary: 'Link an inquiry vendor to an application vendor',
    auth: 'sessionOrApiKey',
    convention: 'funnel',
    permission: 'vendors:write',
    sandbox: true,
    requestBody: body(
      {
        inquiryVendorId: str({ format: 'uuid' }),
        applicationVendorId: str({ format: 'uuid' }),
        timeWindowHours: int({ minimum: 1, maximum: 8_760, default: 24 }),
      },
      ['inquiryVendorId', 'applicationVendorId'],
    ),
    responses: { 201: funnelData(ref('FunnelLinkCreated')) },
    errors: [400, 404],
    semanticChecks:
      'that both vendors exist with the right types (404, 400), that the pair is not linked already (400), and that an API key links its own vendor (403)',
  },
  {
    method: 'get',
    path: '/api/vendor-funnel-links/has-links',
    operationId: 'hasFunnelLinks',
    tag: 'Funnel',
    summary: 'Whether any funnel link exists',
    auth: 'sessionOrApiKey',
    convention: 'funnel',
    permission: 'analytics:read',
    sandbox: true,
    responses: { 200: obj({ success: { const: true }, hasLinks: bool() }, ['success', 'hasLinks']) },
  },
  {
    method: 'delete',
    path: '/api/vendor-funnel-links/:id',
    operationId: 'deleteFunnelLink',
    tag: 'Funnel',
    summary: 'Remove a funnel link',
    auth: 'sessionOrApiKey',
    convention: 'funnel',
    permission: 'vendors:write',
    sandbox: true,
    responses: { 200: obj({ success: { const: true }, message: str() }, ['success', 'message']) },
    errors: [404],
  },
  funnelReport(
    'overview',
    'funnelOverview',
    'Inquiries, applications, conversions and the average time to convert',
    'FunnelOverview',
  ),
  funnelReport(
    'time-to-convert',
    'funnelTimeToConvert',
    'How long conversions took, in buckets, with the median',
    'FunnelTimeToConvert',
  ),
  funnelReport(
    'drop-offs',
    'funnelDropOffs',
    'Inquiries at least minAgeHours old that did not convert, by vendor and age',
    'FunnelDropOffs',
    [{ name: 'minAgeHours', in: 'query', schema: int({ minimum: 0, maximum: 8_760, default: 24 }) }],
  ),
  funnelReport('by-vendor', 'funnelByVendor', 'Conversions of each linked vendor pair', 'FunnelByVendor'),
  funnelReport('daily', 'funnelDaily', 'Inquiries, applications and conversions per day (UTC)', 'FunnelDaily'),

  // General analytics (the bodies are ours: docs/analytics.md)
  analyticsReport(
    '',
    'analyticsOverview',
    'Submissions by outcome, rejection reasons and vendors',
    'AnalyticsOverview',
  ),
  analyticsReport(
    '/executive-summary',
    'executiveSummary',
    'This period against the previous one of the same length',
    'ExecutiveSummary',
  ),
  analyticsReport(
    '/source-performance',
    'sourcePerformance',
    'Submissions by outcome per source, UTM field, program or vendor',
    'SourcePerformance',
    [
      {
        name: 'groupBy',
        in: 'query',
        schema: orDefault(['source', 'utm_source', 'utm_medium', 'utm_campaign', 'program', 'vendor']),
      },
    ],
  ),
  analyticsReport(
    '/conversion-funnel',
    'conversionFunnel',
    'Submitted, valid, accepted, converted',
    'ConversionFunnel',
  ),
  analyticsReport(
    '/lead-volume-trend',
    'leadVolumeTrend',
    'Submissions by outcome per day, week or month',
    'LeadVolumeTrend',
    [{ name: 'interval', in: 'query', schema: orDefault(['day', 'week', 'month']) }],
  ),
  analyticsReport(
    '/vendor-roi',
    'vendorRoi',
    "Each vendor's spend (cost per lead × accepted leads) against its conversions",
    'VendorRoi',
  ),
  ...reviewQueueOperations,
  ...reprocessOperations,
  ...suppressionOperations,
  ...capsOperations,
  ...consentOperations,
];

/** List, create, get, patch, delete of one kind of organization configuration (the shared route shape of docs/decisions.md "Rules"). */
function configResource(
  path: string,
  schemaName: string,
  tag: string,
  noun: string,
  createBody: JsonSchema,
  semanticChecks?: string,
  planLimits: { create?: string; update?: string } = {},
): Operation[] {
  const name = schemaName;
  const patchBody = { ...createBody };
  delete patchBody['required'];
  return [
    {
      method: 'get',
      path,
      operationId: `list${name}s`,
      tag,
      summary: `Every ${noun}`,
      auth: 'session',
      convention: 'user',
      permission: 'rules:read',
      responses: { 200: dataList(ref(name)) },
    },
    {
      method: 'post',
      path,
      operationId: `create${name}`,
      tag,
      summary: `Create a ${noun}`,
      auth: 'session',
      convention: 'user',
      permission: 'rules:write',
      requestBody: createBody,
      responses: { 201: data(ref(name)) },
      errors: [400, 409],
      ...(semanticChecks ? { semanticChecks } : {}),
      ...(planLimits.create ? { planLimit: planLimits.create } : {}),
    },
    {
      method: 'get',
      path: `${path}/:id`,
      operationId: `get${name}`,
      tag,
      summary: `One ${noun}`,
      auth: 'session',
      convention: 'user',
      permission: 'rules:read',
      responses: { 200: data(ref(name)) },
      errors: [404],
    },
    {
      method: 'patch',
      path: `${path}/:id`,
      operationId: `update${name}`,
      tag,
      summary: `Change some fields of a ${noun}`,
      auth: 'session',
      convention: 'user',
      permission: 'rules:write',
      requestBody: patchBody,
      responses: { 200: data(ref(name)) },
      errors: [400, 404, 409],
      ...(semanticChecks ? { semanticChecks } : {}),
      ...(planLimits.update ? { planLimit: planLimits.update } : {}),
    },
    {
      method: 'delete',
      path: `${path}/:id`,
      operationId: `delete${name}`,
      tag,
      summary: `Delete a ${noun}`,
      auth: 'session',
      convention: 'user',
      permission: 'rules:write',
      responses: { 204: null },
      errors: [404],
    },
  ];
}
