/**
 * The configuration records an organization keeps in one collection each (enrichment rules,
 * lookup tables, calculated fields, validation rules): listed, found, created, changed and
 * deleted by id within the organization, shown with `id` instead of `_id` and without the
 * organization. One class so the four repositories share one tested behaviour.
 *
 * Settings that hold free-form JSON (a lookup table's mappings, a rule's conditions and actions) are
 * stored as JSON text in `<field>_json`: a MongoDB-protocol server refuses keys with '.' or a
 * leading '$' and lists directly inside lists, and a lookup key like "St. Louis" or a webhook
 * payload key like "lead.email" is ordinary. Records written before keep the field itself and
 * are read as they are.
 */
import {
  DuplicateKeyError,
  type Collection,
  type DocumentStore,
  type DocValue,
  type SortSpec,
} from '@leadstream/ports';

/** What every such record stores besides its own settings. */
export interface OrganizationConfigMeta {
  _id: string;
  organization_id: string;
  created_at: string;
  updated_at: string;
}

/** The record as the API shows it: `id`, the settings, the timestamps. */
export type ConfigResource<Settings> = Settings & { id: string; created_at: string; updated_at: string };

/** A unique index (e.g. a name) was hit: the route answers 400 on that field. */
export class ConfigNameTakenError extends Error {
  constructor(
    readonly collection: string,
    readonly value: string,
  ) {
    super(`${collection}: ${value} exists already`);
    this.name = 'ConfigNameTakenError';
  }
}

export class OrganizationConfigRepository<Settings extends object> {
  protected readonly records: Collection<OrganizationConfigMeta & Settings>;

  constructor(
    store: DocumentStore,
    readonly collectionName: string,
    private readonly order: SortSpec,
    /** The settings field a unique index covers (e.g. `name`), for the error a route shows. */
    private readonly uniqueField?: keyof Settings & string,
    /** Settings fields holding free-form JSON, stored as text (see above). */
    private readonly jsonFields: ReadonlyArray<keyof Settings & string> = [],
  ) {
    this.records = store.collection<OrganizationConfigMeta & Settings>(collectionName);
  }

  /** The organization's index, plus a unique one on `uniqueField` when there is one. */
  static async ensureConfigIndexes(store: DocumentStore, collectionName: string, uniqueField?: string): Promise<void> {
    const collection = store.collection(collectionName);
    await collection.createIndex({ keys: { organization_id: 1, created_at: 1 }, name: 'organization_created_at' });
    if (uniqueField)
      await collection.createIndex({
        keys: { organization_id: 1, [uniqueField]: 1 },
        name: `organization_${uniqueField}_unique`,
        unique: true,
      });
  }

  async list(organizationId: string): Promise<Array<ConfigResource<Settings>>> {
    return (await this.records.find({ organization_id: organizationId }, { sort: this.order })).map((doc) =>
      this.toResource(doc),
    );
  }

  /** How many the organization has (plan limits). */
  async count(organizationId: string): Promise<number> {
    return this.records.countDocuments({ organization_id: organizationId });
  }

  async find(organizationId: string, id: string): Promise<ConfigResource<Settings> | null> {
    const doc = await this.records.findOne({ _id: id, organization_id: organizationId });
    return doc ? this.toResource(doc) : null;
  }

  async create(organizationId: string, id: string, settings: Settings, at: string): Promise<ConfigResource<Settings>> {
    const doc = {
      ...this.stored(settings),
      _id: id,
      organization_id: organizationId,
      created_at: at,
      updated_at: at,
    } as OrganizationConfigMeta & Settings;
    try {
      await this.records.insertOne(doc);
    } catch (error) {
      throw this.nameTaken(error, settings);
    }
    return this.toResource(doc);
  }

  /** Several records at once (an import): all or, on a unique-index clash, an error naming the value. */
  async createMany(
    organizationId: string,
    records: Array<{ id: string; settings: Settings }>,
    at: string,
  ): Promise<Array<ConfigResource<Settings>>> {
    const docs = records.map(
      ({ id, settings }) =>
        ({
          ...this.stored(settings),
          _id: id,
          organization_id: organizationId,
          created_at: at,
          updated_at: at,
        }) as OrganizationConfigMeta & Settings,
    );
    if (docs.length === 0) return [];
    await this.records.insertMany(docs);
    return docs.map((doc) => this.toResource(doc));
  }

  /** Replaces the given settings; null when the organization has no such record. */
  async update(
    organizationId: string,
    id: string,
    settings: Partial<Settings>,
    at: string,
  ): Promise<ConfigResource<Settings> | null> {
    let doc: (OrganizationConfigMeta & Settings) | null;
    try {
      // A record written before JSON text loses the field form when the field is replaced.
      const replaced = this.jsonFields.filter((field) => field in settings);
      const update = {
        $set: { ...(this.stored(settings) as Record<string, DocValue>), updated_at: at },
        ...(replaced.length > 0 ? { $unset: Object.fromEntries(replaced.map((field) => [field, 1 as const])) } : {}),
      };
      doc = await this.records.findOneAndUpdate({ _id: id, organization_id: organizationId }, update);
    } catch (error) {
      throw this.nameTaken(error, settings);
    }
    return doc ? this.toResource(doc) : null;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.records.deleteOne({ _id: id, organization_id: organizationId })) === 1;
  }

  private nameTaken(error: unknown, settings: Partial<Settings>): unknown {
    if (error instanceof DuplicateKeyError && error.index !== '_id_' && this.uniqueField) {
      return new ConfigNameTakenError(this.collectionName, String(settings[this.uniqueField]));
    }
    return error;
  }

  /** The settings as stored: each JSON field as text in `<field>_json`. */
  private stored(settings: Partial<Settings>): Record<string, unknown> {
    const stored: Record<string, unknown> = { ...settings };
    for (const field of this.jsonFields) {
      if (!(field in stored)) continue;
      stored[`${field}_json`] = JSON.stringify(stored[field]);
      delete stored[field];
    }
    return stored;
  }

  private toResource(doc: OrganizationConfigMeta & Settings): ConfigResource<Settings> {
    const { _id, organization_id: _organization, ...rest } = doc as unknown as Record<string, unknown>;
    for (const field of this.jsonFields) {
      const text = rest[`${field}_json`];
      if (typeof text === 'string') rest[field] = JSON.parse(text) as unknown;
      delete rest[`${field}_json`];
    }
    return { id: _id, ...rest } as unknown as ConfigResource<Settings>;
  }
}
