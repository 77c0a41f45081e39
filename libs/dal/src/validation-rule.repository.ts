/** Custom validation rules (docs/validation-rules.md), listed in the order they run (ascending priority, then creation). */
import type { ValidationRuleSettings } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { OrganizationConfigRepository } from './organization-config.repository';

export const VALIDATION_RULES_COLLECTION = 'validation_rules';

export class ValidationRuleRepository extends OrganizationConfigRepository<ValidationRuleSettings> {
  constructor(store: DocumentStore) {
    super(store, VALIDATION_RULES_COLLECTION, { priority: 1, created_at: 1, _id: 1 }, undefined, ['value']);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await OrganizationConfigRepository.ensureConfigIndexes(store, VALIDATION_RULES_COLLECTION);
  }
}
