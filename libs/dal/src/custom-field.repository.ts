import type { CustomFieldDefinition } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';

export const CUSTOM_FIELDS_COLLECTION = 'custom_fields';

export interface CustomFieldDocument extends CustomFieldDefinition {
  _id: string;
  organization_id: string;
  created_at: string;
}

/**
 * Custom field definitions of an organization (spec 2.8). Minimal here: ingestion reads them to
 * check `custom_fields`; the endpoints to manage them come with the leads issue.
 */
export class CustomFieldRepository {
  private readonly fields: Collection<CustomFieldDocument>;

  constructor(store: DocumentStore) {
    this.fields = store.collection<CustomFieldDocument>(CUSTOM_FIELDS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store.collection(CUSTOM_FIELDS_COLLECTION).createIndex({ keys: { organization_id: 1, name: 1 }, name: 'organization_name_unique', unique: true });
  }

  async list(organizationId: string): Promise<CustomFieldDefinition[]> {
    return this.fields.find({ organization_id: organizationId }, { sort: { name: 1 } });
  }

  async create(definition: CustomFieldDocument): Promise<void> {
    await this.fields.insertOne(definition);
  }
}
