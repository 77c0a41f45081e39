/**
 * Everything the enrich stage and POST /api/enrichment/test need of an organization, read at
 * once: rules, lookup tables, calculated fields, custom field types. Stages keep it in the
 * ConfigCache until the organization's configuration changes.
 */
import type { EnrichmentConfig } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { CalculatedFieldRepository } from './calculated-field.repository';
import { CustomFieldRepository } from './custom-field.repository';
import { EnrichmentRuleRepository } from './enrichment-rule.repository';
import { LookupTableRepository } from './lookup-table.repository';

export class EnrichmentConfigReader {
  private readonly rules: EnrichmentRuleRepository;
  private readonly lookupTables: LookupTableRepository;
  private readonly calculatedFields: CalculatedFieldRepository;
  private readonly customFields: CustomFieldRepository;

  constructor(store: DocumentStore) {
    this.rules = new EnrichmentRuleRepository(store);
    this.lookupTables = new LookupTableRepository(store);
    this.calculatedFields = new CalculatedFieldRepository(store);
    this.customFields = new CustomFieldRepository(store);
  }

  async read(organizationId: string): Promise<EnrichmentConfig> {
    const [rules, lookupTables, calculatedFields, customFields] = await Promise.all([
      this.rules.list(organizationId),
      this.lookupTables.list(organizationId),
      this.calculatedFields.list(organizationId),
      this.customFields.list(organizationId),
    ]);
    return {
      rules,
      lookupTables,
      calculatedFields,
      customFieldTypes: new Map(customFields.map((field) => [field.name, field.type])),
    };
  }
}
