/**
 * OAuth clients (docs/decisions.md "OAuth 2.0") registered by an organization. A confidential
 * client's secret leaves this repository once, in the result of `create`; only its SHA-256 hash is
 * stored. Every method takes the tenant except `findByClientId`: the authorize and token endpoints
 * have only the client_id to go on.
 */
import {
  generateOAuthSecret,
  hashOAuthSecret,
  newOAuthClientId,
  type OAuthClientRequest,
  type TenantContext,
} from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';

export const OAUTH_CLIENTS_COLLECTION = 'oauth_clients';

export interface OAuthClient {
  /** The client_id, `oac_…`. */
  id: string;
  organization_id: string;
  name: string;
  redirect_uris: string[];
  public: boolean;
  /** SHA-256 of the client secret; null for public clients. */
  secret_hash: string | null;
  created_by: string;
  created_at: Date;
}

interface OAuthClientDocument extends Omit<OAuthClient, 'id'> {
  _id: string;
}

const toClient = ({ _id, ...rest }: OAuthClientDocument): OAuthClient => ({ id: _id, ...rest });

export class OAuthClientRepository {
  private readonly collection: Collection<OAuthClientDocument>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<OAuthClientDocument>(OAUTH_CLIENTS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(OAUTH_CLIENTS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, created_at: -1 }, name: 'organization_created' });
  }

  /** `clientSecret` is set for confidential clients only: show it once and forget it. */
  async create(
    tenant: TenantContext,
    input: OAuthClientRequest,
    createdBy: string,
    now = new Date(),
  ): Promise<{ client: OAuthClient; clientSecret: string | null }> {
    const clientSecret = input.public ? null : generateOAuthSecret('client_secret');
    const client: OAuthClient = {
      id: newOAuthClientId(),
      organization_id: tenant.organizationId,
      name: input.name,
      redirect_uris: [...input.redirect_uris],
      public: input.public,
      secret_hash: clientSecret ? hashOAuthSecret(clientSecret) : null,
      created_by: createdBy,
      created_at: now,
    };
    const { id, ...rest } = client;
    await this.collection.insertOne({ _id: id, ...rest });
    return { client, clientSecret };
  }

  async list(tenant: TenantContext): Promise<OAuthClient[]> {
    return (await this.collection.find({ organization_id: tenant.organizationId }, { sort: { created_at: -1 } })).map(
      toClient,
    );
  }

  async findById(tenant: TenantContext, id: string): Promise<OAuthClient | null> {
    const doc = await this.collection.findOne({ _id: id, organization_id: tenant.organizationId });
    return doc ? toClient(doc) : null;
  }

  /** The authorize and token endpoints' lookup, in any organization. */
  async findByClientId(clientId: string): Promise<OAuthClient | null> {
    const doc = await this.collection.findOne({ _id: clientId });
    return doc ? toClient(doc) : null;
  }

  async delete(tenant: TenantContext, id: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: id, organization_id: tenant.organizationId })) > 0;
  }
}
