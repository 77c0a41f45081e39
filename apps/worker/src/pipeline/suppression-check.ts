/**
 * Suppression lists in the intake (docs/suppression-lists.md), decided by the validate stage after
 * the validation rules and before dedup: the batch's prefetch reads each organization's lists (from
 * the configuration cache) and looks every email, phone and email-domain hash of the batch up in
 * one query; `suppressionVerdict` turns an accepted verdict into the matching list's action:
 * `reject` → rejected with reason `suppressed` and the list's id as rule id, `flag` → accepted for
 * manual review with a review flag naming the list.
 */
import type { SuppressionRepository } from '@leadstream/dal';
import {
  leadSuppressionKeys,
  suppressionMatch,
  suppressionReviewFlag,
  type LeadSuppressionKeys,
  type SuppressionHit,
  type SuppressionList,
  type ValidationVerdict,
} from '@leadstream/domain';
import type { LeadCommandMessage } from '@leadstream/schemas';
import type { ConfigSource } from '../batch/config-source';

export type SuppressionLookup = Pick<SuppressionRepository, 'list' | 'findHits'>;

/** What one batch knows: each organization's lists and every entry of the batch's hashes. */
export interface SuppressionBatch {
  lists: Map<string, SuppressionList[]>;
  hits: SuppressionHit[];
}

function keysOf(message: Pick<LeadCommandMessage, 'submission'>): LeadSuppressionKeys {
  return leadSuppressionKeys(message.submission ?? {});
}

export async function prefetchSuppression(
  lookup: SuppressionLookup,
  config: ConfigSource,
  messages: readonly LeadCommandMessage[],
  versions: Map<string, number | undefined>,
): Promise<SuppressionBatch> {
  const lists = new Map<string, SuppressionList[]>();
  await Promise.all(
    [...new Set(messages.map((message) => message.organization_id))].map(async (organizationId) => {
      lists.set(
        organizationId,
        await config.get(
          organizationId,
          'suppression-lists',
          () => lookup.list(organizationId),
          versions.get(organizationId),
        ),
      );
    }),
  );
  const listIds = new Set<string>();
  const hashes = new Set<string>();
  for (const message of messages) {
    const active = (lists.get(message.organization_id) ?? []).filter(
      (list) => list.enabled && (!list.sandbox_only || message.environment === 'sandbox'),
    );
    if (active.length === 0) continue;
    const keys = keysOf(message);
    for (const list of active) {
      const key = keys[list.kind];
      if (!key) continue;
      listIds.add(list.id);
      hashes.add(key);
    }
  }
  return { lists, hits: await lookup.findHits([...listIds], [...hashes]) };
}

/** The verdict after the organization's suppression lists: unchanged unless an accepted lead is on one. */
export function suppressionVerdict(
  verdict: ValidationVerdict,
  message: LeadCommandMessage,
  batch: SuppressionBatch | undefined,
  now: Date,
): ValidationVerdict {
  if (verdict.outcome !== 'accepted' || !batch) return verdict;
  const lists = batch.lists.get(message.organization_id) ?? [];
  if (lists.length === 0) return verdict;
  const list = suppressionMatch(lists, keysOf(message), batch.hits, message.environment, now);
  if (!list) return verdict;
  if (list.action === 'reject') {
    return {
      outcome: 'rejected',
      reason: 'suppressed',
      ruleId: list.id,
      message: `The lead is on suppression list "${list.name}"`,
    };
  }
  return {
    ...verdict,
    flags: verdict.flags.includes('manual_review') ? verdict.flags : [...verdict.flags, 'manual_review'],
    reviewFlags: [...(verdict.reviewFlags ?? []), suppressionReviewFlag(list)],
  };
}
