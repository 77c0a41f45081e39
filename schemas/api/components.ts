/**
 * The named schemas of the HTTP API (OpenAPI `components.schemas`): the resources as the routes
 * answer them, and the error bodies of the three conventions (docs/api-conventions.md). Response
 * objects list the keys that are always present; clients must ignore keys they do not know.
 */
import {
  anyObject,
  array,
  bool,
  dateTime,
  int,
  nullable,
  num,
  obj,
  oneOfValues,
  record,
  ref,
  str,
  type JsonSchema,
} from './json-schema';
import { TIMELINE_STAGES } from '@leadstream/domain';
import { reviewSettingsSchemas } from './review-queue.operations';

export const LEAD_STATUSES = [
  'new',
  'active',
  'contacted',
  'qualified',
  'converted',
  'rejected',
  'duplicate',
  'archived',
] as const;
export const ROLES = ['owner', 'admin', 'manager', 'viewer', 'vendor'] as const;

const detail = obj({ field: str(), message: str() }, ['field', 'message']);
const nullableText = nullable(str());
const timestamps = { created_at: dateTime(), updated_at: dateTime() };

const leadSummaryFields = {
  id: str(),
  email: str(),
  first_name: nullableText,
  last_name: nullableText,
  phone: nullableText,
  status: oneOfValues(LEAD_STATUSES),
  source: nullableText,
  vendor_id: nullableText,
  program: nullableText,
  program_interest: nullableText,
  ip_address: nullableText,
  user_agent: nullableText,
  utm_source: nullableText,
  utm_medium: nullableText,
  utm_campaign: nullableText,
  custom_fields: anyObject(),
  enrichment_data: anyObject(),
  ...timestamps,
};

/** Text the edge takes: anything but U+0000 (libs/http/src/nul-text.ts). */
const NUL = { pattern: '\\u0000' };

/** A key that is stored as a key: no `__proto__`, no U+0000, no '.', no leading '$'. */
export const STORABLE_KEY: JsonSchema = {
  not: { anyOf: [{ const: '__proto__' }, NUL, { pattern: '\\.' }, { pattern: '^\\$' }] },
};

/**
 * Any JSON value inside an open object of a request (custom fields, lead data), as levels
 * `AnyJson`, `AnyJson2`, ... `AnyJson10`: text without U+0000, keys without U+0000 and never
 * `__proto__` (the JSON parser refuses it: prototype poisoning), and at most 10 levels deep (custom
 * fields may not nest deeper). Levels rather than one recursive schema, so generated client types
 * stay finite.
 */
/** How many levels an `AnyJson` value may have (the value itself is level 1). */
const ANY_JSON_LEVELS = 10;
/**
 * A batch item's values: the API answers an item it cannot take in the batch's 200 results (per
 * index), whatever its values, so they may nest as deep as any request body does. The edge
 * (libs/http MAX_JSON_BODY_DEPTH) allows lists and objects up to level 32 of the body; below the
 * body, its `leads` list and the item, that is 29 levels of lists and objects, and a scalar in the
 * last: 30 levels.
 */
const BATCH_ITEM_VALUE_LEVELS = 32 - 3 + 1;

function anyJsonLevels(base: string, listsInLists: boolean, levelCount = ANY_JSON_LEVELS): Record<string, JsonSchema> {
  const name = (level: number): string => (level === 1 ? base : `${base}${level}`);
  const levels: Record<string, JsonSchema> = {};
  for (let level = 1; level <= levelCount; level += 1) {
    const scalars: JsonSchema[] = [{ type: ['number', 'boolean', 'null'] }, { type: 'string', not: NUL }];
    const nested: JsonSchema[] =
      level < levelCount
        ? [
            {
              type: 'array',
              items: listsInLists ? ref(name(level + 1)) : { not: { type: 'array' }, allOf: [ref(name(level + 1))] },
            },
            {
              type: 'object',
              propertyNames: listsInLists ? { not: { anyOf: [{ const: '__proto__' }, NUL] } } : STORABLE_KEY,
              additionalProperties: ref(name(level + 1)),
            },
          ]
        : [];
    levels[name(level)] = {
      anyOf: [...scalars, ...nested],
      ...(level === 1 ? { description: 'Any JSON value, with the limits above.' } : {}),
    };
  }
  return levels;
}

