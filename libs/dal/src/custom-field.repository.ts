import type { CustomFieldDefinition, CustomFieldSettings } from '@leadstream/domain';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@leadstream/ports';

export const CUSTOM_FIELDS_COLLECTION = 'custom_fields';

export interface CustomFieldDocument extends CustomFieldDefinition {
  _id: string;
  organization_id: string;
  created_at: string;
  /** Fields of the API's custom field resource, absent on definitions stored before the custom-field endpoints existed. */
  label?: string;
  updated_at?: string;
}

/** A definition as the API shows it (`CustomField` in the OpenAPI document). */
export interface CustomField extends CustomFieldSettings {
  id: string;
  created_at: string;
  updated_at: string;
}

export class CustomFieldNameTakenError extends Error {
  constructor(readonly fieldName: string) {
    super(`custom field ${fieldName} already exists`);
    this.name = 'CustomFieldNameTakenError';
  }
}

/**
 * Custom field definitions of an organization. Ingestion reads them (`list`) to check
 * `custom_fields`; the user API manages them. Names are unique per organization (unique index).
 */
export class CustomFieldRepository {
  private readonly fields: Collection<CustomFieldDocument>;

  constructor(store: DocumentStore) {
    this.fields = store.collection<CustomFieldDocument>(CUSTOM_FIELDS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(CUSTOM_FIELDS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, name: 1 }, name: 'organization_name_unique', unique: true });
  }

  async list(organizationId: string): Promise<CustomFieldDefinition[]> {
    return this.fields.find({ organization_id: organizationId }, { sort: { name: 1 } });
  }

  async create(definition: CustomFieldDocument): Promise<void> {
    try {
      await this.fields.insertOne(definition);
    } catch (error) {
      if (error instanceof DuplicateKeyError && error.index !== '_id_')
        throw new CustomFieldNameTakenError(definition.name);
      throw error;
    }
  }

  async listFields(organizationId: string): Promise<CustomField[]> {
    return (await this.fields.find({ organization_id: organizationId }, { sort: { name: 1 } })).map(toCustomField);
  }

  async find(organizationId: string, id: string): Promise<CustomField | null> {
    const doc = await this.fields.findOne({ _id: id, organization_id: organizationId });
    return doc ? toCustomField(doc) : null;
  }

  /** Replaces the editable settings; null when the organization has no such field. */
  async update(
    organizationId: string,
    id: string,
    settings: CustomFieldSettings,
    at: string,
  ): Promise<CustomField | null> {
    const doc = await this.fields.findOneAndUpdate(
      { _id: id, organization_id: organizationId },
      {
        $set: {
          label: settings.label,
          required: settings.required,
          default_value: settings.default_value as never,
          validation: settings.validation as never,
          updated_at: at,
        },
      },
    );
    return doc ? toCustomField(doc) : null;
  }

  /** Whether the organization had the field. Values stored on leads stay. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.fields.deleteOne({ _id: id, organization_id: organizationId })) === 1;
  }
}

function toCustomField(doc: CustomFieldDocument): CustomField {
  return {
    id: doc._id,
    name: doc.name,
    label: doc.label ?? doc.name,
    type: doc.type,
    required: doc.required,
    default_value: doc.default_value ?? null,
    validation: doc.validation ?? null,
    created_at: doc.created_at,
    updated_at: doc.updated_at ?? doc.created_at,
  };
}
