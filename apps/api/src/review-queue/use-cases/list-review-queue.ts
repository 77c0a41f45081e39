/** GET /api/review-queue: the leads waiting for a decision, with each flag in words (docs/review-queue.md). */
import {
  DomainError,
  isReviewOverdue,
  REVIEW_FLAG_KINDS,
  reviewReasonsOf,
  type ErrorDetail,
  type LeadReview,
  type ReviewFlagKind,
  type TenantContext,
} from '@leadstream/domain';
import type { ReviewQueueRepository } from '../review-queue.repository';

export interface ListReviewQueueDeps {
  queue: Pick<ReviewQueueRepository, 'list' | 'getSettings'>;
  clock: () => Date;
}

const isDate = (value: string): boolean => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));

function text(query: Record<string, unknown>, key: string): string | undefined {
  const value = query[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export async function listReviewQueue(
  deps: ListReviewQueueDeps,
  input: { tenant: TenantContext; query: Record<string, unknown> },
): Promise<{ data: Record<string, unknown>[]; meta: Record<string, unknown> }> {
  const { query } = input;
  const details: ErrorDetail[] = [];
  const known = ['page', 'limit', 'flag', 'vendor_id', 'start_date', 'end_date', 'sortOrder'];
  for (const [key, value] of Object.entries(query))
    if (!known.includes(key)) details.push({ field: key, message: `${key} is not a known parameter` });
    else if (Array.isArray(value)) details.push({ field: key, message: `${key} must be given once` });
  const page = Number(text(query, 'page') ?? 1);
  const limit = Number(text(query, 'limit') ?? 20);
  if (!Number.isInteger(page) || page < 1)
    details.push({ field: 'page', message: 'page must be a whole number, 1 or more' });
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    details.push({ field: 'limit', message: 'limit must be a whole number from 1 to 100' });
  const flag = text(query, 'flag');
  if (flag && !(REVIEW_FLAG_KINDS as readonly string[]).includes(flag))
    details.push({ field: 'flag', message: `flag must be one of ${REVIEW_FLAG_KINDS.join(', ')}` });
  const order = text(query, 'sortOrder') ?? 'asc';
  if (order !== 'asc' && order !== 'desc')
    details.push({ field: 'sortOrder', message: 'sortOrder must be asc or desc' });
  const from = text(query, 'start_date');
  const before = text(query, 'end_date');
  for (const [field, value] of [
    ['start_date', from],
    ['end_date', before],
  ] as const)
    if (value !== undefined && !isDate(value))
      details.push({ field, message: `${field} must be an ISO 8601 date or date-time` });
  if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Invalid query parameters', details);
  const [result, settings] = await Promise.all([
    deps.queue.list(
      input.tenant,
      {
        ...(flag ? { kind: flag as ReviewFlagKind } : {}),
        ...(text(query, 'vendor_id') ? { vendorId: text(query, 'vendor_id')! } : {}),
        ...(from ? { receivedFrom: new Date(from).toISOString() } : {}),
        ...(before ? { receivedBefore: new Date(before).toISOString() } : {}),
      },
      { page, limit, order: order as 'asc' | 'desc' },
    ),
    deps.queue.getSettings(input.tenant),
  ]);
  const now = deps.clock();
  let overdue = 0;
  const data = result.leads.map((lead) => {
    const review = lead['review'] as LeadReview | undefined;
    const heldAt = review?.held_at ?? lead.submitted_at;
    const late = isReviewOverdue(heldAt, settings, now);
    if (late) overdue++;
    return {
      lead_id: lead._id,
      email: lead.email ?? null,
      first_name: lead.first_name ?? null,
      last_name: lead.last_name ?? null,
      vendor_id: lead.vendor_id ?? null,
      received_at: lead.submitted_at,
      held_at: heldAt,
      waiting_seconds: Math.max(0, Math.round((now.getTime() - Date.parse(heldAt)) / 1000)),
      overdue: late,
      flags: review?.kinds ?? [],
      reasons: reviewReasonsOf(lead),
    };
  });
  return {
    data,
    meta: {
      page,
      limit,
      total: result.total,
      totalPages: Math.ceil(result.total / limit),
      counts: result.counts,
      overdue_on_page: overdue,
      review_sla_hours: settings.review_sla_hours,
    },
  };
}
