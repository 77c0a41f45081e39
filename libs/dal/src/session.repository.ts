/**
 * Revoked session tokens (logout, refresh), by token id (`jti`). A revocation only has to outlive
 * the token: the TTL index on `expires_at` (the token's own expiry) lets the store's sweep delete
 * it afterwards, when the token would be refused as expired anyway.
 *
 * The token id is the document's `_id`, so revoking is an insert that only one caller can win: the
 * compare-and-set that lets exactly one of many concurrent refreshes of a token go through.
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
    await store
      .collection(REVOKED_SESSIONS_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
  }

  /** True when this call ended the session; false when it had already ended (revoking twice changes nothing). */
  async revoke(tokenId: string, userId: string, expiresAt: Date, now = new Date()): Promise<boolean> {
    try {
      await this.collection.insertOne({ _id: tokenId, user_id: userId, revoked_at: now, expires_at: expiresAt });
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return false;
    }
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    return (await this.collection.findOne({ _id: tokenId })) !== null;
  }
}
