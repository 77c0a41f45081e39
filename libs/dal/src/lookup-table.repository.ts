/** Lookup tables (docs/enrichment-rules.md): name (unique in the organization), description, mappings. */
import type { LookupTableSettings } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { OrganizationConfigRepository } from './organization-config.repository';

export const LOOKUP_TABLES_COLLECTION = 'lookup_tables';

export class LookupTableRepository extends OrganizationConfigRepository<LookupTableSettings> {
  constructor(store: DocumentStore) {
    super(store, LOOKUP_TABLES_COLLECTION, { name: 1 }, 'name', ['mappings']);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await OrganizationConfigRepository.ensureConfigIndexes(store, LOOKUP_TABLES_COLLECTION, 'name');
  }

  /** The organization's tables by name, as rules and formulas read them. */
  async byName(organizationId: string): Promise<Map<string, Record<string, string>>> {
    return new Map((await this.list(organizationId)).map((table) => [table.name, table.mappings]));
  }
}
