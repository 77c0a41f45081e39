import { resolveScope, isCandidateEligible, windowStart } from './candidate-query';
import type { DedupAction, DedupConfig } from './dedup-config';
import { comparesAcrossTypes, effectiveConfig } from './dedup-config';
import type { DedupIncomingLead, DedupLead } from './dedup.types';
import type { BestMatch, FieldMatch } from './score-candidates';
import { findBestMatch } from './score-candidates';
import { compareField } from './similarity';

/** A deduplication log entry (`dedupLog`). Written for every decision, duplicate or not. */
export interface DedupLogEntry {
  timestamp: string;
  incoming_lead: { id: string | null; email: string | null; first_name: string | null; last_name: string | null };
  /** The matched original; null when the lead is not a duplicate. */
  matched_lead_id: string | null;
  /** Field scores against the best candidate (also when it stayed below the threshold); {} without one. */
  match_fields: Record<string, FieldMatch>;
  /** Score of the best candidate; null when there was none or dedup is disabled. */
  final_score: number | null;
  threshold: number;
  /** `none`: not a duplicate, the lead goes on as a new lead. */
  action_taken: DedupAction | 'none';
  reason: string;
}

/** `match_details` of `POST /dedup/check-duplicate`: 0-100 per field, null when not comparable. */
export interface DedupMatchDetails {
  email: number | null;
  name: number | null;
}

export type DedupDecision =
  | { duplicate: false; log: DedupLogEntry }
  | {
      duplicate: true;
      /** What the caller must do: reject (409), merge, link-to-existing, flag, allow. */
      action: DedupAction;
      matchedLeadId: string;
      similarityScore: number;
      matchedFields: string[];
      matchFields: Record<string, FieldMatch>;
      matchDetails: DedupMatchDetails;
      log: DedupLogEntry;
    };

export interface DecideDuplicateInput {
  incoming: DedupIncomingLead;
  /** Leads found by buildCandidateQuery; window, scope and self are re-checked here as a guard. */
  candidates: readonly DedupLead[];
  config: DedupConfig;
  vendorId: string | null | undefined;
  now: Date;
}

/**
 * Decides whether the incoming lead duplicates one of the candidates. A duplicate is a best match
 * whose final score is >= the threshold (equal counts). Vendor overrides of window, threshold and
 * action apply. With `enabled: false` nothing is ever a duplicate.
 */
export function decideDuplicate(input: DecideDuplicateInput): DedupDecision {
  const config = effectiveConfig(input.config, input.vendorId);
  const { incoming } = input;
  const log = (
    fields: Pick<DedupLogEntry, 'matched_lead_id' | 'match_fields' | 'final_score' | 'action_taken' | 'reason'>,
  ): DedupLogEntry => ({
    timestamp: input.now.toISOString(),
    incoming_lead: {
      id: incoming.id ?? null,
      email: incoming.email ?? null,
      first_name: incoming.first_name ?? null,
      last_name: incoming.last_name ?? null,
    },
    threshold: config.threshold,
    ...fields,
  });

  if (!config.enabled) {
    return {
      duplicate: false,
      log: log({
        matched_lead_id: null,
        match_fields: {},
        final_score: null,
        action_taken: 'none',
        reason: 'Deduplication is disabled; the lead was not checked.',
      }),
    };
  }

  const start = windowStart(config.window_hours, input.now);
  const acrossTypes = comparesAcrossTypes(input.config, input.vendorId);
  const eligible = input.candidates.filter(
    (candidate) =>
      isCandidateEligible(candidate, {
        created_after: start === null ? null : start.toISOString(),
        ...resolveScope(config.scope, input.vendorId, incoming.vendor_group),
        exclude_lead_id: incoming.id ?? null,
      }) &&
      (acrossTypes || sameVendorType(incoming.vendor_type, candidate.vendor_type)),
  );
  const best = findBestMatch(incoming, eligible, config);
  const windowText = config.window_hours === null ? 'at any time' : `in the last ${config.window_hours} hour(s)`;

  if (best === null) {
    return {
      duplicate: false,
      log: log({
        matched_lead_id: null,
        match_fields: {},
        final_score: null,
        action_taken: 'none',
        reason: `No lead sharing an email, phone or name key was received ${windowText}; accepted as a new lead.`,
      }),
    };
  }

  if (best.comparable_fields === 0 || best.score < config.threshold) {
    return {
      duplicate: false,
      log: log({
        matched_lead_id: null,
        match_fields: best.match_fields,
        final_score: best.score,
        action_taken: 'none',
        reason: `Closest lead ${best.candidate.id} scored ${best.score}, below the threshold of ${config.threshold} (${config.combination}); accepted as a new lead.`,
      }),
    };
  }

  return {
    duplicate: true,
    action: config.action,
    matchedLeadId: best.candidate.id,
    similarityScore: best.score,
    matchedFields: best.matched_fields,
    matchFields: best.match_fields,
    matchDetails: matchDetails(incoming, best, config),
    log: log({
      matched_lead_id: best.candidate.id,
      match_fields: best.match_fields,
      final_score: best.score,
      action_taken: config.action,
      reason: `Duplicate of ${best.candidate.id}: score ${best.score} >= threshold ${config.threshold} (${config.combination}${
        best.matched_fields.length > 0 ? `; matched on ${best.matched_fields.join(', ')}` : ''
      }); action ${config.action}.`,
    }),
  };
}

/** Email and name scores for check-duplicate: the configured algorithm when the field is matched on, else email_normalized / jaro_winkler. */
function matchDetails(incoming: DedupIncomingLead, best: BestMatch, config: DedupConfig): DedupMatchDetails {
  const configured = (field: 'email' | 'name') => config.match_fields.some((f) => f.field === field);
  const email = configured('email')
    ? (best.match_fields.email?.score ?? null)
    : compareField(incoming, best.candidate, 'email', 'email_normalized');
  const name = configured('name')
    ? (best.match_fields.name?.score ?? null)
    : compareField(incoming, best.candidate, 'name', 'jaro_winkler');
  return { email, name };
}

/** Body of `POST /dedup/check-duplicate` (`checkDuplicate`). */
export type CheckDuplicateResult =
  | { is_duplicate: false }
  | { is_duplicate: true; matched_lead_id: string; similarity_score: number; match_details: DedupMatchDetails };

export function toCheckDuplicateResult(decision: DedupDecision): CheckDuplicateResult {
  if (!decision.duplicate) return { is_duplicate: false };
  return {
    is_duplicate: true,
    matched_lead_id: decision.matchedLeadId,
    similarity_score: decision.similarityScore,
    match_details: decision.matchDetails,
  };
}

/**
 * The data of the ingestion 409 (`ingestLead`); libs/http adds
 * `success:false, error:'Duplicate lead detected'`.
 */
export interface DuplicateConflict {
  duplicate_of: string;
  similarity_score: number;
  matched_fields: string[];
}

export function toDuplicateConflict(decision: Extract<DedupDecision, { duplicate: true }>): DuplicateConflict {
  return {
    duplicate_of: decision.matchedLeadId,
    similarity_score: decision.similarityScore,
    matched_fields: decision.matchedFields,
  };
}

/**
 * Leads of an application vendor are compared with applications, those of an inquiry vendor with
 * inquiries (docs/decisions.md, "Deduplication and vendor types"). A side whose type is unknown (no
 * vendor, a deleted vendor) is compared with everything, as before types counted.
 */
function sameVendorType(incoming: string | null | undefined, candidate: string | null | undefined): boolean {
  if (!incoming || !candidate) return true;
  return incoming === candidate;
}
