/**
 * The sign-in made on the OAuth authorize page (docs/decisions.md "OAuth 2.0"), for the consent
 * step only: a server-side record found by the SHA-256 hash of the cookie's random value, holding
 * the user and the CSRF token that the consent form must send back. It lasts 10 minutes and ends
 * with the decision (approve or deny), so it never works as a general session.
 */
import { generateOAuthSecret, hashOAuthSecret, OAUTH_CONSENT_SESSION_TTL_SECONDS } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';

export const OAUTH_CONSENT_SESSIONS_COLLECTION = 'oauth_consent_sessions';

export interface OAuthConsentSession {
  _id: string;
  user_id: string;
  organization_id: string;
  /** Not a secret by itself: it proves that a form came from a page rendered for this cookie. */
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
}

export class OAuthConsentRepository {
  private readonly collection: Collection<OAuthConsentSession>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<OAuthConsentSession>(OAUTH_CONSENT_SESSIONS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(OAUTH_CONSENT_SESSIONS_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
  }

  /** Returns the cookie value (never stored) and the session's expiry. */
  async start(
    user: { id: string; organization_id: string },
    now = new Date(),
  ): Promise<{ cookie: string; expiresAt: Date }> {
    const cookie = generateOAuthSecret('consent_session');
    const expiresAt = new Date(now.getTime() + OAUTH_CONSENT_SESSION_TTL_SECONDS * 1000);
    await this.collection.insertOne({
      _id: hashOAuthSecret(cookie),
      user_id: user.id,
      organization_id: user.organization_id,
      csrf_token: generateOAuthSecret('csrf'),
      created_at: now,
      expires_at: expiresAt,
    });
    return { cookie, expiresAt };
  }

  async find(cookie: string, now = new Date()): Promise<OAuthConsentSession | null> {
    return this.collection.findOne({ _id: hashOAuthSecret(cookie), expires_at: { $gt: now } });
  }

  async end(cookie: string): Promise<void> {
    await this.collection.deleteOne({ _id: hashOAuthSecret(cookie) });
  }
}
