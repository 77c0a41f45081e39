/**
 * Session tokens of the user API (docs/api-conventions.md "Authentication", docs/decisions.md):
 * HS256 JWTs made with `jose`, valid 24 hours. Claims: `sub` user id, `org` organization id,
 * `role`, `jti` token id (what logout revokes), `gen` the user's session generation (a password
 * reset moves it on and so ends every earlier token), `iat`, `exp`, plus a fixed issuer and
 * audience so a JWT minted for something else with the same secret is not a session.
 *
 * Only HS256 is accepted: `alg: none`, other algorithms, bad signatures and malformed tokens are
 * TOKEN_INVALID; a well-signed token past `exp` is TOKEN_EXPIRED (the signature is checked first,
 * so an expired forgery is still TOKEN_INVALID).
 *
 * OAuth access tokens (docs/decisions.md "OAuth 2.0") are the same kind of JWT with audience
 * `leadstream:oauth`, valid 3600 s, plus `scope` (space-separated), `client_id` and `gid` (the
 * grant, which the guard checks is not revoked). `verify` accepts both and says which one it saw in
 * `oauth`.
 */
import { randomUUID } from 'node:crypto';
import {
  DomainError,
  isOAuthScope,
  isRole,
  OAUTH_ACCESS_TOKEN_TTL_SECONDS,
  type OAuthScope,
  type Role,
  sessionGeneration,
  SESSION_TTL_SECONDS,
  type User,
} from '@leadstream/domain';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

export const SESSION_ISSUER = 'leadstream';
export const SESSION_AUDIENCE = 'leadstream:user-api';
export const OAUTH_AUDIENCE = 'leadstream:oauth';
export const SESSION_ALGORITHM = 'HS256';
/** HS256 keys shorter than the hash output weaken it (RFC 7518 section 3.2). */
export const MIN_SECRET_LENGTH = 32;

export interface SessionClaims {
  userId: string;
  organizationId: string;
  role: Role;
  tokenId: string;
  /** The user's session generation at issue; absent in tokens signed before generations existed. */
  sessionGeneration?: number;
  issuedAt: Date;
  expiresAt: Date;
  /** Present for OAuth access tokens: what the user granted to which client. */
  oauth?: OAuthAccess;
}

export interface OAuthAccess {
  scopes: OAuthScope[];
  clientId: string;
  grantId: string;
}

export interface IssuedSession {
  token: string;
  tokenId: string;
  expiresAt: Date;
}

/** Whom a token is for: the user as read from the store, its session generation included. */
export type TokenSubject = Pick<User, 'id' | 'organization_id' | 'role' | 'session_generation'>;

export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly clock: () => Date = () => new Date(),
    private readonly ttlSeconds = SESSION_TTL_SECONDS,
  ) {
    if (secret.length < MIN_SECRET_LENGTH)
      throw new Error(`the session signing secret must be at least ${MIN_SECRET_LENGTH} characters`);
    this.key = new TextEncoder().encode(secret);
  }

  async issue(user: TokenSubject): Promise<IssuedSession> {
    return this.sign(
      user.id,
      { org: user.organization_id, role: user.role, gen: sessionGeneration(user) },
      { typ: 'JWT', audience: SESSION_AUDIENCE, ttlSeconds: this.ttlSeconds },
    );
  }

  /** An OAuth access token for a grant (the token endpoint's `access_token`). */
  async issueOAuthAccess(user: TokenSubject, access: OAuthAccess): Promise<IssuedSession> {
    const claims = {
      org: user.organization_id,
      role: user.role,
      gen: sessionGeneration(user),
      scope: access.scopes.join(' '),
      client_id: access.clientId,
      gid: access.grantId,
    };
    return this.sign(user.id, claims, {
      typ: 'at+jwt',
      audience: OAUTH_AUDIENCE,
      ttlSeconds: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    });
  }

  /** Signs a token for `subject` with a fresh id, issued now and expiring `ttlSeconds` later. */
  private async sign(
    subject: string,
    claims: JWTPayload,
    options: { typ: string; audience: string; ttlSeconds: number },
  ): Promise<IssuedSession> {
    const issuedAt = Math.floor(this.clock().getTime() / 1000);
    const expiresAt = issuedAt + options.ttlSeconds;
    const tokenId = randomUUID();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: SESSION_ALGORITHM, typ: options.typ })
      .setIssuer(SESSION_ISSUER)
      .setAudience(options.audience)
      .setSubject(subject)
      .setJti(tokenId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key);
    return { token, tokenId, expiresAt: new Date(expiresAt * 1000) };
  }

  async verify(token: string): Promise<SessionClaims> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [SESSION_ALGORITHM],
        issuer: SESSION_ISSUER,
        audience: [SESSION_AUDIENCE, OAUTH_AUDIENCE],
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        currentDate: this.clock(),
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new DomainError('TOKEN_EXPIRED', 'Session token has expired');
      throw new DomainError('TOKEN_INVALID', 'Session token is invalid');
    }
    const { sub, jti, iat, exp, org, role, gen } = payload;
    if (
      typeof sub !== 'string' ||
      typeof jti !== 'string' ||
      typeof org !== 'string' ||
      !isRole(role) ||
      typeof iat !== 'number' ||
      typeof exp !== 'number'
    ) {
      throw new DomainError('TOKEN_INVALID', 'Session token is invalid');
    }
    if (gen !== undefined && !Number.isSafeInteger(gen))
      throw new DomainError('TOKEN_INVALID', 'Session token is invalid');
    const claims: SessionClaims = {
      userId: sub,
      organizationId: org,
      role,
      tokenId: jti,
      issuedAt: new Date(iat * 1000),
      expiresAt: new Date(exp * 1000),
    };
    if (typeof gen === 'number') claims.sessionGeneration = gen;
    if (payload.aud === OAUTH_AUDIENCE || (Array.isArray(payload.aud) && payload.aud.includes(OAUTH_AUDIENCE))) {
      const { scope, client_id: clientId, gid } = payload;
      const scopes = typeof scope === 'string' ? scope.split(' ') : [];
      if (
        typeof clientId !== 'string' ||
        typeof gid !== 'string' ||
        scopes.length === 0 ||
        !scopes.every(isOAuthScope)
      ) {
        throw new DomainError('TOKEN_INVALID', 'Session token is invalid');
      }
      claims.oauth = { scopes, clientId, grantId: gid };
    }
    return claims;
  }
}
