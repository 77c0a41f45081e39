/** GET and PUT /api/review-queue/settings: the organization's review SLA and automatic decision (docs/review-queue.md). */
import {
  DomainError,
  REVIEW_DECISIONS,
  type ErrorDetail,
  type ReviewDecision,
  type ReviewSettings,
} from '@leadstream/domain';

const MAX_HOURS = 24 * 365;

function hours(body: Record<string, unknown>, key: string, details: ErrorDetail[]): number | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_HOURS) {
    details.push({ field: key, message: `${key} must be a number of hours above 0 and at most ${MAX_HOURS}, or null` });
    return null;
  }
  return value;
}

export function parseReviewSettings(body: unknown): ReviewSettings {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError('VALIDATION_ERROR', 'Invalid request', [
      { field: '(body)', message: 'body must be a JSON object' },
    ]);
  const input = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(input))
    if (!['review_sla_hours', 'auto_decision_after_hours', 'auto_decision'].includes(key))
      details.push({ field: key, message: `${key} is not a known field` });
  const sla = hours(input, 'review_sla_hours', details);
  const after = hours(input, 'auto_decision_after_hours', details);
  const decision = input['auto_decision'] ?? null;
  if (decision !== null && !(REVIEW_DECISIONS as readonly unknown[]).includes(decision))
    details.push({ field: 'auto_decision', message: 'auto_decision must be approve, reject or null' });
  if ((after === null) !== (decision === null) && details.length === 0)
    details.push({ field: 'auto_decision', message: 'give auto_decision_after_hours and auto_decision together' });
  if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Invalid request', details);
  return { review_sla_hours: sla, auto_decision_after_hours: after, auto_decision: decision as ReviewDecision | null };
}
