/**
 * Enrichment rules (docs/enrichment-rules.md), one document per rule, listed in the order they run
 * (ascending priority, then creation). Match counts for `stats` live in RuleMatchRepository.
 */
import type { EnrichmentRuleSettings } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { OrganizationConfigRepository } from './organization-config.repository';

export const ENRICHMENT_RULES_COLLECTION = 'enrichment_rules';

export class EnrichmentRuleRepository extends OrganizationConfigRepository<EnrichmentRuleSettings> {
  constructor(store: DocumentStore) {
    super(store, ENRICHMENT_RULES_COLLECTION, { priority: 1, created_at: 1, _id: 1 }, undefined, [
      'conditions',
      'actions',
    ]);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await OrganizationConfigRepository.ensureConfigIndexes(store, ENRICHMENT_RULES_COLLECTION);
  }

  /** Sets the priorities given; returns the ids the organization does not have (nothing is changed then). */
  async reorder(
    organizationId: string,
    order: ReadonlyArray<{ id: string; priority: number }>,
    at: string,
  ): Promise<string[]> {
    const known = new Set((await this.list(organizationId)).map((rule) => rule.id));
    const unknown = order.filter((entry) => !known.has(entry.id)).map((entry) => entry.id);
    if (unknown.length > 0) return unknown;
    await this.records.bulkWrite(
      order.map((entry) => ({
        updateOne: {
          filter: { _id: entry.id, organization_id: organizationId },
          update: { $set: { priority: entry.priority, updated_at: at } },
        },
      })),
    );
    return [];
  }
}
