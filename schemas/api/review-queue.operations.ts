/** The review queue's operations (docs/review-queue.md), joined into the operation table by operations.ts. */
import type { Operation } from './operations';
import {
  type JsonSchema,
  array,
  body,
  bool,
  data,
  int,
  nullable,
  num,
  obj,
  oneOfValues,
  ref,
  str,
  trimmedText,
} from './json-schema';

const FLAG_KINDS = ['possible_bot', 'email_typo', 'high_risk_ip', 'possible_duplicate', 'rule'] as const;
const DECISIONS = ['approve', 'reject'] as const;
const TAG = 'Review queue';
/** A query enum that also takes the empty value (the default), as every route reads it. */
const orDefault = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values, ''] });
const reason = trimmedText(1, 1_000);
const leadIds = array(str({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 });

const reviewItem = obj(
  {
    lead_id: str(),
    email: nullable(str()),
    first_name: nullable(str()),
    last_name: nullable(str()),
    vendor_id: nullable(str()),
    received_at: str({ format: 'date-time' }),
    held_at: str({ format: 'date-time' }),
    waiting_seconds: int({ minimum: 0 }),
    overdue: bool(),
    flags: array(oneOfValues(FLAG_KINDS)),
    reasons: array(
      obj(
        {
          kind: oneOfValues(FLAG_KINDS),
          text: str(),
          lead_id: str(),
          score: num(),
        },
        ['kind', 'text'],
      ),
    ),
  },
  ['lead_id', 'received_at', 'held_at', 'waiting_seconds', 'overdue', 'flags', 'reasons'],
);

/**
 * The review settings of an organization (docs/review-queue.md "Settings"): part of its settings,
 * shown by GET and changed by PATCH /api/organization (`auto_decision` is required once
 * `auto_decision_after_hours` is set).
 */
export const reviewSettingsSchemas = {
  review_sla_hours: {
    ...nullable(num({ exclusiveMinimum: 0, maximum: 8_760 })),
    description:
      'Hours a lead may wait in the review queue before it is marked overdue (and counted in /metrics); null: no SLA.',
  },
  auto_decision_after_hours: {
    ...nullable(num({ exclusiveMinimum: 0, maximum: 8_760 })),
    description:
      'Hours after which a scheduled job decides a waiting lead with `auto_decision`, recorded as "automatic"; null: never.',
  },
  auto_decision: {
    ...nullable(oneOfValues(DECISIONS)),
    description: 'The automatic decision; required when auto_decision_after_hours is set.',
  },
};

const decided = obj(
  { lead_id: str(), decision: oneOfValues(DECISIONS), reviewer: str(), reason: nullable(str()), status: str() },
  ['lead_id', 'decision', 'reviewer', 'status'],
);

const DECIDE_DESCRIPTION =
  "Answered 202: the decision is handed to the pipeline, which applies it within moments. Approve: the lead goes on where it stopped (routing, CRM sync, webhooks, analytics). Reject: the lead becomes `rejected` with the reason and `lead.rejected` is sent. Both emit `lead.reviewed` and appear in the lead's activity with who decided. A lead not waiting for review is 409 `LEAD_NOT_IN_REVIEW`.";

export const reviewQueueOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/review-queue',
    operationId: 'listReviewQueue',
    tag: TAG,
    summary: 'Leads flagged for manual review and waiting for a decision, oldest first',
    description:
      "Each lead comes with its flags and each flag in words. `meta.counts` has the waiting leads per flag kind (under the other filters); a lead waiting longer than the organization's `review_sla_hours` is `overdue`.",
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    query: [
      { name: 'page', in: 'query', schema: int({ minimum: 1, default: 1 }) },
      { name: 'limit', in: 'query', schema: int({ minimum: 1, maximum: 100, default: 20 }) },
      { name: 'flag', in: 'query', schema: orDefault(FLAG_KINDS), description: 'Only leads with this kind of flag' },
      { name: 'vendor_id', in: 'query', schema: str() },
      { name: 'start_date', in: 'query', schema: str({ description: 'Received at or after (ISO 8601)' }) },
      { name: 'end_date', in: 'query', schema: str({ description: 'Received before (ISO 8601)' }) },
      {
        name: 'sortOrder',
        in: 'query',
        schema: orDefault(['asc', 'desc']),
        description: 'By age: asc (oldest first, the default) or desc',
      },
    ],
    responses: {
      200: obj(
        {
          data: array(reviewItem),
          meta: obj(
            {
              page: int(),
              limit: int(),
              total: int(),
              totalPages: int(),
              counts: obj(Object.fromEntries(FLAG_KINDS.map((kind) => [kind, int()])), [...FLAG_KINDS]),
              overdue_on_page: int(),
              review_sla_hours: nullable(num()),
            },
            ['page', 'limit', 'total', 'totalPages', 'counts'],
          ),
        },
        ['data', 'meta'],
      ),
    },
    errors: [400],
    semanticChecks: 'that start_date and end_date are ISO 8601 dates or date-times',
  },
  {
    method: 'post',
    path: '/api/review-queue/decide',
    operationId: 'decideReviews',
    tag: TAG,
    summary: 'Approve or reject up to 100 waiting leads',
    description: `${DECIDE_DESCRIPTION} Each id reports its own outcome, like the bulk operations on leads.`,
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    requestBody: body({ lead_ids: leadIds, decision: oneOfValues(DECISIONS), reason: nullable(reason) }, [
      'lead_ids',
      'decision',
    ]),
    semanticChecks: 'that a rejection has a reason',
    responses: {
      202: obj({ success: bool(), decided: int(), failed: int(), results: array(ref('BulkResult')) }, [
        'success',
        'decided',
        'failed',
        'results',
      ]),
    },
    errors: [400],
  },
  {
    method: 'post',
    path: '/api/review-queue/:lead_id/approve',
    operationId: 'approveReview',
    tag: TAG,
    summary: 'Approve a lead waiting for review',
    description: DECIDE_DESCRIPTION,
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    requestBody: body({ reason: nullable(reason) }),
    responses: { 202: data(decided) },
    errors: [400, 404, 409],
  },
  {
    method: 'post',
    path: '/api/review-queue/:lead_id/reject',
    operationId: 'rejectReview',
    tag: TAG,
    summary: 'Reject a lead waiting for review, with the reason',
    description: DECIDE_DESCRIPTION,
    auth: 'session',
    convention: 'user',
    permission: 'leads:write',
    requestBody: body({ reason }, ['reason']),
    responses: { 202: data(decided) },
    errors: [400, 404, 409],
  },
];
