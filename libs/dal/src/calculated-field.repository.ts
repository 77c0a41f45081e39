/** Calculated field definitions (docs/formula-language.md): name unique in the organization. */
import type { CalculatedFieldSettings } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { OrganizationConfigRepository } from './organization-config.repository';

export const CALCULATED_FIELDS_COLLECTION = 'calculated_fields';

export class CalculatedFieldRepository extends OrganizationConfigRepository<CalculatedFieldSettings> {
  constructor(store: DocumentStore) {
    super(store, CALCULATED_FIELDS_COLLECTION, { name: 1 }, 'name');
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await OrganizationConfigRepository.ensureConfigIndexes(store, CALCULATED_FIELDS_COLLECTION, 'name');
  }
}
