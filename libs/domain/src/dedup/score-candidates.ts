import type { DedupAlgorithm, DedupConfig } from './dedup-config';
import type { DedupIncomingLead, DedupLead } from './dedup.types';
import { compareField, roundDedupScore } from './similarity';

/** One entry of the log's `match_fields{<field>:{score,method}}` (`dedupLog`); `score: null` = not comparable. */
export interface FieldMatch {
  score: number | null;
  method: DedupAlgorithm;
}

export interface CandidateScore {
  /** 0-100, rounded to 2 decimals; 0 when no field was comparable. */
  score: number;
  match_fields: Record<string, FieldMatch>;
  /** Comparable fields whose own score reached the threshold (the 409 body's matched_fields). */
  matched_fields: string[];
  /** How many configured fields had a value on both sides. */
  comparable_fields: number;
}

/**
 * Scores one candidate against the incoming lead.
 * - `or`: the best comparable field; `and`: the worst comparable field (so "all fields >= threshold"
 *   is the same as "score >= threshold"); `weighted`: Σ weight × score over comparable fields divided
 *   by the sum of their weights, i.e. the weight of a not-comparable field is spread proportionally.
 * - With no comparable field the score is 0: nothing to go on is not a duplicate.
 */
export function scoreCandidate(incoming: DedupIncomingLead, candidate: DedupLead, config: DedupConfig): CandidateScore {
  const match_fields: Record<string, FieldMatch> = {};
  const comparable: Array<{ field: string; score: number; weight: number }> = [];
  for (const { field, algorithm, weight } of config.match_fields) {
    const score = compareField(incoming, candidate, field, algorithm);
    match_fields[field] = { score, method: algorithm };
    if (score !== null) comparable.push({ field, score, weight: weight ?? 0 });
  }

  let score = 0;
  if (comparable.length > 0) {
    const scores = comparable.map((c) => c.score);
    if (config.combination === 'or') score = Math.max(...scores);
    else if (config.combination === 'and') score = Math.min(...scores);
    else {
      const totalWeight = comparable.reduce((acc, c) => acc + c.weight, 0);
      score = totalWeight > 0 ? comparable.reduce((acc, c) => acc + c.weight * c.score, 0) / totalWeight : 0;
    }
  }

  return {
    score: roundDedupScore(score),
    match_fields,
    matched_fields: comparable.filter((c) => c.score >= config.threshold).map((c) => c.field),
    comparable_fields: comparable.length,
  };
}

export interface BestMatch extends CandidateScore {
  candidate: DedupLead;
}

/**
 * The highest-scoring candidate, or null when there are none. Ties go to the oldest candidate
 * (`created_at`, then id), the original lead that later duplicates point at. Whether the best match
 * reaches the threshold is the caller's question (see decideDuplicate).
 */
export function findBestMatch(
  incoming: DedupIncomingLead,
  candidates: readonly DedupLead[],
  config: DedupConfig,
): BestMatch | null {
  let best: BestMatch | null = null;
  for (const candidate of candidates) {
    const scored: BestMatch = { candidate, ...scoreCandidate(incoming, candidate, config) };
    if (
      best === null ||
      scored.score > best.score ||
      (scored.score === best.score && isOlder(candidate, best.candidate))
    ) {
      best = scored;
    }
  }
  return best;
}

function isOlder(a: DedupLead, b: DedupLead): boolean {
  const ta = Date.parse(a.created_at);
  const tb = Date.parse(b.created_at);
  if (ta !== tb) return ta < tb;
  return a.id < b.id;
}
