/**
 * Compiled JSON Schemas. Values are checked at the edges (routes, consumers) with these; inside,
 * the code trusts the types.
 */
import { customFieldsLimitProblems, describeDetail, parseEmail } from '@leadstream/domain';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import leadEventSchema from './messages/lead-event.schema.json' with { type: 'json' };
import eventPayloadsSchema from './messages/event-payloads.schema.json' with { type: 'json' };
import leadBatchSchema from './requests/lead-batch.schema.json' with { type: 'json' };
import leadSubmissionSchema from './requests/lead-submission.schema.json' with { type: 'json' };
import leadCommandSchema from './messages/lead-command.schema.json' with { type: 'json' };
import leadDecisionSchema from './messages/lead-decision.schema.json' with { type: 'json' };
import leadRoutedSchema from './messages/lead-routed.schema.json' with { type: 'json' };
import exportRequestSchema from './messages/export-request.schema.json' with { type: 'json' };
import configChangedSchema from './messages/config-changed.schema.json' with { type: 'json' };
import enrichmentRulesExportSchema from './requests/enrichment-rules-export.schema.json' with { type: 'json' };

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);

export const LEAD_EVENT_NAMES = leadEventSchema.properties.event.enum;
export type LeadEventName = (typeof LEAD_EVENT_NAMES)[number];

/** A domain event as it travels on `leads.events`. */
export interface LeadEventMessage {
  schema_version: 1;
  id: string;
  event: LeadEventName;
  timestamp: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  data: Record<string, unknown>;
}

export class SchemaError extends Error {
  readonly code = 'SCHEMA_INVALID' as const;
  constructor(
    readonly schema: string,
    readonly errors: ErrorObject[],
  ) {
    super(`${schema}: ${ajv.errorsText(errors)}`);
    this.name = 'SchemaError';
  }
}

function checker<T>(name: string, validate: ValidateFunction): (value: unknown) => T {
  return (value) => {
    if (!validate(value)) throw new SchemaError(name, validate.errors ?? []);
    return value as T;
  };
}

export const parseLeadEvent = checker<LeadEventMessage>('lead-event', ajv.compile(leadEventSchema));

/**
 * The events of one `leads.events` record, in order. A record holds one event envelope, or a JSON
 * array of the envelopes one batch produced for one lead (docs/api-conventions.md "Events"): a
 * lead's chained batch writes one record, not one per event. Throws SchemaError (or the JSON
 * parser's SyntaxError) when any of them is not an event: the record is poison as a whole.
 */
export function parseLeadEvents(value: string): LeadEventMessage[] {
  return leadEventItems(value).map((item) => parseLeadEvent(item));
}

/**
 * The items of one `leads.events` record, not yet checked: a single envelope becomes a list of one.
 * For readers that check an event their own way; parseLeadEvents checks each against the schema.
 * Throws SchemaError for an empty array (and the JSON parser's SyntaxError for a value not JSON).
 */
export function leadEventItems(value: string): unknown[] {
  const parsed: unknown = JSON.parse(value);
  if (!Array.isArray(parsed)) return [parsed];
  if (parsed.length === 0)
    throw new SchemaError('lead-event', [
      {
        instancePath: '',
        schemaPath: '#/type',
        keyword: 'minItems',
        params: { limit: 1 },
        message: 'an event record holds at least one event',
      },
    ]);
  return parsed;
}

/** The value of a `leads.events` record carrying `values` (serialized envelopes of one lead, in order). */
export function leadEventsRecordValue(values: readonly string[]): string {
  if (values.length === 1) return values[0]!;
  // A value that is already a record of several events is spliced in, not nested.
  const items = values.map((value) => (value.trimStart().startsWith('[') ? value.trim().slice(1, -1) : value));
  return `[${items.join(',')}]`;
}

ajv.addSchema(eventPayloadsSchema);

/**
 * What is wrong with an event's `data` for its event name (event-payloads.schema.json), as
 * messages; empty when it matches. Every event name of lead-event.schema.json has a definition.
 */
export function eventPayloadProblems(message: Pick<LeadEventMessage, 'event' | 'data'>): string[] {
  const validate = ajv.getSchema(`${eventPayloadsSchema.$id}#/$defs/${message.event}`);
  if (!validate) return [`no payload schema for ${message.event}`];
  return validate(message.data)
    ? []
    : (validate.errors ?? []).map((error) => `${message.event}${error.instancePath} ${error.message ?? 'is invalid'}`);
}

/** A pipeline message about one lead (leads.submitted and the stage topics after it). */
export interface LeadCommandMessage {
  schema_version: 1;
  message_id: string;
  correlation_id: string;
  lead_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  vendor_id: string;
  submitted_at: string;
  /** Only on leads.submitted: the submission as the vendor sent it (schema-checked). */
  submission?: Record<string, unknown>;
  /**
   * The organization's configuration version the producer knew (ConfigCache.version); a stage
   * passes it to ConfigCache.get as minVersion, so it never decides with older configuration.
   */
  config_version?: number;
  /** Only on leads.enriched from the review queue: the decision on a lead held for review (docs/review-queue.md). */
  review?: { decision: 'approve' | 'reject'; reviewer: string; reason?: string | null; automatic?: boolean };
}

