/**
 * Revoked session tokens (logout, refresh), by token id (`jti`). A revocation only has to outlive
 * the token: the TTL index on `expires_at` (the token's own expiry) lets the store's sweep delete
 * it afterwards, when the token would be refused as expired anyway.
 */
import { DuplicateKeyError, type Collection, type DocumentStore } from '@leadstream/ports';

export const REVOKED_SESSIONS_COLLECTION = 'revoked_sessions';

interface RevokedSessionDocument {
  _id: string;
  user_id: string;
  revoked_at: Date;
  expires_at: Date;
}

export class SessionRepository {
  private readonly collection: Collection<RevokedSessionDocument>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<RevokedSessionDocument>(REVOKED_SESSIONS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store.collection(REVOKED_SESSIONS_COLLECTION).createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
  }

  /** Revoking twice is a no-op. */
  async revoke(tokenId: string, userId: string, expiresAt: Date, now = new Date()): Promise<void> {
    try {
      await this.collection.insertOne({ _id: tokenId, user_id: userId, revoked_at: now, expires_at: expiresAt });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    return (await this.collection.findOne({ _id: tokenId })) !== null;
  }
}
