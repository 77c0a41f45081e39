/**
 * Single-use account tokens: password resets (1 hour) and invitations (7 days). Only the SHA-256
 * hash of a token is stored. `consume` marks a token used in one conditional write, so of two
 * requests with the same token at most one succeeds (on MongoDB and the embedded store; FerretDB
 * 1.24's conditional updates are not atomic, docs/store.md).
 */
import {
  ACCOUNT_TOKEN_TTL_MS,
  generateAccountToken,
  hashAccountToken,
  type AccountTokenKind,
} from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';

export const ACCOUNT_TOKENS_COLLECTION = 'account_tokens';

export interface AccountToken {
  _id: string;
  kind: AccountTokenKind;
  user_id: string;
  organization_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export class AccountTokenRepository {
  private readonly collection: Collection<AccountToken>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<AccountToken>(ACCOUNT_TOKENS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    // Expired tokens are useless; the sweep removes them (and with them the used ones).
    await store
      .collection(ACCOUNT_TOKENS_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
    await store.collection(ACCOUNT_TOKENS_COLLECTION).createIndex({ keys: { user_id: 1, kind: 1 }, name: 'user_kind' });
  }

  /**
   * Issues a token for the user and returns it (to be mailed, never stored). Earlier unused
   * tokens of the same kind stop working: only the latest mail's link is valid.
   */
  async issue(
    kind: AccountTokenKind,
    user: { id: string; organization_id: string },
    now = new Date(),
  ): Promise<{ token: string; expiresAt: Date }> {
    await this.collection.updateMany({ user_id: user.id, kind, used_at: null }, { $set: { used_at: now } });
    const token = generateAccountToken();
    const expiresAt = new Date(now.getTime() + ACCOUNT_TOKEN_TTL_MS[kind]);
    await this.collection.insertOne({
      _id: hashAccountToken(token),
      kind,
      user_id: user.id,
      organization_id: user.organization_id,
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
    });
    return { token, expiresAt };
  }

  /** The token's record while it is usable (unknown, expired, used or of another kind: null), without using it. */
  async peek(kind: AccountTokenKind, token: string, now = new Date()): Promise<AccountToken | null> {
    return this.collection.findOne({ _id: hashAccountToken(token), kind, used_at: null, expires_at: { $gt: now } });
  }

  /** Uses the token once: returns its record, or null when unknown, expired, used or of another kind. */
  async consume(kind: AccountTokenKind, token: string, now = new Date()): Promise<AccountToken | null> {
    return this.collection.findOneAndUpdate(
      { _id: hashAccountToken(token), kind, used_at: null, expires_at: { $gt: now } },
      { $set: { used_at: now } },
    );
  }
}
