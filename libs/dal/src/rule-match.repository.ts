/**
 * Which lead each enrichment rule matched (the `stats` of GET /api/enrichment/rules/:id). One
 * document per (lead, rule), written by the enrich stage with the lead's state as an upsert keyed
 * by both ids, so a redelivered batch counts nothing twice.
 */
import type { BaseDocument, BulkWriteOperation, DocumentStore } from '@leadstream/ports';

export const RULE_MATCHES_COLLECTION = 'rule_matches';

export interface RuleMatchDocument {
  _id: string;
  organization_id: string;
  rule_id: string;
  lead_id: string;
  matched_at: string;
}

export interface RuleStats {
  total_matches: number;
  last_30_days: number;
}

const DAY_MS = 86_400_000;

export class RuleMatchRepository {
  static readonly COLLECTION = RULE_MATCHES_COLLECTION;

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(RULE_MATCHES_COLLECTION)
      .createIndex({ keys: { organization_id: 1, rule_id: 1, matched_at: 1 }, name: 'organization_rule_matched_at' });
  }

  /** The match as a bulk operation of the stage's write. */
  static recordOperation(match: Omit<RuleMatchDocument, '_id'>): BulkWriteOperation<BaseDocument> {
    const { organization_id, rule_id, lead_id, matched_at } = match;
    return {
      updateOne: {
        filter: { _id: `${lead_id}:${rule_id}`, organization_id },
        update: { $setOnInsert: { rule_id, lead_id, matched_at } },
        upsert: true,
      },
    };
  }

  constructor(private readonly store: DocumentStore) {}

  async stats(organizationId: string, ruleId: string, now: Date): Promise<RuleStats> {
    const matches = this.store.collection<RuleMatchDocument>(RULE_MATCHES_COLLECTION);
    const since = new Date(now.getTime() - 30 * DAY_MS).toISOString();
    const [total, recent] = await Promise.all([
      matches.countDocuments({ organization_id: organizationId, rule_id: ruleId }),
      matches.countDocuments({ organization_id: organizationId, rule_id: ruleId, matched_at: { $gte: since } }),
    ]);
    return { total_matches: total, last_30_days: recent };
  }
}
