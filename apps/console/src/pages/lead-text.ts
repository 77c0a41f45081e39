/**
 * A lead's statuses as sentences, for its page: why a stage will never run for it (a duplicate, a
 * refused lead, the sandbox, nowhere to send it), its validation, and its flags, warnings and
 * review flags, which the API keeps as codes and objects. The route's words are in routing-text.ts.
 */
import type { Schemas } from '@leadstream/client';

type Lead = Schemas['Lead'];

/** Why a stage ends without running: each reads "<Not synced|Not routed|Skipped>: <why>". */
export type StageEnd =
  | { kind: 'duplicate'; of: string }
  | { kind: 'rejected' }
  | { kind: 'sandbox' }
  | { kind: 'no_destination' }
  | { kind: 'other' };

/** A lead the pipeline stopped at validation or deduplication: no enrichment, route nor CRM sync. */
function stopped(lead: Lead): StageEnd | null {
  if (lead.duplicate_of && (lead.status === 'duplicate' || lead.crm_sync_status === 'not_applicable') && !lead.routing)
    return { kind: 'duplicate', of: lead.duplicate_of };
  if (lead.validation_status === 'failed' || (lead.status === 'rejected' && !lead.routing)) return { kind: 'rejected' };
  return null;
}

/** Why a lead is not synced to a CRM (crm_sync_status not_applicable), or null when it is or may be. */
export function whyNotSynced(lead: Lead, sandbox: boolean): StageEnd | null {
  if (lead.crm_sync_status !== 'not_applicable') return null;
  if (sandbox) return { kind: 'sandbox' };
  const end = stopped(lead);
  if (end) return end;
  if (lead.routing && lead.routing.targets.length === 0) return { kind: 'no_destination' };
  return { kind: 'other' };
}

/** Why a lead has no route, or null when it is still to be routed. */
export function whyNotRouted(lead: Lead): StageEnd | null {
  return lead.routing ? null : stopped(lead);
}

/** Why the enrichment rules never ran on a lead, or null. */
export function whyNotEnriched(lead: Lead): StageEnd | null {
  return stopped(lead);
}

/** The words after "<Not synced>: " for a stage end without a link (a duplicate's link is rendered by the page). */
export function stageEndText(end: Exclude<StageEnd, { kind: 'duplicate' }>): string {
  switch (end.kind) {
    case 'rejected':
      return 'the lead was rejected';
    case 'sandbox':
      return 'sandbox leads are never sent to a CRM';
    case 'no_destination':
      return 'no CRM destination';
    case 'other':
      return 'nothing to send it to';
  }
}

export function validationText(status: string): string {
  switch (status) {
    case 'passed':
      return 'Passed';
    case 'flagged':
      return 'Flagged for review (see below)';
    case 'failed':
      return 'Failed: the lead was rejected';
    case 'pending':
      return 'Not checked yet';
    default:
      return status;
  }
}

const FIELD_NAMES: Record<string, string> = {
  email: 'Email',
  phone: 'Phone',
  ip_address: 'IP address',
  first_name: 'First name',
  last_name: 'Last name',
  utm_source: 'UTM source',
};

function fieldName(field: string): string {
  const known = FIELD_NAMES[field];
  if (known) return known;
  const words = field.replace(/^custom_fields\./, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The flags validation sets (docs/api-conventions.md, flags); manual_review is what the others add up to, said only alone. */
const FLAG_TEXT: Record<string, string> = {
  email_typo: 'The email address may be mistyped.',
  possible_bot: 'The form may have been filled in by a bot (sent too fast after it was opened).',
  high_risk_ip: 'It was sent from a high-risk IP address.',
  possible_duplicate: 'It may be a duplicate of another lead.',
};

interface Warning {
  field: string;
  message: string;
}

function isWarning(value: unknown): value is Warning {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Warning).field === 'string' &&
    typeof (value as Warning).message === 'string'
  );
}

/** A review flag as a sentence: a rule's flag action, or a rule that could not be evaluated (its name and error). */
export function reviewFlagText(flag: Record<string, unknown>): string {
  const severity = typeof flag['severity'] === 'string' ? ` (${flag['severity']} severity)` : '';
  if (typeof flag['error'] === 'string') {
    const rule =
      typeof flag['rule_name'] === 'string'
        ? `Rule “${flag['rule_name']}”`
        : `Rule ${typeof flag['rule_id'] === 'string' ? flag['rule_id'] : ''}`;
    return `${rule} could not be evaluated: ${flag['error']}${severity}.`;
  }
  const reason = typeof flag['reason'] === 'string' ? flag['reason'] : 'Flagged by a rule';
  return `${reason.charAt(0).toUpperCase()}${reason.slice(1).replace(/[.!]$/, '')}${severity}.`;
}

/**
 * What to review on a lead, one sentence each: the warnings and flags of its validation (from the
 * lead.validated activity entry), then the review flags of its rules.
 */
export function reviewSentences(
  validated: Record<string, unknown> | undefined,
  reviewFlags: ReadonlyArray<Record<string, unknown>>,
): string[] {
  const warnings = Array.isArray(validated?.['warnings']) ? (validated['warnings'] as unknown[]).filter(isWarning) : [];
  const flags = Array.isArray(validated?.['flags'])
    ? (validated['flags'] as unknown[]).filter((flag): flag is string => typeof flag === 'string')
    : [];
  const flagTexts = flags.map((flag) => FLAG_TEXT[flag]).filter((text): text is string => text !== undefined);
  if (flagTexts.length === 0 && flags.includes('manual_review') && reviewFlags.length === 0)
    flagTexts.push('It is marked for manual review.');
  return [
    ...warnings.map((warning) => `${fieldName(warning.field)}: ${warning.message}`),
    ...flagTexts,
    ...reviewFlags.map(reviewFlagText),
  ];
}