export type DecisionOutcome = 'accepted' | 'invalid' | 'rejected' | 'duplicate' | 'merged';

export interface LeadDecisionMessage {
  schema_version: 1;
  correlation_id: string;
  lead_id: string;
  outcome: DecisionOutcome;
  decided_at: string;
  email?: string;
  details?: Array<{ field: string; message: string }>;
  reason?: string;
  rule_id?: string;
  message?: string;
  duplicate_of?: string;
  similarity_score?: number;
  matched_fields?: string[];
  warnings?: Array<{ field: string; message: string }>;
  flags?: string[];
}

export const parseLeadCommand = checker<LeadCommandMessage>('lead-command', ajv.compile(leadCommandSchema));
export const parseLeadDecision = checker<LeadDecisionMessage>('lead-decision', ajv.compile(leadDecisionSchema));

/** Where a lead goes (the route stage's decision); one CRM connection, with the owner and queue its rule named. */
export interface LeadRouteTarget {
  connection_id: string;
  owner: string | null;
  queue: string | null;
}

/**
 * A routed lead on leads.routed (keyed by lead id): the lead command plus its route. Produced for
 * live leads only; crm-sync syncs the lead to each target (lead-routed.schema.json says more).
 */
export interface LeadRoutedMessage extends Omit<LeadCommandMessage, 'submission'> {
  route: {
    /** The routing rule that matched; null for the default route and the all-connections fallback. */
    rule_id: string | null;
    reason: 'rule' | 'default' | 'all_connections' | 'none';
    targets: LeadRouteTarget[];
    routed_at: string;
  };
}

export const parseLeadRouted = checker<LeadRoutedMessage>('lead-routed', ajv.compile(leadRoutedSchema));

/** A command on exports.requests: generate the stored export (keyed by export id). */
export interface ExportRequestMessage {
  schema_version: 1;
  message_id: string;
  export_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  requested_at: string;
}

export const parseExportRequestMessage = checker<ExportRequestMessage>(
  'export-request',
  ajv.compile(exportRequestSchema),
);

/** A change of an organization's configuration, on config.changed (keyed by organization id). */
export interface ConfigChangedMessage {
  schema_version: 1;
  organization_id: string;
  /** The organization's configuration version after the change (config_versions in the store). */
  version: number;
  /** What changed, for logs: `api_keys`, `vendors`, `custom_fields`, `dedup`, `settings`... */
  what: string;
  changed_at: string;
}

export const parseConfigChanged = checker<ConfigChangedMessage>('config-changed', ajv.compile(configChangedSchema));

import { bodyProblems, type BodyProblem } from './api/body-problems';

export type { BodyProblem } from './api/body-problems';

function bodyChecker(validate: ValidateFunction): (value: unknown) => BodyProblem[] {
  return (value) => (validate(value) ? [] : bodyProblems(validate.errors ?? []));
}

const checkLeadSubmissionSchema = bodyChecker(ajv.compile(leadSubmissionSchema));

/**
 * Problems of a lead submission body (empty when valid): the schema's, then how deep and how large
 * its custom_fields are, which JSON Schema cannot bound (docs/decisions.md "Request bodies at the
 * edge").
 */
export function checkLeadSubmission(value: unknown): BodyProblem[] {
  const customFields =
    typeof value === 'object' && value !== null ? (value as { custom_fields?: unknown }).custom_fields : undefined;
  const problems = [...checkLeadSubmissionSchema(value), ...customFieldsLimitProblems(customFields)];
  return problems.length > 0 ? [...problems, ...emailSyntaxProblems(value, problems)] : problems;
}

/**
 * When the edge refuses a body anyway, its 400 also names a malformed email, so one answer lists
 * every invalid field. A body whose only problem is the email's syntax passes the edge: the
 * validate stage stores it as an `invalid_email` lead, which vendor reports count
 * (`vendorDailyStats`).
 */
function emailSyntaxProblems(value: unknown, problems: BodyProblem[]): BodyProblem[] {
  const email = typeof value === 'object' && value !== null ? (value as { email?: unknown }).email : undefined;
  if (typeof email !== 'string' || problems.some((problem) => problem.field === 'email')) return [];
  const parsed = parseEmail(email);
  return parsed.ok ? [] : [describeDetail({ field: 'email', message: parsed.message })];
}
/** Problems of a batch body's envelope; items are checked one by one with checkLeadSubmission. */
export const checkLeadBatch = bodyChecker(ajv.compile(leadBatchSchema));

/** The exported enrichment rules document (its structure; every rule is checked again by the domain on import). */
export const parseEnrichmentRulesDocument = checker<Record<string, unknown>>(
  'enrichment-rules-export',
  ajv.compile(enrichmentRulesExportSchema),
);

/** The HTTP API: its operations, the OpenAPI 3.1 document built from them, and the answer checker. */
export { operations, type Operation, type Auth, type Convention } from './api/operations';
export {
  buildOpenApiDocument,
  findOperation,
  requestProblems,
  responseProblems,
  errorStatuses,
  openApiPath,
} from './api/openapi';
