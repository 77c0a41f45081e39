/**
 * OAuth 2.0 authorization code (docs/decisions.md "OAuth 2.0", RFC 6749, RFC 7636): the pure rules.
 * Scopes, PKCE, redirect URIs, client registration input and the secrets' shapes. No I/O here; the
 * routes in apps/api/src/oauth and the repositories in libs/dal do the rest.
 */
import { trimBlank } from './input';
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../api-keys/api-key';
import { DomainError, type ErrorDetail } from '../errors';
import { hasPermission, type Permission, type Role } from './permissions';

/** The OAuth scopes (docs/api-conventions.md "Authentication"); each is also a permission of the matrix with the same name. */
export const OAUTH_SCOPES = [
  'leads:read',
  'leads:write',
  'vendors:read',
  'vendors:write',
  'analytics:read',
  'webhooks:read',
  'webhooks:write',
  'organization:read',
  'organization:write',
] as const satisfies readonly Permission[];
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** What the consent screen says each scope lets the application do. */
export const OAUTH_SCOPE_DESCRIPTIONS: Readonly<Record<OAuthScope, string>> = {
  'leads:read': 'View your leads and their activity',
  'leads:write': 'Create, edit and delete leads',
  'vendors:read': 'View your lead vendors',
  'vendors:write': 'Add, change, enable and disable vendors',
  'analytics:read': 'View analytics and reports',
  'webhooks:read': 'View your webhooks and their deliveries',
  'webhooks:write': 'Create, change and delete webhooks',
  'organization:read': "View your organization's name and settings",
  'organization:write': "Change your organization's name and settings",
};

/** Lifetimes (the token answer says expires_in 3600; codes per RFC 6749 4.1.2 "10 minutes maximum", we use 60 s). */
export const OAUTH_CODE_TTL_SECONDS = 60;
export const OAUTH_ACCESS_TOKEN_TTL_SECONDS = 3600;
export const OAUTH_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** The sign-in made on the authorize page lasts for the consent step only. */
export const OAUTH_CONSENT_SESSION_TTL_SECONDS = 10 * 60;

/** Error codes of RFC 6749 4.1.2.1 (authorization) and 5.2 (token). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'server_error';

/** An OAuth protocol error; the routes render it per RFC 6749 (redirect or JSON). */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

export function isOAuthScope(value: string): value is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(value);
}

/** A `scope` parameter (space-separated, RFC 6749 3.3): the distinct scopes, in the order of OAUTH_SCOPES. */
export function parseScope(raw: string | undefined): OAuthScope[] {
  const names = (raw ?? '').split(' ').filter((name) => name.length > 0);
  if (names.length === 0)
    throw new OAuthError('invalid_scope', 'scope is required (space-separated, e.g. "leads:read vendors:read")');
  const unknown = names.filter((name) => !isOAuthScope(name));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `unknown scope: ${unknown.join(', ')}`);
  return OAUTH_SCOPES.filter((scope) => names.includes(scope));
}

export function formatScope(scopes: readonly OAuthScope[]): string {
  return scopes.join(' ');
}

/** The scopes a role may not grant (the user's role must hold each requested scope as a permission). */
export function scopesBeyondRole(role: Role, scopes: readonly OAuthScope[]): OAuthScope[] {
  return scopes.filter((scope) => !hasPermission(role, scope));
}

// ---- PKCE (RFC 7636) ----

const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** base64url of a SHA-256 digest: 43 characters, no padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isWellFormedCodeChallenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether the verifier matches an S256 challenge; a malformed verifier never does. */
export function verifyPkce(verifier: string, challenge: string): boolean {
  if (!CODE_VERIFIER.test(verifier)) return false;
  const expected = Buffer.from(s256Challenge(verifier));
  const given = Buffer.from(challenge);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

// ---- Redirect URIs ----

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The shape a redirect URI must have, as the OpenAPI document states it (schemas/api/operations.ts
 * `redirectUri` holds the same pattern; an API test keeps them equal): https with a DNS host name
 * (lower-case labels), or http on a loopback address; a port (1-65535); a path and a query of URL characters.
 */
export const REDIRECT_URI_PATTERN = String.raw`^(?:https://[a-z][a-z0-9-]{0,62}(?:\.[a-z][a-z0-9-]{0,62})*|http://(?:127\.0\.0\.1|localhost|\[::1\]))(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(?:/[A-Za-z0-9._~!$&'()*+,;=:@/%-]*)?(?:\?[A-Za-z0-9._~!$&'()*+,;=:@/?%-]*)?$`;
const REDIRECT_URI_SHAPE = new RegExp(REDIRECT_URI_PATTERN);

/** Why a redirect URI cannot be registered, or null when it can: absolute https, http only on loopback, no fragment. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return 'must use https (http is allowed only for 127.0.0.1, [::1] and localhost)';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https';
  if (!REDIRECT_URI_SHAPE.test(uri))
    return 'must be https://host[:port][/path][?query] with a lower-case DNS host name';
  return null;
}

// ---- Client registration ----

export interface OAuthClientRequest {
  name: string;
  redirect_uris: string[];
  public: boolean;
}

const MAX_REDIRECT_URIS = 10;

export function readOAuthClientRequest(body: unknown): OAuthClientRequest {
  const details: ErrorDetail[] = [];
  const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  for (const key of Object.keys(input)) {
    if (!['name', 'redirect_uris', 'public'].includes(key))
      details.push({ field: key, message: 'is not a known field' });
  }
  const name = typeof input['name'] === 'string' ? trimBlank(input['name']) : '';
  if (name.length < 2 || (input['name'] as string).length > 100)
    details.push({ field: 'name', message: 'is required, 2-100 characters' });
  const uris = input['redirect_uris'];
  const redirectUris: string[] = [];
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    details.push({ field: 'redirect_uris', message: `is required, an array of 1-${MAX_REDIRECT_URIS} URLs` });
  } else {
    uris.forEach((uri: unknown, index) => {
      const problem =
        typeof uri === 'string' && uri.length <= 2000
          ? redirectUriProblem(uri)
          : 'must be a URL of at most 2000 characters';
      if (problem) details.push({ field: `redirect_uris[${index}]`, message: problem });
      else if (!redirectUris.includes(uri as string)) redirectUris.push(uri as string);
    });
  }
  const isPublic = input['public'] ?? false;
  if (typeof isPublic !== 'boolean') details.push({ field: 'public', message: 'must be a boolean' });
  if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Validation failed', details);
  return { name, redirect_uris: redirectUris, public: isPublic === true };
}

// ---- Identifiers and secrets (only SHA-256 hashes are stored) ----

export function newOAuthClientId(): string {
  return `oac_${randomBase62(24)}`;
}

export function newOAuthGrantId(): string {
  return `ogr_${randomBase62(24)}`;
}

export type OAuthSecretKind = 'client_secret' | 'code' | 'refresh_token' | 'consent_session' | 'csrf';

const SECRET_PREFIX: Readonly<Record<OAuthSecretKind, string>> = {
  client_secret: 'ocs_',
  code: 'occ_',
  refresh_token: 'ort_',
  consent_session: 'ocn_',
  csrf: 'ocf_',
};

/** 43 base62 characters: about 256 bits. */
export function generateOAuthSecret(kind: OAuthSecretKind): string {
  return SECRET_PREFIX[kind] + randomBase62(43);
}

export function hashOAuthSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes (or any two strings of equal length). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
