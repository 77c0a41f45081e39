/**
 * What CachedConfig remembers per API key (the organization of each key hash, when it last wrote
 * a key's last_used_at) is bounded: past `maxApiKeys` the least recently used key is forgotten,
 * and a forgotten key is served as on first sight (a store read), never wrongly.
 */
import type { ApiKey, TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { describe, expect, it } from 'vitest';
import { CachedConfig } from './cached-config';

/** A cache that keeps every entry (a subscribed ConfigCache with no change coming). */
function keepingCache(): ConfigCache {
  const entries = new Map<string, Promise<unknown>>();
  return {
    get: (organizationId: string, kind: string, load: () => Promise<unknown>) => {
      const key = `${organizationId}/${kind}`;
      let entry = entries.get(key);
      if (!entry) {
        entry = load();
        entries.set(key, entry);
      }
      return entry;
    },
  } as unknown as ConfigCache;
}

function apiKey(hash: string, lastUsedAt: Date | null = null): ApiKey {
  return { id: `key_${hash}`, organization_id: 'org_1', key_hash: hash, last_used_at: lastUsedAt } as unknown as ApiKey;
}

const tenant: TenantContext = { organizationId: 'org_1', environment: 'live' };

function sources(): { reads: string[]; writes: string[]; config: (maxApiKeys: number) => CachedConfig } {
  const reads: string[] = [];
  const writes: string[] = [];
  const config = (maxApiKeys: number): CachedConfig =>
    new CachedConfig(
      keepingCache(),
      {
        apiKeys: {
          findByHash: async (hash: string) => {
            reads.push(hash);
            return apiKey(hash);
          },
          touchLastUsed: async (_tenant: TenantContext, key: Pick<ApiKey, 'id'>) => {
            writes.push(key.id);
            return true;
          },
        },
        vendors: { findById: async () => null },
        organizations: { get: async () => null },
      },
      { maxApiKeys },
    );
  return { reads, writes, config };
}

describe('CachedConfig bounds', () => {
  it('remembers the organization of at most maxApiKeys key hashes, the least recently used forgotten first', async () => {
    const { reads, config } = sources();
    const cached = config(2);
    await cached.apiKeyByHash('h1'); // first sight: read, the organization remembered
    await cached.apiKeyByHash('h1'); // loaded through the cache
    await cached.apiKeyByHash('h1'); // from the cache
    expect(reads).toEqual(['h1', 'h1']);
    await cached.apiKeyByHash('h2');
    await cached.apiKeyByHash('h3'); // h1 is the least recently used of three: forgotten
    await cached.apiKeyByHash('h3'); // h3 loaded through the cache
    reads.length = 0;
    expect((await cached.apiKeyByHash('h1'))?.id).toBe('key_h1'); // first sight again: a store read
    expect((await cached.apiKeyByHash('h3'))?.id).toBe('key_h3'); // still remembered: no read
    expect(reads).toEqual(['h1']);
    expect(cached.rememberedKeyHashes).toBe(2);
  });

  it("remembers last_used_at writes of at most maxApiKeys keys; a forgotten key's is written again", async () => {
    const { writes, config } = sources();
    const cached = config(2);
    const loadedLongAgo = new Date('2024-01-01T00:00:00Z');
    const now = new Date('2024-06-01T00:00:00Z');
    const touch = (hash: string) => cached.apiKeys.touchLastUsed(tenant, apiKey(hash, loadedLongAgo), now);
    expect(await touch('h1')).toBe(true);
    // The cached key still says last used long ago; this process knows it wrote now.
    expect(await touch('h1')).toBe(false);
    await touch('h2');
    await touch('h3');
    expect(writes).toEqual(['key_h1', 'key_h2', 'key_h3']);
    // h1 was forgotten: its write is tried again (the store decides; no harm), h3 is not.
    expect(await touch('h1')).toBe(true);
    expect(await touch('h3')).toBe(false);
    expect(writes).toEqual(['key_h1', 'key_h2', 'key_h3', 'key_h1']);
    expect(cached.rememberedLastUsedWrites).toBe(2);
  });
});
