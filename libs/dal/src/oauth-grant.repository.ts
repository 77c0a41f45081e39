/**
 * What an approved OAuth authorization leaves behind (docs/decisions.md "OAuth 2.0", RFC 6749):
 * - a grant: one user's consent to one client for some scopes; access tokens carry its id and are
 *   refused once it is revoked;
 * - authorization codes (single-use, 60 s) and refresh tokens (rotated on use) that point at it.
 *
 * Codes and refresh tokens are stored as SHA-256 hashes only. Using one marks it used in a single
 * conditional write, so of two concurrent uses at most one wins; a second use is reported as
 * `reused` so the caller can revoke the grant (RFC 6749 4.1.2, RFC 9700 4.14.2).
 */
import {
  generateOAuthSecret,
  hashOAuthSecret,
  newOAuthGrantId,
  OAUTH_CODE_TTL_SECONDS,
  OAUTH_REFRESH_TOKEN_TTL_SECONDS,
  type OAuthScope,
} from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';

export const OAUTH_GRANTS_COLLECTION = 'oauth_grants';
export const OAUTH_CODES_COLLECTION = 'oauth_codes';
export const OAUTH_REFRESH_TOKENS_COLLECTION = 'oauth_refresh_tokens';

/** Used codes are kept a day past their expiry, so a late replay still revokes the grant. */
const USED_CODE_RETENTION_SECONDS = 24 * 3600;

export interface OAuthGrant {
  _id: string;
  client_id: string;
  user_id: string;
  organization_id: string;
  scopes: OAuthScope[];
  created_at: Date;
  revoked_at: Date | null;
  /** Pushed forward with each refresh token; the sweep removes grants nobody can use any more. */
  expires_at: Date;
}

export interface OAuthCode {
  _id: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  organization_id: string;
  redirect_uri: string;
  scopes: OAuthScope[];
  /** S256 challenge of the authorization request, or null when none was sent. */
  code_challenge: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface OAuthRefreshToken {
  _id: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  organization_id: string;
  scopes: OAuthScope[];
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** The result of presenting a code or refresh token. */
export type Redemption<T> = { kind: 'unknown' } | { kind: 'reused'; record: T } | { kind: 'redeemed'; record: T };

export class OAuthGrantRepository {
  private readonly grants: Collection<OAuthGrant>;
  private readonly codes: Collection<OAuthCode>;
  private readonly refreshTokens: Collection<OAuthRefreshToken>;

  constructor(store: DocumentStore) {
    this.grants = store.collection<OAuthGrant>(OAUTH_GRANTS_COLLECTION);
    this.codes = store.collection<OAuthCode>(OAUTH_CODES_COLLECTION);
    this.refreshTokens = store.collection<OAuthRefreshToken>(OAUTH_REFRESH_TOKENS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(OAUTH_GRANTS_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
    await store.collection(OAUTH_GRANTS_COLLECTION).createIndex({ keys: { client_id: 1 }, name: 'client' });
    await store.collection(OAUTH_CODES_COLLECTION).createIndex({
      keys: { expires_at: 1 },
      name: 'expires_at_ttl',
      expireAfterSeconds: USED_CODE_RETENTION_SECONDS,
    });
    await store
      .collection(OAUTH_REFRESH_TOKENS_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
    await store.collection(OAUTH_REFRESH_TOKENS_COLLECTION).createIndex({ keys: { grant_id: 1 }, name: 'grant' });
  }

  /** Approve on the consent screen: a new grant and its authorization code. */
  async approve(
    input: {
      clientId: string;
      userId: string;
      organizationId: string;
      scopes: OAuthScope[];
      redirectUri: string;
      codeChallenge: string | null;
    },
    now = new Date(),
  ): Promise<{ grant: OAuthGrant; code: string }> {
    const grant: OAuthGrant = {
      _id: newOAuthGrantId(),
      client_id: input.clientId,
      user_id: input.userId,
      organization_id: input.organizationId,
      scopes: [...input.scopes],
      created_at: now,
      revoked_at: null,
      expires_at: new Date(now.getTime() + OAUTH_REFRESH_TOKEN_TTL_SECONDS * 1000),
    };
    await this.grants.insertOne(grant);
    const code = generateOAuthSecret('code');
    await this.codes.insertOne({
      _id: hashOAuthSecret(code),
      grant_id: grant._id,
      client_id: input.clientId,
      user_id: input.userId,
      organization_id: input.organizationId,
      redirect_uri: input.redirectUri,
      scopes: [...input.scopes],
      code_challenge: input.codeChallenge,
      created_at: now,
      expires_at: new Date(now.getTime() + OAUTH_CODE_TTL_SECONDS * 1000),
      used_at: null,
    });
    return { grant, code };
  }

  /** Marks the code used; expiry and the other checks are the caller's (it sees the record either way). */
  async redeemCode(code: string, now = new Date()): Promise<Redemption<OAuthCode>> {
    return redeem(this.codes, hashOAuthSecret(code), now);
  }

  async issueRefreshToken(
    grant: Pick<OAuthGrant, '_id' | 'client_id' | 'user_id' | 'organization_id'>,
    scopes: OAuthScope[],
    now = new Date(),
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = generateOAuthSecret('refresh_token');
    const expiresAt = new Date(now.getTime() + OAUTH_REFRESH_TOKEN_TTL_SECONDS * 1000);
    await this.refreshTokens.insertOne({
      _id: hashOAuthSecret(token),
      grant_id: grant._id,
      client_id: grant.client_id,
      user_id: grant.user_id,
      organization_id: grant.organization_id,
      scopes: [...scopes],
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
    });
    await this.grants.updateOne({ _id: grant._id, revoked_at: null }, { $set: { expires_at: expiresAt } });
    return { token, expiresAt };
  }

  /** The refresh token's record without using it (to check a request before the token is spent). */
  async findRefreshToken(token: string): Promise<OAuthRefreshToken | null> {
    return this.refreshTokens.findOne({ _id: hashOAuthSecret(token) });
  }

  /** Marks the refresh token used (rotation); the caller issues the next one. */
  async redeemRefreshToken(token: string, now = new Date()): Promise<Redemption<OAuthRefreshToken>> {
    return redeem(this.refreshTokens, hashOAuthSecret(token), now);
  }

  /** The grant while it is not revoked. */
  async findActiveGrant(grantId: string): Promise<OAuthGrant | null> {
    return this.grants.findOne({ _id: grantId, revoked_at: null });
  }

  async isGrantActive(grantId: string): Promise<boolean> {
    return (await this.findActiveGrant(grantId)) !== null;
  }

  /** Ends the grant: its access tokens are refused from the next request, its refresh tokens no longer work. */
  async revokeGrant(grantId: string, now = new Date()): Promise<void> {
    await this.grants.updateOne({ _id: grantId, revoked_at: null }, { $set: { revoked_at: now } });
  }

  /** A deleted client's grants all end. */
  async revokeGrantsOfClient(clientId: string, now = new Date()): Promise<number> {
    return (await this.grants.updateMany({ client_id: clientId, revoked_at: null }, { $set: { revoked_at: now } }))
      .modifiedCount;
  }
}

async function redeem<T extends { _id: string; used_at: Date | null }>(
  collection: Collection<T>,
  hash: string,
  now: Date,
): Promise<Redemption<T>> {
  const record = await collection.findOneAndUpdate(
    { _id: hash, used_at: null },
    { $set: { used_at: now } },
    { returnDocument: 'before' },
  );
  if (record) return { kind: 'redeemed', record };
  const used = await collection.findOne({ _id: hash });
  return used ? { kind: 'reused', record: used } : { kind: 'unknown' };
}
