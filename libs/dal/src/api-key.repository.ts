/**
 * API keys (docs/api-conventions.md "Authentication"). Only the SHA-256 hash of a key is stored;
 * the full key leaves this repository once, in the result of `create` or `rotate`. Every method
 * takes the tenant context except `findByHash`: authentication has only the secret to go on.
 *
 * Finding a key by its hash through an index is not a timing oracle: an attacker controls the
 * key, not its hash, so learning how much of a hash matched tells nothing about a valid key.
 */
import {
  type ApiKey,
  type ApiKeyPermission,
  DomainError,
  generateApiKey,
  hashApiKey,
  keyPreview,
  newApiKeyId,
  ROTATED_KEY_OVERLAP_MS,
  type TenantContext,
} from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';
import { COLLECTIONS, toDocument, toRecord, type Stored } from './collections';

export interface CreateApiKeyInput {
  vendorId: string;
  name: string;
  permissions: ApiKeyPermission[];
  ipRestrictions?: string[];
  /** Requests per minute replacing the route's default, or null for the default. */
  rateLimit?: number | null;
}

/** The full key is in `key`; show it once and forget it. */
export interface IssuedApiKey {
  apiKey: ApiKey;
  key: string;
}

/** `last_used_at` is written at most once per this interval per key, to keep requests read-only. */
export const LAST_USED_RESOLUTION_MS = 60_000;

type ApiKeyDocument = Stored<ApiKey>;

export class ApiKeyRepository {
  private readonly collection: Collection<ApiKeyDocument>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<ApiKeyDocument>(COLLECTIONS.apiKeys);
  }

  /** The key's environment is the tenant's: a sandbox tenant gets a vk_test_ key. */
  async create(tenant: TenantContext, input: CreateApiKeyInput, now = new Date()): Promise<IssuedApiKey> {
    const key = generateApiKey(tenant.environment);
    const apiKey: ApiKey = {
      id: newApiKeyId(),
      organization_id: tenant.organizationId,
      vendor_id: input.vendorId,
      environment: tenant.environment,
      name: input.name,
      key_hash: hashApiKey(key),
      key_preview: keyPreview(key),
      permissions: [...input.permissions],
      ip_restrictions: [...(input.ipRestrictions ?? [])],
      rate_limit: input.rateLimit ?? null,
      enabled: true,
      revoked_at: null,
      expires_at: null,
      created_at: now,
      last_used_at: null,
    };
    await this.collection.insertOne(toDocument(apiKey));
    return { apiKey, key };
  }

  /** Authentication's lookup: by the hash of the presented key, in any tenant. */
  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const doc = await this.collection.findOne({ key_hash: keyHash });
    return doc ? toRecord<ApiKey>(doc) : null;
  }

  async findById(tenant: TenantContext, id: string): Promise<ApiKey | null> {
    const doc = await this.collection.findOne(this.scope(tenant, id));
    return doc ? toRecord<ApiKey>(doc) : null;
  }

  /** The tenant's keys, newest first (GET /api-keys). */
  async list(tenant: TenantContext): Promise<ApiKey[]> {
    const docs = await this.collection.find(
      { organization_id: tenant.organizationId, environment: tenant.environment },
      { sort: { created_at: -1 } },
    );
    return docs.map((doc) => toRecord<ApiKey>(doc));
  }

  /**
   * Records use of a key, at most once a minute: the in-memory check skips the write on busy
   * keys, and the filter keeps concurrent requests from all writing. Returns whether it wrote.
   * A store failure is thrown, never swallowed here: apiKeyAuth logs it and lets the request go on.
   */
  async touchLastUsed(
    tenant: TenantContext,
    apiKey: Pick<ApiKey, 'id' | 'last_used_at'>,
    now = new Date(),
  ): Promise<boolean> {
    const cutoff = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    if (apiKey.last_used_at !== null && apiKey.last_used_at > cutoff) return false;
    const result = await this.collection.updateOne(
      { ...this.scope(tenant, apiKey.id), $or: [{ last_used_at: null }, { last_used_at: { $lte: cutoff } }] },
      { $set: { last_used_at: now } },
    );
    return result.modifiedCount === 1;
  }

  /** DELETE /api-keys/:id. Returns the revoked key, or null when the tenant has no such key. */
  async revoke(tenant: TenantContext, id: string, now = new Date()): Promise<ApiKey | null> {
    const existing = await this.findById(tenant, id);
    if (!existing) return null;
    if (existing.revoked_at !== null) return existing; // revoking twice changes nothing
    const doc = await this.collection.findOneAndUpdate(this.scope(tenant, id), { $set: { revoked_at: now } });
    return doc ? toRecord<ApiKey>(doc) : null;
  }

  /**
   * POST /api-keys/:id/rotate: a new key with the same vendor, name, permissions, restrictions
   * and limit; the old key keeps working for 24 hours. The new key is stored before
   * the old one gets its expiry, so a crash in between leaves two valid keys, never none.
   */
  async rotate(
    tenant: TenantContext,
    id: string,
    now = new Date(),
  ): Promise<(IssuedApiKey & { previous: ApiKey }) | null> {
    const old = await this.findById(tenant, id);
    if (!old) return null;
    if (old.revoked_at !== null) throw new DomainError('VALIDATION_ERROR', 'A revoked API key cannot be rotated');
    const issued = await this.create(
      tenant,
      {
        vendorId: old.vendor_id,
        name: old.name,
        permissions: old.permissions,
        ipRestrictions: old.ip_restrictions,
        rateLimit: old.rate_limit,
      },
      now,
    );
    // A key rotated twice keeps its earlier expiry: rotation never extends an old key's life.
    const overlapEnd = new Date(now.getTime() + ROTATED_KEY_OVERLAP_MS);
    const expiresAt = old.expires_at !== null && old.expires_at < overlapEnd ? old.expires_at : overlapEnd;
    const doc = await this.collection.findOneAndUpdate(this.scope(tenant, id), { $set: { expires_at: expiresAt } });
    return { ...issued, previous: doc ? toRecord<ApiKey>(doc) : { ...old, expires_at: expiresAt } };
  }

  /** PATCH /api-keys/:id: name, enabled, permissions, ip_restrictions. Null when the tenant has no such key. */
  async update(
    tenant: TenantContext,
    id: string,
    patch: Partial<Pick<ApiKey, 'name' | 'enabled' | 'permissions' | 'ip_restrictions'>>,
  ): Promise<ApiKey | null> {
    const doc = await this.collection.findOneAndUpdate(this.scope(tenant, id), {
      $set: { ...(patch as Record<string, never>) },
    });
    return doc ? toRecord<ApiKey>(doc) : null;
  }

  /** Revokes every key of an organization, both environments (vendor or organization deleted). */
  async revokeAll(organizationId: string, filter: { vendorId?: string } = {}, now = new Date()): Promise<number> {
    const result = await this.collection.updateMany(
      { organization_id: organizationId, revoked_at: null, ...(filter.vendorId ? { vendor_id: filter.vendorId } : {}) },
      { $set: { revoked_at: now } },
    );
    return result.modifiedCount;
  }

  private scope(tenant: TenantContext, id: string) {
    return { _id: id, organization_id: tenant.organizationId, environment: tenant.environment };
  }
}
