/**
 * The configuration the api reads on its hot path, served from the ConfigCache (docs/decisions.md
 * "Configuration freshness and the api's hot path"): API keys by hash, vendors, the organization
 * (its settings) and custom fields. At steady state an authenticated ingestion request reads
 * nothing from the store; a change made through this process (which calls `configCache.changed`) is
 * seen by the very next request, one made elsewhere as soon as its config.changed reaches this
 * process.
 *
 * Kinds are prefixed `api.` so they cannot collide with what pipeline stages cache in a process
 * that runs both.
 *
 * What it remembers per key (the organization of a hash, its last `last_used_at` write) is held
 * for at most `maxApiKeys` keys, the least recently used forgotten first: a forgotten hash is
 * read as on first sight, a forgotten write is tried again (at most once a minute per key).
 */
import {
  type ApiKeyRepository,
  type CustomFieldRepository,
  LAST_USED_RESOLUTION_MS,
  type Organization,
  type OrganizationRepository,
  type Vendor,
  type VendorRepository,
} from '@leadstream/dal';
import type { ApiKey, TenantContext } from '@leadstream/domain';
import { type ConfigCache, LruMap } from '@leadstream/runtime';

export interface CachedConfigSources {
  apiKeys: Pick<ApiKeyRepository, 'findByHash' | 'touchLastUsed'>;
  vendors: Pick<VendorRepository, 'findById'>;
  organizations: Pick<OrganizationRepository, 'get'>;
  customFields?: Pick<CustomFieldRepository, 'list'>;
}

type CustomFieldList = Awaited<ReturnType<CustomFieldRepository['list']>>;

/** Keys remembered at once by default: each costs a hash and an id (about 200 bytes). */
export const DEFAULT_CACHED_API_KEYS = 100_000;

export interface CachedConfigOptions {
  /** Keys whose organization and last write are remembered at once (default DEFAULT_CACHED_API_KEYS). */
  maxApiKeys?: number;
}

export class CachedConfig {
  /**
   * The organization of each key hash seen: a key never moves, and the cache is per organization.
   * Unknown hashes are not remembered (a well-formed guess costs a store read, as before).
   */
  private readonly organizationOfHash: LruMap<string, string>;
  /** When this process last wrote `last_used_at` of a key (cached keys keep the value they were loaded with). */
  private readonly lastUsedWrites: LruMap<string, Date>;

  constructor(
    readonly cache: ConfigCache,
    private readonly sources: CachedConfigSources,
    options: CachedConfigOptions = {},
  ) {
    const maxApiKeys = options.maxApiKeys ?? DEFAULT_CACHED_API_KEYS;
    this.organizationOfHash = new LruMap(maxApiKeys);
    this.lastUsedWrites = new LruMap(maxApiKeys);
  }

  /** Key hashes whose organization is remembered. */
  get rememberedKeyHashes(): number {
    return this.organizationOfHash.size;
  }

  /** Keys whose last `last_used_at` write is remembered. */
  get rememberedLastUsedWrites(): number {
    return this.lastUsedWrites.size;
  }

  /** For apiKeyAuth: the key of a hash, and its throttled `last_used_at` write. */
  readonly apiKeys: Pick<ApiKeyRepository, 'findByHash' | 'touchLastUsed'> = {
    findByHash: (keyHash) => this.apiKeyByHash(keyHash),
    touchLastUsed: (tenant, apiKey, now = new Date()) => this.touchLastUsed(tenant, apiKey, now),
  };

  /** For apiKeyAuth and the routes: a vendor of the organization, or null. */
  readonly vendors: Pick<VendorRepository, 'findById'> = {
    findById: (tenant, id) => this.vendor(tenant, id),
  };

  async apiKeyByHash(keyHash: string): Promise<ApiKey | null> {
    const organizationId = this.organizationOfHash.get(keyHash);
    const load = () => this.sources.apiKeys.findByHash(keyHash);
    if (organizationId !== undefined) return this.cache.get(organizationId, `api.api_key:${keyHash}`, load);
    // First sight of this hash: this answer is as fresh as any read, but it is not put in the
    // cache (a change of the key may have been announced while it was read); the next request
    // loads it through the cache, whose entries a concurrent change cannot leave stale.
    const apiKey = await load();
    if (apiKey) this.organizationOfHash.set(keyHash, apiKey.organization_id);
    return apiKey;
  }

  vendor(tenant: TenantContext, id: string): Promise<Vendor | null> {
    return this.cache.get(tenant.organizationId, `api.vendor:${id}`, () => this.sources.vendors.findById(tenant, id));
  }

  organization(tenant: TenantContext): Promise<Organization | null> {
    return this.cache.get(tenant.organizationId, 'api.organization', () => this.sources.organizations.get(tenant));
  }

  customFields(organizationId: string): Promise<CustomFieldList> {
    const source = this.sources.customFields;
    if (!source) throw new Error('CachedConfig was built without custom fields');
    return this.cache.get(organizationId, 'api.custom_fields', () => source.list(organizationId));
  }

  private async touchLastUsed(
    tenant: TenantContext,
    apiKey: Pick<ApiKey, 'id' | 'last_used_at'>,
    now: Date,
  ): Promise<boolean> {
    const written = this.lastUsedWrites.get(apiKey.id);
    const lastUsed =
      written && (apiKey.last_used_at === null || written > apiKey.last_used_at) ? written : apiKey.last_used_at;
    if (lastUsed !== null && lastUsed.getTime() > now.getTime() - LAST_USED_RESOLUTION_MS) return false;
    // Noted before the write, so concurrent requests of one key do not all try it.
    this.lastUsedWrites.set(apiKey.id, now);
    return this.sources.apiKeys.touchLastUsed(tenant, { id: apiKey.id, last_used_at: lastUsed }, now);
  }
}
