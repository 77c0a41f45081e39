/**
 * CRM connections of one tenant (docs/crm.md). Credentials arrive here already encrypted
 * (libs/runtime CredentialsCipher) and settings as a JSON string, so neither free-form CRM field
 * names nor secrets ever become document keys or clear text in the store.
 */
import type { CrmConnectionRecord, TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';

export const CRM_CONNECTIONS_COLLECTION = 'crm_connections';

export class CrmConnectionRepository {
  static readonly COLLECTION = CRM_CONNECTIONS_COLLECTION;
  private readonly connections: Collection<CrmConnectionRecord>;

  constructor(store: DocumentStore) {
    this.connections = store.collection<CrmConnectionRecord>(CRM_CONNECTIONS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(CRM_CONNECTIONS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, environment: 1, created_at: 1 }, name: 'tenant_created_at' });
  }

  private static filter(tenant: TenantContext): { organization_id: string; environment: string } {
    return { organization_id: tenant.organizationId, environment: tenant.environment };
  }

  async insert(record: CrmConnectionRecord): Promise<void> {
    await this.connections.insertOne(record);
  }

  async list(tenant: TenantContext): Promise<CrmConnectionRecord[]> {
    return this.connections.find(CrmConnectionRepository.filter(tenant), { sort: { created_at: 1 }, limit: 1000 });
  }

  /** Ids of the enabled connections, oldest first (the route stage's all-connections fallback). */
  async enabledIds(tenant: TenantContext): Promise<string[]> {
    return (await this.list(tenant)).filter((connection) => connection.enabled).map((connection) => connection._id);
  }

  async findById(tenant: TenantContext, id: string): Promise<CrmConnectionRecord | null> {
    return this.connections.findOne({ _id: id, ...CrmConnectionRepository.filter(tenant) });
  }

  async findManyById(tenant: TenantContext, ids: string[]): Promise<CrmConnectionRecord[]> {
    if (ids.length === 0) return [];
    return this.connections.find({ _id: { $in: ids }, ...CrmConnectionRepository.filter(tenant) });
  }

  /**
   * Sets these fields of the connection if it is still as read (`readUpdatedAt`); null when it
   * changed meanwhile, was deleted, or is not the tenant's.
   */
  async update(
    tenant: TenantContext,
    id: string,
    readUpdatedAt: string,
    set: Partial<
      Pick<CrmConnectionRecord, 'name' | 'enabled' | 'settings_json' | 'credentials_encrypted' | 'credential_fields'>
    > & { updated_at: string },
  ): Promise<CrmConnectionRecord | null> {
    return this.connections.findOneAndUpdate(
      { _id: id, ...CrmConnectionRepository.filter(tenant), updated_at: readUpdatedAt },
      { $set: set },
      { returnDocument: 'after' },
    );
  }

  /**
   * Replaces the credentials' ciphertext if it is still `readCiphertext` (a rotated Salesforce
   * refresh token, libs/runtime StoredRefreshTokens); false when they changed meanwhile (another
   * process rotated them, or a PATCH stored new ones), or the connection is gone. `updated_at`
   * stays: the connection's settings and version are not changed.
   */
  async replaceCredentials(
    tenant: TenantContext,
    id: string,
    readCiphertext: string,
    ciphertext: string,
  ): Promise<boolean> {
    const updated = await this.connections.findOneAndUpdate(
      { _id: id, ...CrmConnectionRepository.filter(tenant), credentials_encrypted: readCiphertext },
      { $set: { credentials_encrypted: ciphertext } },
      { returnDocument: 'after' },
    );
    return updated !== null;
  }

  async delete(tenant: TenantContext, id: string): Promise<boolean> {
    return (await this.connections.deleteOne({ _id: id, ...CrmConnectionRepository.filter(tenant) })) === 1;
  }
}