export const componentSchemas: Record<string, JsonSchema> = {
  CrmConnection: record({
    id: str(),
    name: str(),
    type: oneOfValues(['webhook_json', 'salesforce', 'hubspot']),
    enabled: bool(),
    settings: anyObject(),
    credentials_set: bool(),
    credential_fields: array(str()),
    last_sync_at: nullable(dateTime()),
    stats: record({ synced: int({ minimum: 0 }), failed: int({ minimum: 0 }) }),
    ...timestamps,
  }),
  CrmConnectionTest: obj(
    { success: bool(), response_status: nullable(int()), response_time_ms: int({ minimum: 0 }), error: str() },
    ['success', 'response_status', 'response_time_ms'],
  ),
  CrmSyncRequested: record({
    id: str(),
    lead_id: str(),
    connection_id: str(),
    status: { const: 'pending' },
    requested_at: dateTime(),
    previous_status: nullable(oneOfValues(['pending', 'syncing', 'retry_scheduled', 'synced', 'failed'])),
    crm_id: nullableText,
  }),
  ErrorDetail: detail,
  ...anyJsonLevels('AnyJson', true),
  ...anyJsonLevels('BatchItemValue', true, BATCH_ITEM_VALUE_LEVELS),
  // A custom field's value is stored: no list directly inside a list (MongoDB-protocol servers on
  // PostgreSQL, FerretDB, cannot store nested arrays; the edge refuses them on every engine).
  ...anyJsonLevels('CustomFieldValue', false),
  UserError: {
    ...obj(
      {
        error: obj(
          {
            code: str({
              description:
                'An error code: the authentication, lead and validation codes, or one for the cases they do not cover (NOT_FOUND, METHOD_NOT_ALLOWED, UNSUPPORTED_MEDIA_TYPE, ...).',
            }),
            message: str(),
            details: array(ref('ErrorDetail')),
            retry_after: int({ minimum: 0, description: 'On 429: seconds until the window resets.' }),
          },
          ['code', 'message'],
        ),
      },
      ['error'],
    ),
    description: 'The user API error body.',
  },
  IngestionError: {
    ...obj(
      {
        success: { const: false },
        error: str(),
        code: str(),
        details: array(ref('ErrorDetail')),
        retry_after: int({ minimum: 0 }),
      },
      ['success', 'error'],
    ),
    description:
      'The ingestion API error body: extra keys per case (duplicate_of on a 409, reason and rule_id on a 422, ...).',
  },
  OAuthError: obj({ error: str(), error_description: str() }, ['error']),
  FunnelError: {
    ...obj(
      {
        success: { const: false },
        error: str(),
        details: { type: 'object', additionalProperties: str() },
        requestId: str(),
        retry_after: int({ minimum: 0 }),
      },
      ['success', 'error'],
    ),
    description: 'The funnel API error body: `details` keyed by parameter on a 400, `requestId` on a 500.',
  },
  PageMeta: obj(
    {
      page: int({ minimum: 1 }),
      limit: int({ minimum: 1 }),
      total: int({ minimum: 0 }),
      totalPages: int({ minimum: 0 }),
    },
    ['page', 'limit', 'total', 'totalPages'],
  ),

  UserSummary: record({
    id: str(),
    email: str(),
    first_name: str(),
    last_name: str(),
    role: oneOfValues(ROLES),
    organization_id: str(),
  }),
  Session: obj({ token: str(), user: ref('UserSummary'), expires_at: dateTime() }, ['token', 'user', 'expires_at']),
  Registered: obj({ token: str(), user: ref('UserSummary'), expires_at: dateTime() }, ['token', 'user']),
  RefreshedSession: record({ token: str(), expires_at: dateTime() }),
  ChangedPassword: record({ message: str(), token: str(), expires_at: dateTime() }),
  Message: record({ message: str() }),
  User: obj(
    {
      id: str(),
      email: str(),
      first_name: str(),
      last_name: str(),
      role: oneOfValues(ROLES),
      organization_id: str(),
      status: oneOfValues(['active', 'invited']),
      last_login_at: nullable(dateTime()),
      invitation_expires_at: dateTime(),
      ...timestamps,
    },
    [
      'id',
      'email',
      'first_name',
      'last_name',
      'role',
      'organization_id',
      'status',
      'last_login_at',
      'created_at',
      'updated_at',
    ],
  ),
  Organization: record({
    id: str(),
    name: str(),
    plan: str(),
    settings: obj({
      validation: anyObject(),
      // docs/consent.md: the defaults until the organization sets them.
      consent_requirements: anyObject(),
      consent_retention_days: int({ minimum: 1 }),
      // docs/review-queue.md "Settings": null until set.
      ...reviewSettingsSchemas,
    }),
    ...timestamps,
  }),

  Vendor: record({
    id: str(),
    name: str(),
    type: oneOfValues(['inquiry', 'application']),
    enabled: bool(),
    group: nullableText,
    contact_email: nullableText,
    cost_per_lead: nullable(num({ minimum: 0 })),
    ...timestamps,
  }),
  ApiKey: record({
    id: str(),
    name: str(),
    key_preview: str(),
    vendor_id: str(),
    environment: oneOfValues(['live', 'sandbox']),
    permissions: array(oneOfValues(['read', 'write'])),
    ip_restrictions: array(str()),
    rate_limit: nullable(int()),
    enabled: bool(),
    created_at: dateTime(),
    last_used_at: nullable(dateTime()),
    expires_at: nullable(dateTime()),
    revoked_at: nullable(dateTime()),
  }),
  CreatedApiKey: {
    allOf: [ref('ApiKey'), obj({ key: str({ description: 'The full key: shown only in this answer.' }) }, ['key'])],
  },
  RotatedApiKey: record({ new_key: str(), message: str() }),
  OAuthClient: record({ id: str(), name: str(), redirect_uris: array(str()), public: bool(), created_at: dateTime() }),
  CreatedOAuthClient: { allOf: [ref('OAuthClient'), obj({ client_secret: str() })] },
  OAuthToken: obj(
    { access_token: str(), token_type: { const: 'Bearer' }, expires_in: int(), refresh_token: str(), scope: str() },
    ['access_token', 'token_type', 'expires_in'],
  ),

  LeadSummary: record(leadSummaryFields),
  Lead: record({
    ...leadSummaryFields,
    vendor_name: nullableText,
    landing_page: nullableText,
    referrer: nullableText,
    utm_term: nullableText,
    utm_content: nullableText,
    validation_status: str(),
    duplicate_of: nullableText,
    crm_sync_status: str(),
    crm_id: nullableText,
    crm_synced_at: nullable(dateTime()),
    deleted_at: nullable(dateTime()),
    calculated_fields: anyObject(),
    review_flags: array(anyObject()),
    routing: nullable(ref('LeadRoute')),
  }),
  ActivityEntry: obj({ id: str(), event: str(), timestamp: dateTime(), description: str(), metadata: anyObject() }, [
    'id',
    'event',
    'timestamp',
  ]),
  TimelineEntry: record({
    stage: oneOfValues(TIMELINE_STAGES),
    outcome: str(),
    started_at: dateTime(),
    finished_at: dateTime(),
    duration_ms: int({ minimum: 0 }),
    detail: anyObject(),
  }),
  BulkResult: obj({ id: str(), success: bool(), error: obj({ code: str(), message: str() }) }, ['id', 'success']),
  ExportStarted: record({
    export_id: str(),
    status: str(),
    download_url: { type: 'null' },
    estimated_completion: dateTime(),
  }),
  Export: obj(
    {
      export_id: str(),
      status: oneOfValues(['processing', 'completed', 'failed', 'expired']),
      format: str(),
      download_url: nullableText,
      estimated_completion: nullable(dateTime()),
      expires_at: nullable(dateTime()),
      row_count: nullable(int()),
      created_at: dateTime(),
      completed_at: nullable(dateTime()),
    },
    ['export_id', 'status', 'download_url'],
  ),
  LeadSubmissionAccepted: obj(
    {
      success: { const: true },
      lead_id: str(),
      message: str(),
      timestamp: dateTime(),
      warnings: array(ref('ErrorDetail')),
      flags: array(str()),
      duplicate_of: str(),
    },
    ['success', 'lead_id', 'message', 'timestamp'],
  ),
  LeadSubmissionPending: record({
    success: { const: true },
    lead_id: str(),
    status: { const: 'processing' },
    message: str(),
    status_url: str(),
    timestamp: dateTime(),
  }),
  LeadBatchResult: obj(
    {
      success: bool(),
      total: int({ minimum: 0 }),
      accepted: int({ minimum: 0 }),
      rejected: int({ minimum: 0 }),
      results: array(
        obj(
          {
            index: int({ minimum: 0 }),
            success: bool(),
            lead_id: str(),
            email: str(),
            error: str(),
            details: array(ref('ErrorDetail')),
            duplicate_of: str(),
            status: str(),
            status_url: str(),
            reason: nullable(str()),
            rule_id: nullable(str()),
            message: str(),
          },
          ['index', 'success'],
        ),
      ),
      timestamp: dateTime(),
    },
    ['success', 'total', 'accepted', 'rejected', 'results', 'timestamp'],
  ),
  ProcessingStatus: obj(
    {
      id: str(),
      status: str(),
      submitted_at: nullable(dateTime()),
      processed_at: nullable(dateTime()),
      validation_status: nullableText,
      enrichment_status: nullableText,
      crm_sync_status: nullableText,
      crm_id: nullableText,
      rejection_reason: str(),
      rule_id: nullableText,
      duplicate_of: str(),
    },
    ['id', 'status'],
  ),
  VendorDailyStats: record({
    date: str({ format: 'date' }),
    submitted: int(),
    accepted: int(),
    rejected: int(),
    pending: int(),
    acceptance_rate: num({ minimum: 0, maximum: 1 }),
  }),
  VendorMonthlySummary: record({
    year: int(),
    month: int({ minimum: 1, maximum: 12 }),
    submitted: int(),
    accepted: int(),
    rejected: int(),
    pending: int(),
    acceptance_rate: num({ minimum: 0, maximum: 1 }),
    rejection_breakdown: obj({ invalid_email: int(), duplicate: int(), missing_field: int(), other: int() }, [
      'invalid_email',
      'duplicate',
      'missing_field',
      'other',
    ]),
  }),

  CustomField: obj(
    {
      id: str(),
      name: str(),
      label: str(),
      type: str(),
      required: bool(),
      validation: nullable(anyObject()),
      created_at: dateTime(),
    },
    ['id', 'name', 'label', 'type', 'created_at'],
  ),
  EnrichmentRuleSummary: obj(
    { id: str(), name: str(), priority: int(), enabled: bool(), created_at: dateTime(), updated_at: dateTime() },
    ['id', 'name', 'priority', 'enabled'],
  ),
  EnrichmentRule: obj(
    {
      id: str(),
      name: str(),
      description: nullableText,
      priority: int(),
      enabled: bool(),
      conditions: anyObject(),
      actions: array(anyObject()),
      stats: anyObject(),
      ...timestamps,
    },
    ['id', 'name', 'priority', 'enabled', 'conditions', 'actions', 'created_at', 'updated_at'],
  ),
  EnrichmentRulesDocument: obj(
    {
      format: { const: 'leadstream.enrichment-rules' },
      version: { const: 1 },
      exported_at: dateTime(),
      rules: array(anyObject()),
    },
    ['format', 'version', 'rules'],
  ),
  EnrichmentRulesImported: obj(
    { imported: int(), rules: array(ref('EnrichmentRuleSummary')), ids: obj({}, [], { additionalProperties: str() }) },
    ['imported', 'rules', 'ids'],
  ),
  EnrichmentTestResult: obj(
    {
      results: array(
        obj(
          {
            rule_id: str(),
            rule_name: str(),
            priority: int(),
            matched: bool(),
            actions_taken: array(anyObject()),
            processing_stopped: bool(),
            reason: str(),
          },
          ['rule_id', 'rule_name', 'matched'],
        ),
      ),
      final_outcome: str(),
      rejection_reason: nullableText,
    },
    ['results', 'final_outcome'],
  ),
  LookupTable: record({
    id: str(),
    name: str(),
    description: nullableText,
    mappings: obj({}, [], { additionalProperties: str() }),
    ...timestamps,
  }),
  // Routing (docs/routing.md; docs/decisions.md "Routing").
  RoutingDestination: record({ connection_id: str(), owner: nullableText, queue: nullableText }),
  RoutingTarget: record({
    connection_id: str(),
    owner: nullableText,
    queue: nullableText,
    weight: nullable(int({ minimum: 1, maximum: 1000 })),
  }),
  RoutingRule: record({
    id: str(),
    name: str(),
    description: nullableText,
    priority: int(),
    enabled: bool(),
    conditions: anyObject(),
    targets: array(ref('RoutingTarget')),
    distribution: oneOfValues(['single', 'all', 'round_robin', 'weighted']),
    ...timestamps,
  }),
  RoutingSettings: record({
    default_targets: array(ref('RoutingDestination')),
    when_unmatched: oneOfValues(['all_connections', 'none']),
    updated_at: nullable(dateTime()),
  }),
  LeadRoute: record({
    rule_id: nullableText,
    reason: oneOfValues(['rule', 'default', 'all_connections', 'none']),
    targets: array(ref('RoutingDestination')),
    routed_at: dateTime(),
  }),
  RoutingTestResult: record({
    rule_id: nullableText,
    rule_name: nullableText,
    reason: oneOfValues(['rule', 'default', 'all_connections', 'none']),
    targets: array(ref('RoutingDestination')),
    enrichment_outcome: oneOfValues(['accepted', 'rejected']),
  }),
  CalculatedField: record({
    id: str(),
    name: str(),
    label: str(),
    formula: str(),
    type: str(),
    recalculate_on_change: bool(),
    description: nullableText,
    ...timestamps,
  }),
  CalculationJob: record({
    id: str(),
    fields: nullable(array(str())),
    reason: str(),
    status: oneOfValues(['queued', 'running', 'completed', 'failed']),
    processed: int(),
    updated: int(),
    total: nullable(int()),
    error: nullableText,
    created_at: dateTime(),
    started_at: nullable(dateTime()),
    completed_at: nullable(dateTime()),
  }),
  CalculatedSnapshot: obj(
    { lead_id: str(), field: str(), value: {}, error: str(), snapshot_at: dateTime(), activity_id: str() },
    ['lead_id', 'field', 'value', 'snapshot_at', 'activity_id'],
  ),
  ValidationRule: obj(
    {
      id: str(),
      name: str(),
      field: str(),
      rule_type: str(),
      condition: nullableText,
      value: {},
      action: str(),
      message: nullableText,
      priority: int(),
      enabled: bool(),
      ...timestamps,
    },
    ['id', 'name', 'field', 'rule_type', 'action', 'priority', 'enabled', 'created_at', 'updated_at'],
  ),
  ValidationCheckResult: record({
    valid: bool(),
    warnings: array(ref('ErrorDetail')),
    errors: array(ref('ErrorDetail')),
  }),
  DedupConfig: obj(
    {
      enabled: bool(),
      threshold: num(),
      window_hours: nullable(num()),
      action: str(),
      match_fields: array(anyObject()),
      combination: str(),
      scope: str(),
      vendor_overrides: anyObject(),
    },
    ['enabled', 'threshold', 'window_hours', 'action', 'match_fields'],
  ),
  DedupLogEntry: obj(
    {
      lead_id: str(),
      timestamp: dateTime(),
      incoming_lead: anyObject(),
      matched_lead_id: nullableText,
      match_fields: anyObject(),
      final_score: nullable(num()),
      threshold: nullable(num()),
      action_taken: str(),
      reason: nullableText,
    },
    ['timestamp', 'action_taken'],
  ),
  DuplicateCheckResult: obj(
    {
      is_duplicate: bool(),
      matched_lead_id: str(),
      similarity_score: num(),
      match_details: obj({ email: nullable(num()), name: nullable(num()) }),
    },
    ['is_duplicate'],
  ),

  // Funnel (docs/analytics.md "Funnel"): ids are vendor UUIDs; rates are fractions, percentages
  // 0-100.
  FunnelLink: record({
    id: str({ format: 'uuid' }),
    inquiryVendorId: str({ format: 'uuid' }),
    inquiryVendorName: str(),
    applicationVendorId: str({ format: 'uuid' }),
    applicationVendorName: str(),
    timeWindowHours: int({ minimum: 1 }),
    createdAt: dateTime(),
  }),
  FunnelLinkCreated: record({
    id: str({ format: 'uuid' }),
    inquiryVendorId: str({ format: 'uuid' }),
    applicationVendorId: str({ format: 'uuid' }),
    timeWindowHours: int({ minimum: 1 }),
    createdAt: dateTime(),
  }),
  FunnelPeriod: record({ start: dateTime(), end: dateTime() }),
  FunnelOverview: record({
    period: ref('FunnelPeriod'),
    totalInquiries: int({ minimum: 0 }),
    totalApplications: int({ minimum: 0 }),
    matchedApplications: int({ minimum: 0 }),
    conversionRate: num({ minimum: 0, maximum: 1 }),
    averageTimeToConvertSeconds: nullable(int({ minimum: 0 })),
    averageTimeToConvertFormatted: nullable(str()),
  }),
  FunnelTimeToConvert: record({
    period: ref('FunnelPeriod'),
    distribution: array(
      record({
        bucket: oneOfValues(['0-1hr', '1-6hr', '6-12hr', '12-24hr', '24hr+']),
        count: int({ minimum: 0 }),
        percentage: num({ minimum: 0, maximum: 100 }),
      }),
    ),
    totalConversions: int({ minimum: 0 }),
    medianTimeToConvertSeconds: nullable(int({ minimum: 0 })),
    medianTimeToConvertFormatted: nullable(str()),
  }),
  FunnelDropOffs: record({
    period: ref('FunnelPeriod'),
    totalDroppedInquiries: int({ minimum: 0 }),
    dropOffRate: num({ minimum: 0, maximum: 1 }),
    byVendor: array(
      record({
        vendorId: str(),
        vendorName: nullable(str()),
        droppedCount: int({ minimum: 0 }),
        totalInquiries: int({ minimum: 0 }),
        dropOffRate: num({ minimum: 0, maximum: 1 }),
      }),
    ),
    byAge: array(
      record({ bucket: oneOfValues(['0-24hr', '24-48hr', '2-7days', '7days+']), count: int({ minimum: 0 }) }),
    ),
  }),
  FunnelByVendor: record({
    period: ref('FunnelPeriod'),
    vendorPairs: array(
      record({
        inquiryVendorId: str(),
        inquiryVendorName: nullable(str()),
        applicationVendorId: str(),
        applicationVendorName: nullable(str()),
        inquiries: int({ minimum: 0 }),
        conversions: int({ minimum: 0 }),
        conversionRate: num({ minimum: 0, maximum: 1 }),
        averageTimeToConvertSeconds: nullable(int({ minimum: 0 })),
        averageTimeToConvertFormatted: nullable(str()),
      }),
    ),
  }),
  FunnelDaily: record({
    period: ref('FunnelPeriod'),
    daily: array(
      record({
        date: str({ format: 'date' }),
        inquiries: int({ minimum: 0 }),
        applications: int({ minimum: 0 }),
        conversions: int({ minimum: 0 }),
        conversionRate: num({ minimum: 0, maximum: 1 }),
      }),
    ),
  }),

  // General analytics (the bodies are ours: docs/analytics.md).
  OutcomeCounts: record({
    submitted: int({ minimum: 0 }),
    accepted: int({ minimum: 0 }),
    rejected: int({ minimum: 0 }),
    duplicates: int({ minimum: 0 }),
    pending: int({ minimum: 0 }),
    acceptanceRate: num({ minimum: 0, maximum: 1 }),
  }),
  AnalyticsOverview: record({
    period: ref('FunnelPeriod'),
    totals: ref('OutcomeCounts'),
    byStatus: array(record({ status: str(), count: int({ minimum: 0 }) })),
    rejectionReasons: array(record({ reason: str(), count: int({ minimum: 0 }) })),
    byVendor: array({
      allOf: [
        ref('OutcomeCounts'),
        obj({ vendorId: nullable(str()), vendorName: nullable(str()) }, ['vendorId', 'vendorName']),
      ],
    }),
  }),
  PeriodSummary: record({
    submitted: int({ minimum: 0 }),
    accepted: int({ minimum: 0 }),
    acceptanceRate: num({ minimum: 0, maximum: 1 }),
    inquiries: int({ minimum: 0 }),
    conversions: int({ minimum: 0 }),
    conversionRate: num({ minimum: 0, maximum: 1 }),
  }),
  ExecutiveSummary: record({
    period: ref('FunnelPeriod'),
    previousPeriod: ref('FunnelPeriod'),
    current: ref('PeriodSummary'),
    previous: ref('PeriodSummary'),
    change: record({ submitted: nullable(num()), accepted: nullable(num()), conversions: nullable(num()) }),
  }),
  SourcePerformance: record({
    period: ref('FunnelPeriod'),
    groupBy: oneOfValues(['source', 'utm_source', 'utm_medium', 'utm_campaign', 'program', 'vendor']),
    rows: array({ allOf: [ref('OutcomeCounts'), obj({ value: nullable(str()), label: nullable(str()) }, ['value'])] }),
  }),
  ConversionFunnel: record({
    period: ref('FunnelPeriod'),
    stages: array(
      record({
        stage: oneOfValues(['submitted', 'valid', 'accepted', 'converted']),
        count: int({ minimum: 0 }),
        rateFromPrevious: num({ minimum: 0 }),
        rateFromSubmitted: num({ minimum: 0 }),
      }),
    ),
  }),
  LeadVolumeTrend: record({
    period: ref('FunnelPeriod'),
    interval: oneOfValues(['day', 'week', 'month']),
    points: array({ allOf: [ref('OutcomeCounts'), obj({ start: str({ format: 'date' }) }, ['start'])] }),
  }),
  VendorRoi: record({
    period: ref('FunnelPeriod'),
    vendors: array(
      record({
        vendorId: str(),
        vendorName: str(),
        type: oneOfValues(['inquiry', 'application']),
        costPerLead: nullable(num({ minimum: 0 })),
        submitted: int({ minimum: 0 }),
        accepted: int({ minimum: 0 }),
        conversions: int({ minimum: 0 }),
        spend: nullable(num({ minimum: 0 })),
        costPerSubmission: nullable(num({ minimum: 0 })),
        costPerConversion: nullable(num({ minimum: 0 })),
      }),
    ),
    totals: record({
      spend: num({ minimum: 0 }),
      accepted: int({ minimum: 0 }),
      conversions: int({ minimum: 0 }),
      costPerConversion: nullable(num({ minimum: 0 })),
    }),
  }),
  // Webhooks (docs/webhooks.md).
  WebhookStats: record({
    total_deliveries: int({ minimum: 0 }),
    successful_deliveries: int({ minimum: 0 }),
    failed_deliveries: int({ minimum: 0 }),
    last_30_days: int({ minimum: 0 }),
  }),
  Webhook: record({
    id: str(),
    url: str(),
    events: array(str()),
    enabled: bool(),
    description: nullableText,
    sandbox: bool(),
    secret: str({
      pattern: '^whsec_…[A-Za-z0-9_-]{0,4}$',
      description:
        'Masked: `whsec_…` and the last 4 characters. The full secret is shown only in the answer to POST /api/webhooks.',
    }),
    ...timestamps,
    last_triggered_at: nullable(dateTime()),
    disabled_at: nullable(dateTime()),
    disabled_reason: nullableText,
    stats: ref('WebhookStats'),
  }),
  WebhookCreated: record({
    id: str(),
    url: str(),
    events: array(str()),
    enabled: bool(),
    secret: str({ pattern: '^whsec_', description: 'The signing secret: shown in full only in this answer.' }),
    created_at: dateTime(),
  }),
  WebhookUpdated: record({ id: str(), url: str(), events: array(str()), enabled: bool(), updated_at: dateTime() }),
  WebhookTestResult: {
    oneOf: [
      record({
        success: { const: true },
        delivered: { const: true },
        response_status: int(),
        response_time_ms: int({ minimum: 0 }),
        test_event_id: str(),
      }),
      record({
        success: { const: false },
        delivered: { const: false },
        error: str(),
        response_status: { type: 'null' },
        response_time_ms: int({ minimum: 0 }),
      }),
    ],
  },
  WebhookDelivery: record({
    id: str(),
    event_id: str(),
    event_type: str(),
    status: oneOfValues(['pending', 'retrying', 'delivered', 'failed']),
    response_status: nullable(int()),
    response_time_ms: nullable(int({ minimum: 0 })),
    attempts: int({ minimum: 0 }),
    delivered_at: nullable(dateTime()),
    last_attempt_at: nullable(dateTime()),
    next_retry_at: nullable(dateTime()),
    error: nullableText,
    created_at: dateTime(),
  }),
  WebhookResend: record({ id: str(), event_id: str(), resend_id: str() }),
};
